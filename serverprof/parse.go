package serverprof

import (
	"bufio"
	"cmp"
	"errors"
	"io"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
)

// maxLine bounds a line of perf script's output: a longer one (a demangled template) is cut.
const maxLine = 64 << 10

// Unknown names a symbol or library perf could not resolve.
const Unknown = "[unknown]"

// frame is one frame of a sample's call chain.
type frame struct{ lib, fn string }

// Profile counts perf samples by library and function of the sampled instruction, by Go package
// and by folded call stack. The zero Profile is empty and ready to use.
type Profile struct {
	samples uint64
	libs    map[string]uint64
	funcs   map[frame]uint64
	pkgs    map[frame]uint64 // by library and Go package
	stacks  map[string]uint64
}

// add counts one sample whose call chain is chain, leaf first.
func (p *Profile) add(chain []frame) {
	if p.libs == nil {
		p.libs, p.funcs, p.pkgs, p.stacks = map[string]uint64{}, map[frame]uint64{}, map[frame]uint64{}, map[string]uint64{}
	}
	if len(chain) == 0 {
		chain = []frame{{Unknown, Unknown}}
	}
	p.samples++
	p.libs[chain[0].lib]++
	p.funcs[chain[0]]++
	if pkg := GoPackage(chain[0].lib, chain[0].fn); pkg != "" {
		p.pkgs[frame{chain[0].lib, pkg}]++
	}
	if len(chain) > results.ProfileDepth {
		chain = chain[:results.ProfileDepth]
	}
	folded := make([]string, len(chain))
	for i, f := range chain {
		folded[len(chain)-1-i] = results.FoldFrame(f.lib, f.fn) // root first
	}
	p.stacks[strings.Join(folded, ";")]++
}

// ParseScript counts the samples of `perf script -F comm,pid,tid,ip,sym,dso`
// text: a task line, then its frames indented, leaf first, up to a blank
// line (or inline without call chains). Only a read error fails it.
func ParseScript(r io.Reader) (*Profile, error) { return parseScript(r, nil) }

// parseScript is ParseScript naming, with gs, the Go functions perf left unnamed here.
func parseScript(r io.Reader, gs goSymbols) (*Profile, error) {
	p := &Profile{}
	br := bufio.NewReaderSize(r, 64<<10)
	var chain []frame
	in := false
	flush := func() {
		if in {
			p.add(chain)
		}
		chain, in = chain[:0], false
	}
	for {
		line, err := readLine(br)
		if len(line) > 0 || err == nil {
			switch {
			case strings.TrimSpace(line) == "":
				flush()
			case strings.HasPrefix(line, "#"):
				// a header comment (perf script --header)
			case (line[0] == ' ' || line[0] == '\t') && taskField(strings.Fields(line)) == 0:
				// a frame; perf pads a task's name without call chains, so a space does not tell
				if f, ok := parseFrame(strings.TrimSpace(line), gs, len(chain) > 0); ok && in {
					chain = append(chain, f)
				}
			default:
				flush()
				in = true
				// without call chains, the frame follows the "PID/TID" field
				fields := strings.Fields(line)
				if i := taskField(fields); i > 0 && i+1 < len(fields) {
					if f, ok := parseFrame(strings.Join(fields[i+1:], " "), gs, false); ok {
						chain = append(chain, f)
					}
				}
			}
		}
		if err != nil {
			flush()
			if errors.Is(err, io.EOF) {
				return p, nil
			}
			return p, err
		}
	}
}

// readLine reads one line without its end, at most maxLine bytes of it.
func readLine(br *bufio.Reader) (string, error) {
	var b []byte
	for {
		chunk, isPrefix, err := br.ReadLine()
		if len(b) < maxLine {
			b = append(b, chunk[:min(len(chunk), maxLine-len(b))]...)
		}
		if err != nil || !isPrefix {
			return string(b), err
		}
	}
}

// GoPackage is the Go package of function fn in library lib: fn up to the
// first "." after its last "/", before any "[" or "(" (type arguments,
// receivers); "" for symbols that are not Go's.
func GoPackage(lib, fn string) string {
	if lib == "kernel" || strings.HasPrefix(lib, "[") || fn == Unknown || strings.ContainsAny(fn, "@ <") {
		return ""
	}
	head := fn
	if i := strings.IndexAny(fn, "[("); i >= 0 {
		head = fn[:i]
	}
	slash := strings.LastIndexByte(head, '/') + 1
	dot := strings.IndexByte(head[slash:], '.')
	if dot <= 0 {
		return ""
	}
	return head[:slash+dot]
}

