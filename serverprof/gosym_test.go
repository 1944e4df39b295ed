package serverprof

import (
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results"
)

// fileOffset is where address pc of the executable at path lies in its
// file: perf script prints an unnamed frame so.
func fileOffset(t *testing.T, path string, pc uint64) uint64 {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Skipf("not an ELF executable: %v", err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && pc >= p.Vaddr && pc < p.Vaddr+p.Filesz {
			return pc - p.Vaddr + p.Off
		}
	}
	t.Fatalf("%#x in no segment of %s", pc, path)
	return 0
}

// TestGoSymbolsStripped: perf leaves a stripped Go binary's frames
// "[unknown]" (Debian's caddy: 91 % of its samples); the test binary,
// which go test links without a symbol table, is named from its
// .gopclntab, leaf and caller, and its crypto/... package counts as crypto.
func TestGoSymbolsStripped(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	off := fileOffset(t, exe, uint64(reflect.ValueOf(sha256.Sum256).Pointer()))
	text := fmt.Sprintf("srv 10/11\n\t%x [unknown] (%s)\n\t%x [unknown] (%s)\n\n", off+4, exe, off+1, exe)
	p, err := parseScript(strings.NewReader(text), goSymbols{})
	if err != nil {
		t.Fatal(err)
	}
	rec := p.Record()
	if len(rec.Functions) != 1 || rec.Functions[0].Name != "crypto/sha256.Sum256" {
		t.Fatalf("functions %+v, want crypto/sha256.Sum256", rec.Functions)
	}
	if got := rec.Stacks[0].Stack; strings.Count(got, "crypto/sha256.Sum256") != 2 {
		t.Errorf("stack %q, want the caller named too", got)
	}
	spec := results.ProfileSpec{Crypto: results.DefaultCryptoLibraries}
	if got := spec.CryptoSamples(&rec); got != 1 {
		t.Errorf("crypto samples %d, want 1", got)
	}
	bare, _ := ParseScript(strings.NewReader(text))
	if got := bare.Record().Functions[0].Name; got != Unknown {
		t.Errorf("without goSymbols (a remote host's binary) the frame is %q, want %s", got, Unknown)
	}
}

// TestTextStart: a Go 1.18-1.19 table gives its own text start (in
// Debian's caddy 0x100 past .text: taking .text named every function
// after its neighbour); older ones, and newer ones (which write 0), count
// from .text.
func TestTextStart(t *testing.T) {
	for _, c := range []struct {
		magic       uint32
		start, want uint64
	}{{0xfffffff0, 0x4035e0, 0x4035e0}, {0xfffffff1, 0, 0x4034e0}, {0xfffffffa, 0x4035e0, 0x4034e0}} {
		data := make([]byte, 32)
		binary.LittleEndian.PutUint32(data, c.magic)
		data[7] = 8
		binary.LittleEndian.PutUint64(data[24:], c.start)
		if got := textStart(data, binary.LittleEndian, 0x4034e0); got != c.want {
			t.Errorf("magic %#x: text start %#x, want %#x", c.magic, got, c.want)
		}
	}
}
