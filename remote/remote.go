package remote

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

const (
	connectTimeout = 15 * time.Second // ssh's TCP connect and authentication
	aliveInterval  = 5                // seconds: a host silent for 3 × 5 s is dead
	aliveCount     = 3
	closeGrace     = 3 * time.Second // for the master to exit after ssh -O exit
)

// Config says how to reach a host: User and Port "" and 0 leave them to
// ssh (its config, the local user, 22); Host is a name, an address or an
// ssh config alias.
type Config struct {
	Name       string // names the host in messages (as in the scenario)
	User, Host string
	Port       int
	Options    [][2]string // extra ssh options, -o Key=Value in order
	Log        io.Writer   // gets the master's messages once connected; nil: none
}

// Error is a failure to reach or use a host while doing Op ("connect", …).
type Error struct {
	Host, Op string
	Err      error
}

func (e *Error) Error() string { return fmt.Sprintf("ssh host %s: %s: %v", e.Host, e.Op, e.Err) }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Host is an open connection to one machine: the master and its control
// socket. Its methods are safe for concurrent use.
type Host struct {
	cfg  Config
	dir  string   // private directory of the control socket
	base []string // ssh arguments every command shares, destination last

	master *exec.Cmd
	stdin  io.Closer // the master session's input: closing it ends the session
	stderr *tail
	done   chan struct{} // closed when the master has exited
	once   sync.Once

	Facts *Facts // read by the master's own session when it connected
}

// Dial opens the master connection and waits until it accepts commands,
// fails, or ctx ends. The master's own session reads the host's Facts and
// then waits for its input to end: one ssh process and one session per host.
func Dial(ctx context.Context, cfg Config) (*Host, error) {
	cfg.Name = cmp.Or(cfg.Name, cfg.Host)
	dir, err := os.MkdirTemp("", "kaeload-ssh-")
	if err != nil {
		return nil, &Error{Host: cfg.Name, Op: "connect", Err: err}
	}
	h := &Host{cfg: cfg, dir: dir, stderr: &tail{}, done: make(chan struct{})}
	common := []string{
		"-o", "BatchMode=yes",
		"-o", "ControlPath=" + filepath.Join(dir, "cm"),
		"-o", "ConnectTimeout=" + strconv.Itoa(int(connectTimeout/time.Second)),
		"-o", "ServerAliveInterval=" + strconv.Itoa(aliveInterval),
		"-o", "ServerAliveCountMax=" + strconv.Itoa(aliveCount),
	}
	if cfg.User != "" {
		common = append(common, "-l", cfg.User)
	}
	if cfg.Port != 0 {
		common = append(common, "-p", strconv.Itoa(cfg.Port))
	}
	for _, o := range cfg.Options {
		common = append(common, "-o", o[0]+"="+o[1])
	}
	h.base = append(append([]string{"-o", "ControlMaster=no"}, common...), "--", cfg.Host)
	margs := append(append([]string{"-M", "-T", "-o", "ControlMaster=yes", "-o", "ControlPersist=no"}, common...),
		"--", cfg.Host, probeLine+"; exec cat >/dev/null")
	facts, err := h.start(margs)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, &Error{Host: cfg.Name, Op: "connect", Err: err}
	}
	if h.Facts, err = h.awaitMaster(ctx, facts); err != nil {
		h.Close()
		return nil, &Error{Host: cfg.Name, Op: "connect", Err: err}
	}
	h.stderr.mu.Lock()
	h.stderr.log, h.stderr.prefix = cfg.Log, "ssh "+cfg.Name+": "
	h.stderr.mu.Unlock()
	return h, nil
}

// start starts the master; its facts arrive on the channel (nil: none came).
func (h *Host) start(args []string) (<-chan *Facts, error) {
	h.master = exec.Command("ssh", args...)
	h.master.Stderr = h.stderr
	in, err := h.master.StdinPipe()
	if err != nil {
		return nil, err
	}
	// A pipe of our own, not StdoutPipe: Wait would close that one,
	// perhaps before the facts were read.
	out, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	h.master.Stdout, h.stdin = w, in
	setProcAttr(h.master)
	err = h.master.Start()
	_ = w.Close()
	if err != nil {
		_ = out.Close()
		return nil, fmt.Errorf("start ssh: %w", err)
	}
	go func() { _ = h.master.Wait(); close(h.done) }()
	facts := make(chan *Facts, 1)
	go func() {
		f, _ := parseProbe(out)
		facts <- f
		_, _ = io.Copy(io.Discard, out)
		_ = out.Close()
	}()
	return facts, nil
}

// awaitMaster waits for the master session's facts: by then ssh has
// authenticated and listens on the control socket (it does so before it
// opens its session).
func (h *Host) awaitMaster(parent context.Context, facts <-chan *Facts) (*Facts, error) {
	ctx, cancel := context.WithTimeout(parent, connectTimeout+5*time.Second)
	defer cancel()
	select {
	case f := <-facts:
		if f != nil {
			return f, nil
		}
		<-h.done
		return nil, fmt.Errorf("ssh exited (%s)%s", h.master.ProcessState, h.stderr.say())
	case <-ctx.Done():
		if parent.Err() != nil {
			return nil, parent.Err()
		}
		return nil, fmt.Errorf("no connection within %s%s", connectTimeout+5*time.Second, h.stderr.say())
	}
}

