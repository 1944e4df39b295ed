package serverprof

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results"
)

// parseFile parses a recorded perf script output in testdata.
func parseFile(t *testing.T, name string) (*Profile, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseScript(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return p, string(b)
}

// checkSums fails unless the record's libraries and stacks each add up
// to its samples, and no function has more.
func checkSums(t *testing.T, rec results.ServerProfile) {
	t.Helper()
	var libs, stacks uint64
	for _, l := range rec.Libraries {
		libs += l.Samples
	}
	for _, s := range rec.Stacks {
		stacks += s.Samples
	}
	if libs != rec.Samples || stacks != rec.Samples {
		t.Errorf("libraries add up to %d, stacks to %d, want the %d samples", libs, stacks, rec.Samples)
	}
	for _, f := range rec.Functions {
		if f.Samples > rec.Samples {
			t.Errorf("function %+v has more than the %d samples", f, rec.Samples)
		}
	}
}

// TestParseNginx: perf script of Debian's nginx doing RSA-2048 handshakes
// on this machine (recorded with -g): one sample per task line, libcrypto
// the heaviest library, the kernel named "kernel", every count adding up.
func TestParseNginx(t *testing.T) {
	p, text := parseFile(t, "nginx-rsa2048.txt")
	want := uint64(0)
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "nginx ") {
			want++
		}
	}
	rec := p.Record()
	if got := rec.Samples; got != want || want == 0 {
		t.Fatalf("samples %d, want %d (task lines)", got, want)
	}
	checkSums(t, rec)
	if got, want := rec.Libraries[0].Name, "libcrypto.so.3"; got != want {
		t.Errorf("heaviest library %q, want %q (%+v)", got, want, rec.Libraries)
	}
	kernel := false
	for _, l := range rec.Libraries {
		kernel = kernel || l.Name == "kernel"
		if strings.Contains(l.Name, "/") || l.Name == "[kernel.kallsyms]" {
			t.Errorf("library %q: want base names and \"kernel\"", l.Name)
		}
	}
	if !kernel {
		t.Errorf("no kernel samples in %+v", rec.Libraries)
	}
	// The folded stacks run root first: the leaf frame is the sample's
	// own library and function.
	for _, s := range rec.Stacks {
		fr := s.Frames()
		if len(fr) == 0 || len(fr) > results.ProfileDepth {
			t.Errorf("stack %q has %d frames", s.Stack, len(fr))
		}
	}
}

// TestParseNoCallchain: without -g, perf script pads the task's name and
// prints the sample's ip, symbol and DSO on its line.
func TestParseNoCallchain(t *testing.T) {
	p, text := parseFile(t, "nginx-rsa2048-nocallchain.txt")
	rec := p.Record()
	if got, want := rec.Samples, uint64(strings.Count(text, "\n")); got != want {
		t.Errorf("samples %d, want %d (one per line)", got, want)
	}
	checkSums(t, rec)
	found := false
	for _, f := range rec.Functions {
		found = found || f.Name == "ERR_vset_error" && f.Library == "libcrypto.so.3"
	}
	if !found {
		t.Errorf("functions %+v lack ERR_vset_error in libcrypto.so.3", rec.Functions)
	}
}

// TestParseLines: frames and tasks perf prints in corner cases.
func TestParseLines(t *testing.T) {
	for _, c := range []struct {
		name, text string
		lib, fn    string
		samples    uint64
	}{
		{"kernel", "nginx 1/1\n\tffffffff8220 tcp_v4_rcv+0x1f ([kernel.kallsyms])\n\n", "kernel", "tcp_v4_rcv", 1},
		{"module", "nginx 1/1\n\tffffffffc0a0 hpre_rsa_enc ([hisi_hpre])\n", "[hisi_hpre]", "hpre_rsa_enc", 1},
		{"deleted", "nginx 1/1\n\t7f00 foo (/usr/lib/libkae.so.1 (deleted))\n", "libkae.so.1", "foo", 1},
		{"c++", "envoy 9/10\n\t55aa Envoy::Foo::operator()(int) const (/usr/bin/envoy)\n", "envoy", "Envoy::Foo::operator()(int) const", 1},
		{"no symbol", "nginx 1/1\n\t7f00  (/usr/lib/libssl.so.3)\n", "libssl.so.3", Unknown, 1},
		{"no frames", "nginx 1/1\n\nnginx 1/1\n", Unknown, Unknown, 2},
		{"spaces in name", "Web Content 77/78\n\t7f00 js::Run (/usr/lib/libxul.so)\n", "libxul.so", "js::Run", 1},
		{"hex name padded", "   cafe 5/5   7f00 f (/lib/libc.so.6)\n", "libc.so.6", "f", 1},
		{"header comment", "# ========\n# captured on: x\nnginx 1/1\n\t7f00 g (/lib/libc.so.6)\n", "libc.so.6", "g", 1},
		{"garbage", "\t zz not a frame\n(((\n", Unknown, Unknown, 1},
	} {
		p, err := ParseScript(strings.NewReader(c.text))
		if err != nil {
			t.Fatal(err)
		}
		rec := p.Record()
		if got := rec.Samples; got != c.samples {
			t.Errorf("%s: samples %d, want %d", c.name, got, c.samples)
			continue
		}
		checkSums(t, rec)
		if got := rec.Functions[0]; got.Library != c.lib || got.Name != c.fn {
			t.Errorf("%s: top function %q in %q, want %q in %q", c.name, got.Name, got.Library, c.fn, c.lib)
		}
	}
}

