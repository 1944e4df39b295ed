package remote

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/internal/sshdtest"
)

func TestQuoteShell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"abc", "abc"},
		{"", "''"},
		{"a b", "'a b'"},
		{"it's", `'it'\''s'`},
		{"$HOME;rm -rf /", `'$HOME;rm -rf /'`},
	} {
		if got := Quote(tc.in); got != tc.want {
			t.Errorf("Quote(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
	if got, want := Shell(map[string]string{"B": "x y", "A": "it's"}, "nginx -g 'daemon off;'"), `env 'A=it'\''s' 'B=x y' sh -c 'nginx -g '\''daemon off;'\'''`; got != want {
		t.Errorf("Shell = %s\nwant   %s", got, want)
	}
	if got, want := Exec([]string{"K=v w"}, "~/.cache/kaeload/ab/kaeload", "worker", "--relay"), `exec env 'K=v w' "$HOME"/.cache/kaeload/ab/kaeload worker --relay`; got != want {
		t.Errorf("Exec = %s\nwant   %s", got, want)
	}
}

func TestParseUname(t *testing.T) {
	for in, want := range map[string]string{"Linux x86_64\n": "linux/amd64", "Linux aarch64": "linux/arm64", "Darwin arm64": "darwin/arm64"} {
		if got, err := ParseUname(in); err != nil || got != want {
			t.Errorf("ParseUname(%q) = %q, %v, want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "Linux", "Linux pdp11"} {
		if _, err := ParseUname(in); err == nil {
			t.Errorf("ParseUname(%q): no error", in)
		}
	}
}

// dial connects to a fresh test sshd.
func dial(t *testing.T) (*sshdtest.Server, *Host) {
	t.Helper()
	s := sshdtest.Start(t, sshdtest.Config{})
	u := strings.TrimPrefix(s.URL, "ssh://")
	user, _, _ := strings.Cut(u, "@")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h, err := Dial(ctx, Config{Name: s.URL, User: user, Host: "127.0.0.1", Port: s.Port, Options: s.Options()})
	if err != nil {
		t.Fatalf("dial: %v\nsshd log:\n%s", err, s.Log())
	}
	t.Cleanup(h.Close)
	return s, h
}

// TestHostCommands runs commands over one master connection against a
// real sshd: env passed explicitly, the facts, the binary uploaded once
// with its hash checked, and the master gone after Close.
func TestHostCommands(t *testing.T) {
	s, h := dial(t)
	ctx := context.Background()
	out, err := h.Output(ctx, "test", Shell(map[string]string{"KAE_X": "a 'b' $c"}, `printf '%s|%s' "$KAE_X" "$HOME"`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), "a 'b' $c|"+s.Home; got != want {
		t.Errorf("remote printed %q, want %q", got, want)
	}
	// The host is this machine, whatever this test binary was built for
	// (CI runs it for linux/arm64 under qemu too).
	uname, err := exec.Command("uname", "-sm").Output()
	if err != nil {
		t.Fatal(err)
	}
	f := h.Facts // read by the master's session
	if want, _ := ParseUname(string(uname)); want == "" {
		t.Errorf("uname -sm printed %q", uname)
	} else if p, err := ParseUname(f.Uname); err != nil || p != want {
		t.Errorf("platform %q, %v; want %q", p, err, want)
	}
	if f.Kernel == "" || f.CPUs < 1 || len(f.cached) != 0 {
		t.Errorf("facts %+v: want the kernel, the CPUs and no binary cached", f)
	}
	bin := filepath.Join(t.TempDir(), "bin")
	if err := os.WriteFile(bin, bytes.Repeat([]byte("kaeload\n"), 100000), 0o755); err != nil {
		t.Fatal(err)
	}
	path, hash, up, err := h.Install(ctx, bin, f)
	if err != nil || !up {
		t.Fatalf("install: %v (uploaded %v)", err, up)
	}
	if want, _ := FileHash(bin); hash != want || path != CachePath(want) {
		t.Errorf("installed %s hash %s, want hash %s", path, hash, want)
	}
	if got, err := FileHash(filepath.Join(s.Home, strings.TrimPrefix(path, "~/"))); err != nil || got != hash {
		t.Errorf("file on the host has hash %s (%v), want %s", got, err, hash)
	}
	if f, err = h.Probe(ctx); err != nil {
		t.Fatal(err)
	}
	if _, _, up, err := h.Install(ctx, bin, f); err != nil || up {
		t.Errorf("second install: uploaded %v, %v; want it found", up, err)
	}
	h.Close()
	select {
	case <-h.done:
	case <-time.After(5 * time.Second):
		t.Fatal("master still running after Close")
	}
	if _, err := os.Stat(h.dir); !os.IsNotExist(err) {
		t.Errorf("control directory left behind: %v", err)
	}
}

// TestDialRefused: a key the server does not accept fails Dial with an
// error naming the host and quoting ssh.
func TestDialRefused(t *testing.T) {
	s := sshdtest.Start(t, sshdtest.Config{})
	other := filepath.Join(t.TempDir(), "other")
	if err := os.WriteFile(other, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	opts := s.Options()
	opts[0][1] = other
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := Dial(ctx, Config{Name: "ssh://refused", Host: "127.0.0.1", Port: s.Port, Options: opts})
	var re *Error
	if !errors.As(err, &re) || re.Host != "ssh://refused" || !strings.Contains(err.Error(), "Permission denied") {
		t.Fatalf("err = %v, want an *Error for ssh://refused quoting Permission denied", err)
	}
	// Nothing listens: the host is named too.
	_, err = Dial(ctx, Config{Name: "ssh://nobody", Host: "127.0.0.1", Port: 1, Options: opts})
	if err == nil || !strings.HasPrefix(err.Error(), "ssh host ssh://nobody: connect:") {
		t.Fatalf("err = %v, want it to name ssh://nobody", err)
	}
}

// TestParseProbe: the facts between the marks, whatever a login script
// prints around them; an output cut before the end mark is an error.
func TestParseProbe(t *testing.T) {
	out := "welcome to the lab\n" + probeBegin + "\nLinux 6.1.0 x86_64\n16\n Kunpeng 920\n" +
		"abc\ndef\n" + probeEnd + "\nbye\n"
	f, err := parseProbe(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if f.Uname != "Linux x86_64" || f.CPUs != 16 || f.CPUModel != "Kunpeng 920" || !slices.Equal(f.cached, []string{"abc", "def"}) {
		t.Errorf("facts %+v", f)
	}
	for _, cut := range []string{"", probeBegin + "\nLinux 6.1.0 x86_64\n16\n", probeBegin + "\nLinux\n" + probeEnd + "\n"} {
		if f, err := parseProbe(strings.NewReader(cut)); err == nil {
			t.Errorf("parseProbe(%q) = %+v, want an error", cut, f)
		}
	}
}