// DropReason says why the master ended, quoting ssh; "" while it runs.
func (h *Host) DropReason() string {
	select {
	case <-h.done:
		return fmt.Sprintf("the ssh connection ended (%s)%s", h.master.ProcessState, h.stderr.say())
	default:
		return ""
	}
}

// Command is the ssh command that runs line (see Shell) over the master.
func (h *Host) Command(ctx context.Context, line string) *exec.Cmd {
	args := append(append([]string(nil), h.base...), line)
	if ctx == nil {
		return exec.Command("ssh", args...)
	}
	return exec.CommandContext(ctx, "ssh", args...)
}

// Output runs line on the host with stdin (nil = none) and returns its stdout.
func (h *Host) Output(ctx context.Context, op, line string, stdin io.Reader) ([]byte, error) {
	cmd := h.Command(ctx, line)
	cmd.Stdin = stdin
	var out bytes.Buffer
	errt := &tail{}
	cmd.Stdout, cmd.Stderr = &out, errt
	if err := cmd.Run(); err != nil {
		if ctx != nil && ctx.Err() != nil {
			err = ctx.Err()
		}
		if r := h.DropReason(); r != "" {
			return nil, &Error{Host: h.cfg.Name, Op: op, Err: errors.New(r)}
		}
		return nil, &Error{Host: h.cfg.Name, Op: op, Err: fmt.Errorf("%w%s", err, errt.say())}
	}
	return out.Bytes(), nil
}

// Close ends the master (ssh -O exit, SIGKILL when that fails or closeGrace
// later) and removes the control directory.
func (h *Host) Close() {
	h.once.Do(func() {
		if h.stdin != nil {
			_ = h.stdin.Close()
		}
		select {
		case <-h.done:
		default:
			// A master not yet connected has no socket to ask: killed now.
			grace := closeGrace
			if exec.Command("ssh", append([]string{"-O", "exit"}, h.base...)...).Run() != nil {
				grace = 0
			}
			select {
			case <-h.done:
			case <-time.After(grace):
				_ = h.master.Process.Kill()
				<-h.done
			}
		}
		_ = os.RemoveAll(h.dir)
	})
}

// Quote quotes s for a POSIX shell: one single-quoted word.
func Quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Shell is the shell line that runs command with sh -c on the remote,
// with env set explicitly (env K=V … sh -c 'command'), keys sorted.
func Shell(env map[string]string, command string) string {
	var kv []string
	for _, k := range slices.Sorted(maps.Keys(env)) {
		kv = append(kv, k+"="+env[k])
	}
	return envPrefix(kv) + "sh -c " + Quote(command)
}

// Exec is the shell line that runs program with args on the remote
// (exec, so that the program is the session's process), with env set
// explicitly. A program starting with ~/ is taken relative to $HOME.
func Exec(env []string, program string, args ...string) string {
	w := quoteAll(append([]string{program}, args...))
	if rest, ok := strings.CutPrefix(program, "~/"); ok {
		w[0] = `"$HOME"/` + Quote(rest)
	}
	return "exec " + envPrefix(env) + strings.Join(w, " ")
}

// envPrefix is "env K=V … " for env, "" without any.
func envPrefix(env []string) string {
	if len(env) == 0 {
		return ""
	}
	return "env " + strings.Join(quoteAll(env), " ") + " "
}

func quoteAll(ss []string) []string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = Quote(s)
	}
	return q
}

// Facts is what Probe reads about a host; zero fields are unknown.
type Facts struct {
	Uname    string // `uname -sm` (see ParseUname), from Kernel
	Kernel   string // `uname -srm`
	CPUs     int
	CPUModel string
	cached   []string // the sha256 of each binary at CachePath
}

// probeLine prints the host's facts and the kaeload binaries it has
// cached, between two marks: a login script's chatter is left out.
const probeLine = `echo ` + probeBegin + `; uname -srm; echo "$(nproc 2>/dev/null)"; ` +
	`echo "$(grep -m1 -i -E '^(model name|cpu model|Hardware)' /proc/cpuinfo 2>/dev/null | cut -d: -f2-)"; ` +
	`(cd "$HOME"/.cache/kaeload 2>/dev/null && for d in */; do [ -x "$d"kaeload ] && echo "${d%/}"; done); echo ` + probeEnd

const probeBegin, probeEnd = "kaeload-facts-begin", "kaeload-facts-end"

// Probe reads the host's facts again, in a session of its own.
func (h *Host) Probe(ctx context.Context) (*Facts, error) {
	out, err := h.Output(ctx, "read host facts", probeLine, nil)
	if err != nil {
		return nil, err
	}
	f, err := parseProbe(bytes.NewReader(out))
	if err != nil {
		return nil, &Error{Host: h.cfg.Name, Op: "read host facts", Err: err}
	}
	return f, nil
}