// TestReason: perf's own error output, recorded on this machine, words
// why there is no profile.
func TestReason(t *testing.T) {
	read := func(name string) []string {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(string(b), "\n")
	}
	for _, c := range []struct {
		name     string
		err      []string
		paranoid string
		want     string
	}{
		{"paranoid", read("perf-paranoid.err"), "3", "not permitted: perf_event_paranoid=3 "},
		{"gone", read("perf-nosuchprocess.err"), "2", "server PIDs not found"},
		{"old perf", []string{"  Error: unknown option `control'"}, "", "perf too old"},
		{"debian wrapper", []string{"/usr/bin/perf: line 13: exec: perf_5.10: not found", "E: linux-perf-5.10 is not installed.", "perf not found for kernel 5.10"}, "", "perf not found: "},
		{"other", []string{"", "  something else  "}, "", "perf record failed: something else"},
	} {
		if got := Reason(c.err, c.paranoid); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %q, want it to start with %q", c.name, got, c.want)
		}
	}
}

// TestRecordBounds: a profile of more stacks and libraries than a
// repetition keeps stores the heaviest and counts the rest in one entry.
func TestRecordBounds(t *testing.T) {
	var b strings.Builder
	for i := range results.ProfileStacks + 100 {
		for range 1 + i%3 {
			b.WriteString("srv 1/1\n")
			b.WriteString("\t10 f" + itoa(i) + " (/lib/lib" + itoa(i%(results.ProfileLibraries+10)) + ".so)\n\t20 main (/bin/srv)\n\n")
		}
	}
	p, err := ParseScript(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	rec := p.Record()
	checkSums(t, rec)
	if got, want := len(rec.Stacks), results.ProfileStacks; got != want {
		t.Errorf("%d stacks, want %d", got, want)
	}
	if got, want := rec.Stacks[len(rec.Stacks)-1].Stack, results.OtherStacks; got != want {
		t.Errorf("last stack %q, want %q", got, want)
	}
	if got, want := len(rec.Libraries), results.ProfileLibraries; got != want {
		t.Errorf("%d libraries, want %d", got, want)
	}
	if got, want := rec.Libraries[len(rec.Libraries)-1].Name, results.OtherLibraries; got != want {
		t.Errorf("last library %q, want %q", got, want)
	}
	if got, want := len(rec.Functions), results.ProfileFunctions; got != want {
		t.Errorf("%d functions, want %d", got, want)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// FuzzParsePerfScript: any text parses without a panic into counts that
// add up (libraries and stacks to the samples), within the bounds.
func FuzzParsePerfScript(f *testing.F) {
	for _, name := range []string{"nginx-rsa2048-nocallchain.txt"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("nginx 1/1\n\tffff tcp_v4_rcv+0x1f ([kernel.kallsyms])\n\t7f00 x (/a/b (deleted))\n\n")
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParseScript(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		rec := p.Record()
		var libs, stacks uint64
		for _, l := range rec.Libraries {
			libs += l.Samples
		}
		for _, s := range rec.Stacks {
			stacks += s.Samples
			if n := len(s.Frames()); s.Stack != results.OtherStacks && n > results.ProfileDepth {
				t.Errorf("stack of %d frames", n)
			}
		}
		if libs != rec.Samples || stacks != rec.Samples {
			t.Errorf("libraries %d, stacks %d, samples %d", libs, stacks, rec.Samples)
		}
		if len(rec.Stacks) > results.ProfileStacks || len(rec.Libraries) > results.ProfileLibraries || len(rec.Functions) > results.ProfileFunctions || len(rec.Packages) > results.ProfilePackages {
			t.Errorf("over the bounds: %d stacks, %d libraries, %d functions", len(rec.Stacks), len(rec.Libraries), len(rec.Functions))
		}
	})
}

// TestGoCrypto: the profile of kaeload serve --cert rsa2048 from issue
// 40 (bigmod 81 %, edwards25519 7 %, sha256 1 % of the samples, all in
// the "kaeload" binary) has a crypto share of 89 % by package, not the
// whole binary's by library name; a crypto library's samples count once.
func TestGoCrypto(t *testing.T) {
	var b strings.Builder
	add := func(n int, sym, dso string) {
		for range n {
			b.WriteString("kaeload 7/7\n\t4a10 " + sym + "+0x1f (" + dso + ")\n\t4000 runtime.goexit (/usr/bin/kaeload)\n\n")
		}
	}
	add(81, "crypto/internal/fips140/bigmod.addMulVVW2048", "/usr/bin/kaeload")
	add(7, "crypto/internal/fips140/edwards25519/field.feMul", "/usr/bin/kaeload")
	add(1, "vendor/golang.org/x/crypto/chacha20poly1305.(*chacha20poly1305).sealGeneric", "/usr/bin/kaeload")
	add(6, "runtime.mallocgc", "/usr/bin/kaeload")
	add(2, "slices.SortFunc[go.shape.[]crypto/x509.Foo]", "/usr/bin/kaeload")
	add(2, "crypto_shash_update", "[kernel.kallsyms]")
	add(1, "BN_mod_exp_mont", "/usr/lib/libcrypto.so.3")
	p, err := ParseScript(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	rec := p.Record()
	spec := &results.ProfileSpec{Crypto: results.DefaultCryptoLibraries}
	if got, want := spec.CryptoSamples(&rec), uint64(81+7+1+1); got != want {
		t.Errorf("crypto samples %d, want %d; packages %+v", got, want, rec.Packages)
	}
	for fn, want := range map[string]string{
		"crypto/tls.(*Conn).Handshake": "crypto/tls", "main.main": "main", "crypto.Hash.New": "crypto",
		"slices.SortFunc[go.shape.[]crypto/x509.Foo]": "slices", "BN_mod_exp_mont": "", "memcpy@plt": "",
	} {
		if got := GoPackage("kaeload", fn); got != want {
			t.Errorf("GoPackage(%q) = %q, want %q", fn, got, want)
		}
	}
}
