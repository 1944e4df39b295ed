package scenarios

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/scenarios/plans"
)

func TestParseHost(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want *plans.SSHHost
		bad  bool
	}{
		{raw: "local"},
		{raw: "ssh://10.0.0.2", want: &plans.SSHHost{Name: "ssh://10.0.0.2", Host: "10.0.0.2"}},
		{raw: "ssh://root@kunpeng:2222", want: &plans.SSHHost{Name: "ssh://root@kunpeng:2222", User: "root", Host: "kunpeng", Port: 2222}},
		{raw: "ssh://u@[::1]:22", want: &plans.SSHHost{Name: "ssh://u@[::1]:22", User: "u", Host: "::1", Port: 22}},
		{raw: "client-1.lab", want: &plans.SSHHost{Name: "client-1.lab", Host: "client-1.lab"}},
		{raw: "root@client", bad: true},
		{raw: "ssh://a:0", bad: true},
		{raw: "ssh://a:b@c", bad: true},
		{raw: "ssh://", bad: true},
		{raw: "ssh://a/x", bad: true},
		{raw: "-oProxyCommand=x", bad: true},
		{raw: "ssh://-oProxyCommand=x", bad: true},
		{raw: "ssh://a;b", bad: true},
		{raw: "", bad: true},
		{raw: "ssh://x y@a", bad: true},
	} {
		got, msg := ParseHost(tc.raw)
		if (msg != "") != tc.bad {
			t.Errorf("ParseHost(%q): message %q, want bad %v", tc.raw, msg, tc.bad)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseHost(%q) = %+v, want %+v", tc.raw, got, tc.want)
		}
	}
}

// FuzzParseHost: any text is either refused with a message or resolves to
// a host name ssh cannot mistake for an option.
func FuzzParseHost(f *testing.F) {
	for _, s := range []string{"local", "ssh://root@a:22", "kunpeng", "ssh://-x", "ssh://a b", "ssh://[::1]:2", "a@b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		h, msg := ParseHost(raw)
		if msg != "" {
			if h != nil {
				t.Fatalf("%q: both a host and a problem", raw)
			}
			return
		}
		if h == nil {
			if raw != "local" {
				t.Fatalf("%q: no host and no problem", raw)
			}
			return
		}
		if h.Host == "" || h.Host[0] == '-' || h.Port < 0 || h.Port > 65535 || (h.User != "" && h.User[0] == '-') {
			t.Fatalf("%q resolved to %+v", raw, h)
		}
	})
}

// TestCompileHosts: groups, layout hosts and the server resolve to ssh
// hosts listed once in Plan.Hosts; remote CPUs are not checked against
// this machine; ssh_options keep their order; binaries become absolute.
func TestCompileHosts(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "kaeload-arm64"), []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "s.yaml")
	yaml := `
target: {url: https://10.0.0.2/}
ssh_options: {Port: 2222, IdentityFile: /k, StrictHostKeyChecking: "no"}
binaries: {linux/arm64: kaeload-arm64}
load:
  groups:
    - {cpus: "0"}
    - {cpus: "40-47", host: "ssh://root@c1"}
    - {cpus: "40-47", host: c2}
    - {cpus: "48-55", host: "ssh://root@c1"}
server:
  host: ssh://root@srv:22
  start: nginx
`
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := loadCompile(path, smallHost)
	if err != nil {
		t.Fatal(err)
	}
	want := []plans.SSHHost{{Name: "ssh://root@c1", User: "root", Host: "c1"}, {Name: "c2", Host: "c2"}, {Name: "ssh://root@srv:22", User: "root", Host: "srv", Port: 22}}
	if !reflect.DeepEqual(p.Hosts, want) {
		t.Errorf("hosts %+v, want %+v", p.Hosts, want)
	}
	if g := p.Load.Groups; g[0].Host != nil || g[1].Host.Name != "ssh://root@c1" || g[2].Host.Name != "c2" || len(g[3].CPUs) != 8 {
		t.Errorf("groups %+v", g)
	}
	if len(p.Warnings) != 0 {
		t.Errorf("warnings %q: groups on different hosts share no CPU", p.Warnings)
	}
	if s := p.Server; s.Host != "ssh://root@srv:22" || s.SSH == nil || s.SSH.Port != 22 {
		t.Errorf("server %+v", s)
	}
	if got, want := p.SSHOptions, []plans.SSHOption{{Key: "Port", Value: "2222"}, {Key: "IdentityFile", Value: "/k"}, {Key: "StrictHostKeyChecking", Value: "no"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("ssh options %v, want %v", got, want)
	}
	if got, want := p.Binaries["linux/arm64"], filepath.Join(dir, "kaeload-arm64"); got != want {
		t.Errorf("binary %q, want %q", got, want)
	}
	if err := p.Check(); err != nil {
		t.Errorf("Check: %v", err)
	}

	// layout hosts: the layout once per host, host-major.
	lp, err := Parse("l.yaml", []byte(`
target: {url: https://10.0.0.2/}
load:
  layout: {groups: 2, cpus_per_group: 4, first_cpu: 8, hosts: [ssh://a, ssh://b]}
`))
	if err != nil {
		t.Fatal(err)
	}
	pl, err := lp.Compile(smallHost)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range pl.Load.Groups {
		got = append(got, g.Host.Name+" "+pinning.Set(g.CPUs).String())
	}
	if want := []string{"ssh://a 8-11", "ssh://a 12-15", "ssh://b 8-11", "ssh://b 12-15"}; !reflect.DeepEqual(got, want) {
		t.Errorf("layout groups %q, want %q", got, want)
	}
}

// TestMissingBinaryWarns: a binaries entry not built yet is a located
// warning (validation may run elsewhere), not an error.
func TestMissingBinaryWarns(t *testing.T) {
	s, err := Parse("m.yaml", []byte("target: {url: https://10.0.0.2/}\nbinaries: {linux/arm64: ./nope}\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Compile(smallHost)
	if err != nil {
		t.Fatal(err)
	}
	want := "m.yaml:2:25: binaries.linux/arm64: ./nope does not exist yet (build it with GOOS=linux GOARCH=arm64 go build -o ./nope ./cmd/kaeload): a linux/arm64 host would fail the run"
	if len(p.Warnings) != 1 || p.Warnings[0] != want {
		t.Errorf("warnings %q, want %q", p.Warnings, want)
	}
}

// TestRemoteTarget: groups on other hosts cannot use the built-in target,
// and a loopback target is their own loopback (a warning).
func TestRemoteTarget(t *testing.T) {
	s, err := Parse("b.yaml", []byte("target: {builtin: {}}\nload: {groups: [{host: ssh://c1}]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Compile(smallHost); err == nil || err.Error() != "b.yaml:2:24: load.groups[0].host: the built-in target listens on this machine's loopback, which a group on ssh://c1 cannot reach: give target.url" {
		t.Errorf("err = %v", err)
	}
	s, err = Parse("l.yaml", []byte("target: {url: https://127.0.0.1:8443/}\nload: {layout: {groups: 1, cpus_per_group: 1, hosts: [ssh://c1]}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Compile(smallHost)
	if err != nil {
		t.Fatal(err)
	}
	if want := "l.yaml:2:47: load.layout.hosts: target 127.0.0.1:8443 is a loopback address: the group on ssh://c1 loads ssh://c1's own loopback, not this machine's"; len(p.Warnings) != 1 || p.Warnings[0] != want {
		t.Errorf("warnings %q, want %q", p.Warnings, want)
	}
}