// parseProbe reads probeLine's output up to its end mark.
func parseProbe(r io.Reader) (*Facts, error) {
	var lines []string
	in := false
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		switch {
		case l == probeBegin:
			in, lines = true, nil
		case l == probeEnd && in:
			if len(lines) < 3 {
				return nil, fmt.Errorf("printed %q, want 3 lines or more", strings.Join(lines, "\n"))
			}
			f := &Facts{Kernel: lines[0], CPUModel: lines[2], cached: lines[3:]}
			if w := strings.Fields(f.Kernel); len(w) > 0 {
				f.Uname = w[0] + " " + w[len(w)-1] // uname -sm
			}
			f.CPUs, _ = strconv.Atoi(lines[1])
			return f, nil
		case in:
			lines = append(lines, l)
		}
	}
	return nil, errors.New("its facts ended early")
}

// ParseUname maps `uname -sm` output ("Linux aarch64") to GOOS/GOARCH.
func ParseUname(out string) (string, error) {
	f := strings.Fields(out)
	if len(f) != 2 {
		return "", fmt.Errorf("uname -sm printed %q, want the OS and the machine", strings.TrimSpace(out))
	}
	goos := strings.ToLower(f[0])
	arch := map[string]string{
		"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64",
		"i386": "386", "i686": "386", "armv7l": "arm", "armv6l": "arm",
		"ppc64le": "ppc64le", "s390x": "s390x", "riscv64": "riscv64", "loongarch64": "loong64",
	}[f[1]]
	if arch == "" {
		return "", fmt.Errorf("uname -sm printed %q: machine %q is not one Go builds for", strings.TrimSpace(out), f[1])
	}
	return goos + "/" + arch, nil
}

// FileHash is the hex sha256 of the file at path, once per path, size and
// time: a 36 MB binary costs 0.1 s of CPU, and every host dialled asks.
func FileHash(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	key := fmt.Sprint(path, st.Size(), st.ModTime().UnixNano())
	hashMu.Lock()
	defer hashMu.Unlock()
	if sum, ok := hashes[key]; ok {
		return sum, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	s := sha256.New()
	if _, err := io.Copy(s, f); err != nil {
		return "", err
	}
	hashes[key] = hex.EncodeToString(s.Sum(nil))
	return hashes[key], nil
}

var (
	hashMu sync.Mutex
	hashes = map[string]string{} // FileHash's, by path, size and time
)

// CachePath is where Install keeps a binary of hash on a host.
func CachePath(hash string) string { return "~/.cache/kaeload/" + hash + "/kaeload" }

// Install makes the binary at local available at CachePath(its hash) on the
// host, uploading only when f lacks it, checked there with sha256sum if any.
func (h *Host) Install(ctx context.Context, local string, f *Facts) (path, hash string, uploaded bool, err error) {
	hash, err = FileHash(local)
	if err != nil {
		return "", "", false, &Error{Host: h.cfg.Name, Op: "hash kaeload", Err: err}
	}
	path = CachePath(hash)
	if slices.Contains(f.cached, hash) {
		return path, hash, false, nil
	}
	bin, err := os.Open(local)
	if err != nil {
		return "", "", false, &Error{Host: h.cfg.Name, Op: "upload kaeload", Err: err}
	}
	defer bin.Close()
	dir := `"$HOME"/.cache/kaeload/` + hash
	// Written under a temporary name and renamed: a cut upload never
	// leaves a truncated binary behind the final name.
	line := `set -e; umask 077; mkdir -p ` + dir + `; t=` + dir + `/kaeload.$$; cat > "$t"; chmod 755 "$t"; ` +
		`if command -v sha256sum >/dev/null 2>&1; then s=$(sha256sum "$t" | cut -d" " -f1); if [ "$s" != ` + hash + ` ]; then rm -f "$t"; echo "uploaded file has sha256 $s" >&2; exit 1; fi; fi; ` +
		`mv -f "$t" ` + dir + `/kaeload`
	if _, err := h.Output(ctx, "upload kaeload", line, bin); err != nil {
		return "", "", false, err
	}
	return path, hash, true, nil
}

// tail keeps the last 5 lines written to it that are not blank.
type tail struct {
	mu    sync.Mutex
	lines []string
	part  string // the line being written
	// log, once set (once connected: a failure to connect quotes the
	// lines in its error, once), gets every line written, after prefix.
	log    io.Writer
	prefix string
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, l := range strings.SplitAfter(string(b), "\n") {
		if l != "" && t.log != nil {
			_, _ = io.WriteString(t.log, t.prefix+l)
		}
	}
	lines := strings.Split(t.part+string(b), "\n")
	t.part = lines[len(lines)-1]
	for _, l := range lines[:len(lines)-1] {
		if l = strings.TrimSpace(l); l != "" {
			t.lines = append(t.lines, l)
		}
	}
	t.lines = t.lines[max(len(t.lines)-5, 0):]
	return len(b), nil
}

// say is ": line; line" of the last lines, or "".
func (t *tail) say() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := slices.Clone(t.lines)
	if l := strings.TrimSpace(t.part); l != "" {
		lines = append(lines, l)
	}
	if len(lines) == 0 {
		return ""
	}
	return ": " + strings.Join(lines, "; ")
}
