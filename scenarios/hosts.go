package scenarios

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/scenarios/plans"
)

// nameRE is a host or login name ssh takes unquoted: no leading dash (an
// ssh option), no spaces or shell characters.
var nameRE = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]*$`)

// optionKeyRE is an ssh_config keyword.
var optionKeyRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*$`)

// platformRE is GOOS/GOARCH.
var platformRE = regexp.MustCompile(`^[a-z0-9]+/[a-z0-9]+$`)

// reservedSSHOptions are the options kaeload sets itself on every ssh
// command: one shared connection per host, never a password prompt.
var reservedSSHOptions = []string{"BatchMode", "ControlMaster", "ControlPath", "ControlPersist"}

// ParseHost resolves a host as written: "local" (nil, ""), ssh://[user@]host[:port]
// or a host name from the ssh config; else a message saying what was expected.
func ParseHost(raw string) (*plans.SSHHost, string) {
	const want = "want local, ssh://[user@]host[:port] or a host name from the ssh config"
	ssh := strings.HasPrefix(raw, "ssh://")
	switch {
	case raw == "local":
		return nil, ""
	case !ssh && strings.Contains(raw, "@"):
		return nil, fmt.Sprintf("%q: write ssh://%s (%s)", raw, raw, want)
	case !ssh && nameRE.MatchString(raw):
		return &plans.SSHHost{Name: raw, Host: raw}, ""
	case !ssh:
		return nil, fmt.Sprintf("%s, got %q", want, raw)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Sprintf("%q is not an ssh URL (%s)", raw, want)
	}
	_, hasPass := u.User.Password()
	h := &plans.SSHHost{Name: raw, Host: u.Hostname(), User: u.User.Username()}
	port := u.Port()
	h.Port, err = strconv.Atoi(port)
	switch {
	case hasPass:
		return nil, fmt.Sprintf("%q holds a password; kaeload logs in with keys only (BatchMode): drop the password and load the key into ssh-agent or name it in ssh_options: {IdentityFile: …}", raw)
	case (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "":
		return nil, fmt.Sprintf("%q has a path, query or fragment (%s)", raw, want)
	case h.Host == "" || strings.HasPrefix(h.Host, "-") || strings.ContainsAny(h.Host, " \t'\"\\$`;&|<>"):
		return nil, fmt.Sprintf("%q has no usable host name (%s)", raw, want)
	case u.User != nil && !nameRE.MatchString(h.User):
		return nil, fmt.Sprintf("%q: %q is not a login name (want letters, digits, . _ -)", raw, h.User)
	case port != "" && (err != nil || h.Port < 1 || h.Port > 65535):
		return nil, fmt.Sprintf("%q: port %q, want 1 to 65535", raw, port)
	}
	return h, ""
}

// host resolves a host field at path, remembers an ssh host for
// Plan.Hosts and returns it (nil for local or on error).
func (c *compiler) host(path, raw string) *plans.SSHHost {
	h, msg := ParseHost(raw)
	if msg != "" {
		c.errorf(path, "%s", msg)
	}
	if h == nil {
		return nil
	}
	if i := slices.IndexFunc(c.hosts, func(o plans.SSHHost) bool { return o.Name == h.Name }); i >= 0 {
		return &c.hosts[i]
	}
	c.hosts = append(c.hosts, *h)
	return h
}

// sshOptions resolves ssh_options.
func (c *compiler) sshOptions() []plans.SSHOption {
	var out []plans.SSHOption
	for _, p := range c.s.SSHOptions {
		path := "ssh_options." + p.Key
		r := slices.IndexFunc(reservedSSHOptions, func(r string) bool { return strings.EqualFold(p.Key, r) })
		switch {
		case !optionKeyRE.MatchString(p.Key):
			c.errorf(path, "%q is not an ssh option name (want a keyword of ssh_config(5), such as IdentityFile)", p.Key)
			continue
		case plans.HasControl(p.Value) || strings.TrimSpace(p.Value) == "":
			c.errorf(path, "want a value without control characters, got %q", p.Value)
			continue
		case r >= 0:
			c.errorf(path, "%s is set by kaeload (BatchMode=yes and one ControlMaster connection per host); leave it out", reservedSSHOptions[r])
		}
		out = append(out, plans.SSHOption{Key: p.Key, Value: p.Value})
	}
	return out
}

// binaries resolves binaries: platform -> file, relative to the scenario.
func (c *compiler) binaries() map[string]string {
	if len(c.s.Binaries) == 0 {
		return nil
	}
	out := make(map[string]string, len(c.s.Binaries))
	for _, k := range sortedKeys(c.s.Binaries) {
		path, f := "binaries."+k, c.s.Binaries[k]
		file := f
		if !filepath.IsAbs(file) {
			file = filepath.Join(c.s.abs, file)
		}
		goos, goarch, _ := strings.Cut(k, "/")
		st, err := os.Stat(file)
		switch {
		case !platformRE.MatchString(k):
			c.errorf(path, "%q is not a platform (want GOOS/GOARCH, such as linux/arm64)", k)
			continue
		case f == "":
			c.errorf(path, "empty (want the path of a kaeload built for %s)", k)
			continue
		case os.IsNotExist(err):
			// Validating on another machine than the one that runs is
			// fine; the run fails only if a host of that platform needs it.
			c.warnf(path, "%s does not exist yet (build it with GOOS=%s GOARCH=%s go build -o %s ./cmd/kaeload): a %s host would fail the run", f, goos, goarch, f, k)
		case err != nil:
			c.errorf(path, "%s: %v", f, errors.Unwrap(err))
			continue
		case !st.Mode().IsRegular():
			c.errorf(path, "%s is not a regular file", f)
			continue
		}
		out[k] = file
	}
	return out
}

// layoutHosts resolves load.layout.hosts: nil (this machine) for local,
// each host once; nil result after an error.
func (c *compiler) layoutHosts(raw []string) []*plans.SSHHost {
	const path = "load.layout.hosts"
	if len(raw) == 0 {
		c.errorf(path, "empty list (give at least one host, or leave hosts out for this machine)")
		return nil
	}
	var out []*plans.SSHHost
	seen := map[string]int{}
	ok := true
	for i, r := range raw {
		p := fmt.Sprintf("%s[%d]", path, i)
		if j, dup := seen[r]; dup {
			c.errorf(p, "%q already listed as %s[%d]", r, path, j)
			ok = false
			continue
		}
		seen[r] = i
		h := c.host(p, r)
		if h == nil && r != "local" {
			ok = false
			continue
		}
		out = append(out, h)
	}
	if !ok {
		return nil
	}
	return out
}

// remoteTarget checks that groups on other hosts can reach the target: not
// the built-in one (an error) nor, as meant, a loopback URL (a warning).
func (c *compiler) remoteTarget(t plans.Target, groups []plans.Group) {
	for i, g := range groups {
		if g.Host == nil {
			continue
		}
		path := fmt.Sprintf("load.groups[%d].host", i)
		if _, ok := c.s.pos[path]; !ok {
			path = "load.layout.hosts"
		}
		switch {
		case t.Builtin != nil:
			c.errorf(path, "the built-in target listens on this machine's loopback, which a group on %s cannot reach: give target.url", g.Host.Name)
		case t.Addr != "":
			host, _, err := net.SplitHostPort(t.Addr)
			if ip := net.ParseIP(host); err == nil && (host == "localhost" || (ip != nil && ip.IsLoopback())) {
				c.warnf(path, "target %s is a loopback address: the group on %s loads %s's own loopback, not this machine's", t.Addr, g.Host.Name, g.Host.Name)
			}
		}
		return // said once
	}
}
