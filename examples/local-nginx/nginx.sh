#!/bin/sh
# Private nginx on 127.0.0.1 for examples/local-nginx.yaml: one worker,
# pinned to CPU 0 (when it exists), no session resumption, so that every
# kaeload request costs nginx one full TLS handshake.
#
#   nginx.sh start CERT [PORT [RUNDIR [LABEL]]]   write RUNDIR/nginx.conf, start nginx
#   nginx.sh stop [PORT [RUNDIR]]                 nginx -s quit, wait until it is gone
#
# CERT is rsa2048, rsa4096 or ecdsa-p256 (certs/CERT.crt and certs/CERT.key
# next to this script). PORT defaults to 18443. RUNDIR ("" or "-" for the
# default) defaults to $KAELOAD_RUN_DIR/nginx-PORT — inside the kaeload run
# directory, which kaeload run names in KAELOAD_RUN_DIR to its server
# commands, so that each run keeps its own logs — and, outside a saved run
# (--no-save), to /tmp/kaeload-local-nginx-PORT. RUNDIR holds nginx.conf,
# the pid file, the error log, temp directories and access-LABEL.log
# (LABEL defaults to CERT), one line per request:
#   $msec $status $ssl_session_reused $ssl_protocol $ssl_cipher $bytes_sent $connection $connection_requests
# NGINX_BIN overrides the nginx binary (default: nginx on PATH, else
# /usr/sbin/nginx). (Not NGINX: nginx reads that one for inherited sockets.)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
nginx=${NGINX_BIN:-$(command -v nginx || echo /usr/sbin/nginx)}

usage() {
	echo "usage: $0 start CERT [PORT [RUNDIR [LABEL]]] | stop [PORT [RUNDIR]]" >&2
	exit 2
}

# rundir PORT [RUNDIR]: the run directory nginx uses (see above).
rundir() {
	case ${2:-} in
	"" | -)
		if [ -n "${KAELOAD_RUN_DIR:-}" ]; then
			echo "$KAELOAD_RUN_DIR/nginx-$1"
		else
			echo "/tmp/kaeload-local-nginx-$1"
		fi
		;;
	*) echo "$2" ;;
	esac
}

# running PID: true while PID runs. An exited daemon that its reaper has
# not collected yet (a zombie: some init processes, a container's
# especially, take a second or more) counts as gone.
running() {
	kill -0 "$1" 2>/dev/null || return 1
	state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)
	[ "$state" != Z ]
}

# stop_nginx RUNDIR: quit the nginx whose pid file is in RUNDIR and wait
# for it to exit (at most 10 s); nothing to do when none runs.
stop_nginx() {
	pidfile=$1/nginx.pid
	[ -s "$pidfile" ] || return 0
	pid=$(cat "$pidfile")
	running "$pid" || { rm -f "$pidfile"; return 0; }
	"$nginx" -p "$1" -c "$1/nginx.conf" -e "$1/error.log" -s quit 2>/dev/null || kill -QUIT "$pid" 2>/dev/null || true
	i=0
	while running "$pid"; do
		i=$((i + 1))
		if [ "$i" -gt 100 ]; then
			echo "nginx.sh: nginx (pid $pid) still running after 10s" >&2
			return 1
		fi
		sleep 0.1
	done
	rm -f "$pidfile"
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case $cmd in
start)
	[ $# -ge 1 ] || usage
	cert=$1
	port=${2:-18443}
	run=$(rundir "$port" "${3:-}")
	label=${4:-$cert}
	crt=$here/certs/$cert.crt
	key=$here/certs/$cert.key
	if [ ! -r "$crt" ] || [ ! -r "$key" ]; then
		echo "nginx.sh: no certificate $cert (want rsa2048, rsa4096 or ecdsa-p256)" >&2
		exit 2
	fi
	mkdir -p "$run/tmp"
	stop_nginx "$run" # a leftover from an interrupted run
	user=
	[ "$(id -u)" -ne 0 ] || user="user root;"
	cat >"$run/nginx.conf" <<EOF
# Written by $here/nginx.sh for certificate $cert ($label).
$user
daemon on;
master_process on;
worker_processes 1;
pid $run/nginx.pid;
error_log $run/error.log warn;
# Workers get only the environment listed here; OpenSSL reads
# OPENSSL_ia32cap in the master, before the fork, but pass it on anyway.
env OPENSSL_ia32cap;
env OPENSSL_CONF;
events { worker_connections 4096; }
http {
    log_format kaeload '\$msec \$status \$ssl_session_reused \$ssl_protocol \$ssl_cipher \$bytes_sent \$connection \$connection_requests';
    access_log $run/access-$label.log kaeload;
    client_body_temp_path $run/tmp/body;
    proxy_temp_path $run/tmp/proxy;
    fastcgi_temp_path $run/tmp/fastcgi;
    uwsgi_temp_path $run/tmp/uwsgi;
    scgi_temp_path $run/tmp/scgi;
    server {
        listen 127.0.0.1:$port ssl;
        server_name localhost;
        ssl_certificate $crt;
        ssl_certificate_key $key;
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache off;
        ssl_session_tickets off;
        keepalive_timeout 0;
        location / { return 200 "ok $label\n"; }
    }
}
EOF
	pin=
	if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then
		pin="taskset -c 0"
	fi
	exec $pin "$nginx" -p "$run" -c "$run/nginx.conf" -e "$run/error.log"
	;;
stop)
	port=${1:-18443}
	run=$(rundir "$port" "${2:-}")
	stop_nginx "$run"
	;;
*)
	usage
	;;
esac
