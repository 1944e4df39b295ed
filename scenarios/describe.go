package scenarios

import (
	"crypto/tls"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/kaeload/kaeload/pinning"
)

// Describe writes the compiled plan for people, as `kaeload validate` and
// `kaeload run --dry-run` show it: target and request, TLS, load shape,
// every group with its CPUs, threads and connections, variants, baseline
// and warnings.
func (p *Plan) Describe(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(k, format string, args ...any) { fmt.Fprintf(tw, "%s\t%s\n", k, fmt.Sprintf(format, args...)) }
	src := ""
	if p.Source != "" {
		src = " (" + p.Source + ")"
	}
	row("scenario", "%s%s", p.Name, src)
	t := p.Target
	switch {
	case t.Builtin != nil && t.Addr == "":
		row("target", "built-in HTTPS server, %s certificate, on a free loopback port", t.Builtin.Cert)
	case t.Builtin != nil:
		row("target", "built-in HTTPS server, %s certificate, at %s", t.Builtin.Cert, t.Addr)
	default:
		row("target", "%s (dial %s)", t.URL, t.Addr)
	}
	head, body, _ := strings.Cut(string(t.Request), "\r\n\r\n")
	lines := strings.Split(head, "\r\n")
	row("request", "%s (%d bytes)", lines[0], len(t.Request))
	for _, l := range lines[1:] {
		row("", "  %s", l)
	}
	if body != "" {
		row("", "  body: %d bytes", len(body))
	}
	if t.TLS != nil {
		describeTLS(row, t.TLS)
	}
	l := p.Load
	row("load", "connection %s, warmup %s, duration %s, timeout %s, repeat %d", l.Connection, l.Warmup, l.Duration, l.Timeout, p.Repeat)
	conns := 0
	for _, g := range l.Groups {
		conns += g.Connections
	}
	row("groups", "%d, %d connections in all", len(l.Groups), conns)
	tw.Flush()
	gw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(gw, "  group\tcpus\tthreads\tconnections\t\n")
	for i, g := range l.Groups {
		cpus := "unpinned"
		if len(g.CPUs) > 0 {
			cpus = pinning.Set(g.CPUs).String()
		}
		fmt.Fprintf(gw, "  %d\t%s\t%d\t%d\t\n", i, cpus, g.Threads, g.Connections)
	}
	gw.Flush()
	for i, v := range p.Variants {
		k := ""
		if i == 0 {
			k = "variants"
		}
		var env []string
		for name, val := range v.Env {
			env = append(env, name+"="+val)
		}
		sort.Strings(env)
		mark := ""
		if v.Name == p.Baseline || p.Baseline == "" && i == 0 {
			mark = " (baseline)"
		}
		row(k, "%s", strings.TrimSpace(v.Name+mark+" "+strings.Join(env, " ")))
	}
	for i, warn := range p.Warnings {
		k := ""
		if i == 0 {
			k = "warnings"
		}
		row(k, "%s", warn)
	}
	tw.Flush()
}

func describeTLS(row func(k, format string, args ...any), t *TLS) {
	versions := versionName(t.MinVersion)
	if t.MaxVersion != t.MinVersion {
		versions += "-" + versionName(t.MaxVersion)
	}
	ciphers := "Go defaults"
	if len(t.CipherSuites) > 0 {
		var names []string
		for _, id := range t.CipherSuites {
			names = append(names, opensslName(id))
		}
		ciphers = strings.Join(names, " ")
		if t.MaxVersion == tls.VersionTLS13 {
			ciphers += " (TLS 1.2; TLS 1.3 offers all its suites)"
		}
	}
	var curves []string
	for _, id := range t.Curves {
		curves = append(curves, curveName(id))
	}
	onOff := map[bool]string{true: "on", false: "off"}
	sni := t.ServerName
	if sni == "" {
		sni = "(none)"
	}
	verify := onOff[t.Verify]
	if t.Verify && len(t.CAPEM) > 0 {
		verify += " (scenario CA)"
	}
	row("tls", "versions %s, ciphers %s, curves %s", versions, ciphers, strings.Join(curves, " "))
	row("", "resumption %s, verify %s, server name %s", onOff[t.Resumption], verify, sni)
}