// taskField is the index of the "PID/TID" field after a task's name
// (which may hold spaces) on a sample's first line; 0 where there is none.
func taskField(fields []string) int {
	for i := 1; i < min(len(fields), 9); i++ {
		if a, b, ok := strings.Cut(fields[i], "/"); ok && isDigits(a) && isDigits(b) {
			return i
		}
	}
	return 0
}

// parseFrame parses "ADDR SYMBOL (DSO)": the address in hexadecimal, the
// symbol possibly with "+0xOFFSET", the DSO in the line's last balanced
// parentheses. An unnamed symbol is looked up in gs; a caller's address is
// a return address, one past its call.
func parseFrame(s string, gs goSymbols, caller bool) (frame, bool) {
	hex, rest, _ := strings.Cut(s, " ")
	addr, err := strconv.ParseUint(hex, 16, 64)
	if err != nil {
		return frame{}, false
	}
	rest = strings.TrimSpace(rest)
	sym, dso := rest, ""
	if strings.HasSuffix(rest, ")") {
		depth := 0
		for i := len(rest) - 1; i >= 0; i-- {
			switch rest[i] {
			case ')':
				depth++
			case '(':
				depth--
			}
			if depth == 0 {
				sym, dso = strings.TrimSpace(rest[:i]), rest[i+1:len(rest)-1]
				break
			}
		}
	}
	if i := strings.LastIndex(sym, "+0x"); i > 0 {
		if _, err := strconv.ParseUint(sym[i+3:], 16, 64); err == nil {
			sym = sym[:i] // the offset in the function
		}
	}
	f := frame{lib: Library(dso), fn: cmp.Or(sym, Unknown)}
	if f.fn == Unknown && addr > 0 {
		if caller {
			addr--
		}
		if name := gs.name(dso, addr); name != "" {
			f.fn = name
		}
	}
	return f, true
}

// Library names a DSO as a profile shows it: a path by its base name,
// "[kernel.kallsyms]" as "kernel", other bracketed names as they are, ""
// as Unknown, without " (deleted)".
func Library(dso string) string {
	dso = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(dso), "(deleted)"))
	switch {
	case dso == "":
		return Unknown
	case strings.HasPrefix(dso, "[kernel.kallsyms]"):
		return "kernel"
	case strings.HasPrefix(dso, "["):
		return dso
	}
	if b := path.Base(dso); b != "." && b != "/" {
		return b
	}
	return dso
}

func isDigits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

// Record is p as run.json stores it: its top libraries, Go packages, functions and stacks, most
// first, then by name, the rest under Other….
func (p *Profile) Record() results.ServerProfile {
	byFrame := func(a, b frame) int { return cmp.Or(cmp.Compare(a.lib, b.lib), cmp.Compare(a.fn, b.fn)) }
	fn := func(f frame, n uint64) results.ProfileFunction {
		return results.ProfileFunction{Name: f.fn, Library: f.lib, Samples: n}
	}
	lib := func(l string, n uint64) results.ProfileCount { return results.ProfileCount{Name: l, Samples: n} }
	stack := func(s string, n uint64) results.FoldedStack { return results.FoldedStack{Stack: s, Samples: n} }
	fns := top(p.funcs, len(p.funcs), byFrame, fn, frame{})
	return results.ServerProfile{
		Samples:   p.samples,
		Libraries: top(p.libs, results.ProfileLibraries, strings.Compare, lib, results.OtherLibraries),
		Functions: fns[:min(len(fns), results.ProfileFunctions)],
		Packages:  top(p.pkgs, results.ProfilePackages, byFrame, fn, frame{fn: results.OtherPackages}),
		Stacks:    top(p.stacks, results.ProfileStacks, strings.Compare, stack, results.OtherStacks),
	}
}

// top lists the counts of m, made by mk, most first, then by key, cut to
// n where there are more: the last of them is then other's, for the
// samples of all it stands for, so that they still sum to the profile's.
func top[K comparable, T any](m map[K]uint64, n int, by func(K, K) int, mk func(K, uint64) T, other K) []T {
	most := func(a, b K) int { return cmp.Or(cmp.Compare(m[b], m[a]), by(a, b)) }
	keys := slices.SortedFunc(maps.Keys(m), most)
	out := make([]T, 0, min(len(keys), n))
	for i, k := range keys {
		if i == n-1 && len(keys) > n {
			var rest uint64
			for _, k := range keys[i:] {
				rest += m[k]
			}
			return append(out, mk(other, rest))
		}
		out = append(out, mk(k, m[k]))
	}
	return out
}
