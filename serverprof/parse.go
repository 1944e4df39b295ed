package serverprof

import (
	"bufio"
	"cmp"
	"errors"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
)

// maxLine bounds one line of perf script's output: a longer one (a
// demangled template name) is cut there.
const maxLine = 64 << 10

// Unknown names a symbol or library perf could not resolve.
const Unknown = "[unknown]"

// frame is one frame of a sample's call chain.
type frame struct{ lib, fn string }

// Profile counts perf samples: by library and function of the sampled
// instruction, by its Go package, and by folded call stack. The zero
// Profile is empty and ready to use.
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
	var b strings.Builder
	for i := len(chain) - 1; i >= 0; i-- {
		b.WriteString(results.FoldFrame(chain[i].lib, chain[i].fn))
		if i > 0 {
			b.WriteByte(';')
		}
	}
	p.stacks[b.String()]++
}

// ParseScript counts the samples of `perf script -F comm,pid,tid,ip,sym,dso`
// text: a task line, then its frames indented, leaf first, up to a blank
// line (or inline without call chains). Only a read error fails it.
func ParseScript(r io.Reader) (*Profile, error) { return parseScript(r, nil) }

// parseScript is ParseScript naming, with gs, the Go functions perf left
// unnamed in binaries on this machine.
func parseScript(r io.Reader, gs *goSymbols) (*Profile, error) {
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
			case (line[0] == ' ' || line[0] == '\t') && !isTask(line):
				if f, ok := parseFrame(strings.TrimSpace(line), gs, len(chain) > 0); ok && in {
					chain = append(chain, f)
				}
			default:
				flush()
				in = true
				if f, ok := inlineFrame(line, gs); ok {
					chain = append(chain, f)
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

// isTask reports whether line starts a sample: a field after the task's
// name (which may hold spaces) is "PID/TID". A leading space does not tell:
// perf pads the name without call chains.
func isTask(line string) bool {
	fields := strings.Fields(line)
	for _, f := range fields[1:min(len(fields), 9)] {
		if a, b, ok := strings.Cut(f, "/"); ok && isDigits(a) && isDigits(b) {
			return true
		}
	}
	return false
}

// inlineFrame finds the ip, symbol and DSO on a sample's first line
// (perf script without call chains prints them there): after the "PID/TID"
// field, a hexadecimal address.
func inlineFrame(line string, gs *goSymbols) (frame, bool) {
	fields := strings.Fields(line)
	for i, f := range fields {
		a, b, ok := strings.Cut(f, "/")
		if !ok || !isDigits(a) || !isDigits(b) {
			continue
		}
		rest := strings.Join(fields[i+1:], " ")
		if rest == "" {
			return frame{}, false
		}
		return parseFrame(rest, gs, false)
	}
	return frame{}, false
}

// parseFrame parses "ADDR SYMBOL (DSO)": the address in hexadecimal, the
// symbol possibly with "+0xOFFSET", the DSO in the line's last balanced
// parentheses. An unnamed symbol is looked up in gs; a caller's address is
// a return address, one past its call.
func parseFrame(s string, gs *goSymbols, caller bool) (frame, bool) {
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
	f := frame{lib: Library(dso), fn: symbol(sym)}
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

// symbol cleans a symbol: "+0x1f" offsets dropped, "" made Unknown.
func symbol(s string) string {
	if i := strings.LastIndex(s, "+0x"); i > 0 && isHex(s[i+3:]) {
		s = s[:i]
	}
	if s == "" {
		return Unknown
	}
	return s
}

// Library names a DSO as a profile shows it: a path by its base name,
// "[kernel.kallsyms]" as "kernel", other bracketed names as they are, ""
// as Unknown, without " (deleted)".
func Library(dso string) string {
	dso = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(dso), "(deleted)"))
	switch {
	case dso == "":
		return Unknown
	case dso == "[kernel.kallsyms]" || strings.HasPrefix(dso, "[kernel.kallsyms]"):
		return "kernel"
	case strings.HasPrefix(dso, "["):
		return dso
	}
	if b := path.Base(dso); b != "." && b != "/" {
		return b
	}
	return dso
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func isHex(s string) bool {
	_, err := strconv.ParseUint(s, 16, 64)
	return err == nil
}

// Record is p as the run record stores it: its top libraries, Go
// packages, functions and stacks, each most first, then by name, the rest
// under Other….
func (p *Profile) Record() results.ServerProfile {
	out := results.ServerProfile{Samples: p.samples}
	libs := make([]results.ProfileCount, 0, len(p.libs))
	for name, n := range p.libs {
		libs = append(libs, results.ProfileCount{Name: name, Samples: n})
	}
	slices.SortFunc(libs, func(a, b results.ProfileCount) int {
		return cmp.Or(cmp.Compare(b.Samples, a.Samples), cmp.Compare(a.Name, b.Name))
	})
	out.Libraries = keepTop(libs, results.ProfileLibraries, func(l results.ProfileCount) uint64 { return l.Samples },
		func(rest uint64) results.ProfileCount {
			return results.ProfileCount{Name: results.OtherLibraries, Samples: rest}
		})
	fns := counted(p.funcs, len(p.funcs), "")
	out.Functions = fns[:min(len(fns), results.ProfileFunctions)]
	out.Packages = counted(p.pkgs, results.ProfilePackages, results.OtherPackages)
	stacks := make([]results.FoldedStack, 0, len(p.stacks))
	for s, n := range p.stacks {
		stacks = append(stacks, results.FoldedStack{Stack: s, Samples: n})
	}
	slices.SortFunc(stacks, func(a, b results.FoldedStack) int {
		return cmp.Or(cmp.Compare(b.Samples, a.Samples), cmp.Compare(a.Stack, b.Stack))
	})
	out.Stacks = keepTop(stacks, results.ProfileStacks, func(s results.FoldedStack) uint64 { return s.Samples },
		func(rest uint64) results.FoldedStack {
			return results.FoldedStack{Stack: results.OtherStacks, Samples: rest}
		})
	return out
}

// counted lists the counts of m most first, then by library and name, at
// most n of them, the last then named other for all it stands for.
func counted(m map[frame]uint64, n int, other string) []results.ProfileFunction {
	out := make([]results.ProfileFunction, 0, len(m))
	for f, c := range m {
		out = append(out, results.ProfileFunction{Name: f.fn, Library: f.lib, Samples: c})
	}
	slices.SortFunc(out, func(a, b results.ProfileFunction) int {
		return cmp.Or(cmp.Compare(b.Samples, a.Samples), cmp.Compare(a.Library, b.Library), cmp.Compare(a.Name, b.Name))
	})
	return keepTop(out, max(n, 1), func(f results.ProfileFunction) uint64 { return f.Samples },
		func(rest uint64) results.ProfileFunction { return results.ProfileFunction{Name: other, Samples: rest} })
}

// keepTop returns sorted (most first) cut to n entries where it is
// longer, the last of them other(the samples of all it stands for), so
// that the samples still sum to the profile's.
func keepTop[T any](sorted []T, n int, samples func(T) uint64, other func(rest uint64) T) []T {
	if len(sorted) <= n {
		return sorted
	}
	var rest uint64
	for _, x := range sorted[n-1:] {
		rest += samples(x)
	}
	return append(sorted[:n-1], other(rest))
}
