package serverprof

import (
	"debug/elf"
	"debug/gosym"
	"encoding/binary"
	"path/filepath"
	"strings"
)

// goSymbols names the functions of Go executables on this machine that
// perf cannot name: a binary stripped of its symbol table (Debian's
// caddy) still holds the .gopclntab that Go's runtime needs for its
// tracebacks. Each binary is read once; nil names nothing.
type goSymbols map[string]goTable

// goTable is one binary's function table and its loadable segments.
type goTable struct {
	funcs *gosym.Table
	segs  []*elf.Prog
}

// name is the Go function at offset off of the executable at path (perf script prints an
// unnamed frame's address relative to its file), or "".
func (g goSymbols) name(path string, off uint64) string {
	if g == nil || !filepath.IsAbs(path) || strings.HasSuffix(path, "(deleted)") {
		return ""
	}
	t, ok := g[path]
	if !ok {
		t = readGoTable(path)
		g[path] = t
	}
	for _, p := range t.segs {
		if off >= p.Off && off < p.Off+p.Filesz {
			if fn := t.funcs.PCToFunc(off - p.Off + p.Vaddr); fn != nil {
				return fn.Name
			}
			break
		}
	}
	return ""
}

// readGoTable reads the function table of the Go executable at path; empty where it is none.
func readGoTable(path string) goTable {
	f, err := elf.Open(path)
	if err != nil {
		return goTable{}
	}
	defer f.Close()
	pcln, text := f.Section(".gopclntab"), f.Section(".text")
	if pcln == nil || text == nil {
		return goTable{}
	}
	data, err := pcln.Data()
	if err != nil {
		return goTable{}
	}
	funcs, err := gosym.NewTable(nil, gosym.NewLineTable(data, textStart(data, f.ByteOrder, text.Addr)))
	if err != nil {
		return goTable{}
	}
	t := goTable{funcs: funcs}
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && p.Flags&elf.PF_X != 0 {
			t.segs = append(t.segs, p)
		}
	}
	return t
}

// textStart is where the function offsets of pclntab data count from:
// Go 1.18 and 1.19 write it in the table (runtime.text), which can lie
// past the start of .text (by 0x100 in Debian's caddy, Go 1.19); later
// ones write 0, and debug/gosym takes the section's.
func textStart(data []byte, order binary.ByteOrder, section uint64) uint64 {
	if len(data) < 32 || data[7] != 8 {
		return section
	}
	switch order.Uint32(data) {
	case 0xfffffff0, 0xfffffff1: // Go 1.18-1.19, Go 1.20 and later
		if start := order.Uint64(data[24:]); start != 0 {
			return start
		}
	}
	return section
}
