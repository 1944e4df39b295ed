package speed

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results"
)

// Units of Result.Unit.
const (
	OpsPerSec   = "ops/s"   // signatures, key exchanges
	BytesPerSec = "bytes/s" // ciphers, digests, AEADs
)

// Result is one figure of a speed run, stored as is in run.json.
type Result = results.SpeedResult

// Parse reads the results of `bssl speed` or `openssl speed` (OpenSSL 1.1
// and 3.x, GmSSL, human-readable or -mr) in the order printed, skipping
// other lines. Output without any result is an error.
func Parse(output string) ([]Result, error) { return ParseReader(strings.NewReader(output)) }

// ParseReader is Parse reading r line by line (lines up to 1 MiB).
func ParseReader(r io.Reader) ([]Result, error) {
	var p parser
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		p.line(sc.Text())
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read speed output: %w", err)
	}
	if len(p.out) == 0 {
		return nil, fmt.Errorf("no speed results found: want bssl lines such as %q, or openssl speed tables (a %q or %q header and its rows, or -mr +F lines)",
			"Did 4823 RSA 2048 signing operations in 6019561us (801.2 ops/sec)", "sign    verify    sign/s verify/s", "type  16 bytes  64 bytes …")
	}
	return p.out, nil
}

// parser holds the table header in force while reading lines.
type parser struct {
	out     []Result
	rates   []string // the public-key table's rate columns ("sign", "verify")
	blocks  []int    // the cipher table's block sizes (or the last -mr +H line's)
	inTypes bool     // in the rows of a "type 16 bytes …" header
	// multi is set by the "Got: +H:…" lines `openssl speed -multi N`
	// prints before its summed cipher rows, which have no "type" header.
	multi bool
}

var (
	// bsslRE matches bssl's result line; the ": 118.4 MB/s" suffix some
	// versions print is ignored, bytes/s being ops/s × block exactly.
	bsslRE  = regexp.MustCompile(`^Did (\d+) (.+?) operations in (\d+)us \(([0-9.]+) ops/sec\)`)
	bytesRE = regexp.MustCompile(`\s*\((\d+) bytes\)`)   // the block size in a bssl description
	numRE   = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)  // a plain decimal figure
	timeRE  = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?s$`) // seconds per operation ("0.000387s")
)

func (p *parser) line(s string) {
	s = strings.TrimRight(s, "\r")
	if m := bsslRE.FindStringSubmatch(s); m != nil {
		p.inTypes, p.rates = false, nil
		p.bssl(m)
		return
	}
	if strings.HasPrefix(s, "+") {
		p.machine(s)
		return
	}
	if rest, ok := strings.CutPrefix(s, "Got: +H:"); ok {
		// A -multi child's block sizes; its figures ("Got: +F…") are not
		// results: the sums follow as rows or as +F lines.
		rest, _, _ = strings.Cut(rest, " from ")
		if blocks, ok := blockList(strings.Split(rest, ":")); ok {
			p.blocks, p.multi, p.inTypes, p.rates = blocks, true, false, nil
		}
		return
	}
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return
	}
	if fields[0] == "type" && len(fields) > 2 {
		if blocks, ok := typeHeader(fields[1:]); ok {
			p.blocks, p.inTypes, p.rates = blocks, true, nil
			return
		}
	}
	if rates, ok := rateHeader(fields); ok {
		p.rates, p.inTypes = rates, false
		return
	}
	if p.inTypes && p.typeRow(fields, false) {
		return
	}
	p.inTypes = false
	if p.multi && p.typeRow(fields, true) {
		return
	}
	if p.rates != nil {
		p.rateRow(fields)
	}
}

// bssl adds one "Did N … operations in Tus (R ops/sec)" line.
func (p *parser) bssl(m []string) {
	rate, ok := number(m[4])
	if !ok {
		return
	}
	what, block := m[2], 0
	if bm := bytesRE.FindStringSubmatch(what); bm != nil {
		n, err := strconv.Atoi(bm[1])
		if err != nil || n <= 0 {
			return
		}
		block = n
		what = bytesRE.ReplaceAllString(what, "")
	}
	words := strings.Fields(what)
	split := len(words)
	for i, w := range words {
		if i > 0 && w[0] >= 'a' && w[0] <= 'z' {
			split = i
			break
		}
	}
	r := Result{Algorithm: strings.Join(words[:split], " "), Operation: strings.Join(words[split:], " "), Value: rate, Unit: OpsPerSec}
	if block > 0 {
		r.Block, r.Value, r.Unit = block, rate*float64(block), BytesPerSec
	}
	p.add(r)
}

// typeHeader reads "16 bytes 64 bytes …" (after "type") into block sizes.
func typeHeader(cells []string) ([]int, bool) {
	var sizes []string
	for i := 0; i < len(cells); i += 2 {
		if i+1 == len(cells) || cells[i+1] != "bytes" {
			return nil, false
		}
		sizes = append(sizes, cells[i])
	}
	return blockList(sizes)
}

// row splits fields into a label and n figures that read reads, if it can.
func row(fields []string, n int, read func(string) (float64, bool)) (label []string, vals []float64, ok bool) {
	if len(fields) <= n {
		return nil, nil, false
	}
	for _, cell := range fields[len(fields)-n:] {
		v, ok := read(cell)
		if !ok {
			return nil, nil, false
		}
		vals = append(vals, v)
	}
	return fields[:len(fields)-n], vals, true
}

// typeRow adds a cipher table row: a name (which may hold spaces, as in
// "des ede3") then one cell per block size, in 1000s of bytes/s with a "k"
// suffix, or in bytes/s without one (openssl prints small figures so).
// With onlyK (the headerless rows of -multi, which always carry the
// suffix) a cell without "k" makes the line no row.
func (p *parser) typeRow(fields []string, onlyK bool) bool {
	label, vals, ok := row(fields, len(p.blocks), func(cell string) (float64, bool) {
		cell, k := strings.CutSuffix(cell, "k")
		v, ok := number(cell)
		if k {
			v *= 1000
		}
		return v, ok && (k || !onlyK)
	})
	for i, v := range vals {
		p.add(Result{Algorithm: strings.Join(label, " "), Block: p.blocks[i], Value: v, Unit: BytesPerSec})
	}
	return ok
}

// rateHeader returns the rate columns' names of a public-key table header
// such as "sign verify sign/s verify/s": time columns, then as many rates.
func rateHeader(fields []string) ([]string, bool) {
	if len(fields) < 2 || len(fields)%2 != 0 {
		return nil, false
	}
	half := len(fields) / 2
	var rates []string
	for i, f := range fields {
		name, ok := strings.CutSuffix(f, "/s")
		switch {
		case i < half && (ok || strings.Contains(f, "/") || numRE.MatchString(f) || timeRE.MatchString(f)):
			return nil, false // time columns are plain words
		case i >= half && (!ok || name == "" || strings.Contains(name, "/")):
			return nil, false
		}
		if i >= half {
			rates = append(rates, name)
		}
	}
	return rates, true
}

// rateRow adds a public-key table row: a label, time cells, then rates.
func (p *parser) rateRow(fields []string) bool {
	label, vals, ok := row(fields, len(p.rates), number)
	n := len(label)
	for len(label) > 0 && timeRE.MatchString(label[len(label)-1]) {
		label = label[:len(label)-1]
	}
	if !ok || len(label) == n || len(label) == 0 {
		return false // no time cells: not a table row
	}
	name := strings.Join(label, " ")
	for i, v := range vals {
		p.add(Result{Algorithm: name, Operation: p.rates[i], Value: v, Unit: OpsPerSec})
	}
	return true
}

// mrKinds maps -mr public-key record tags to their label (with %d for the
// key size in bits) and rate columns. openssl 3.x prints more figures in
// some records than 1.1; only the leading ones named here are kept.
var mrKinds = map[string]struct {
	label string
	rates []string
}{
	"+F2": {"rsa %d bits", []string{"sign", "verify"}},
	"+F3": {"dsa %d bits", []string{"sign", "verify"}},
	"+F4": {"%d bits ecdsa", []string{"sign", "verify"}},
	"+F5": {"%d bits ecdh", []string{"op"}},
}

// machine adds a -mr record: "+H:16:64:…" (block sizes), "+F:k:name:v…"
// (bytes/s per block) or one of mrKinds.
func (p *parser) machine(s string) {
	p.inTypes, p.rates = false, nil
	parts := strings.Split(s, ":")
	switch tag := parts[0]; tag {
	case "+H":
		if blocks, ok := blockList(parts[1:]); ok {
			p.blocks = blocks
		}
	case "+F":
		if len(parts) < 3 || parts[2] == "" || len(parts)-3 > len(p.blocks) {
			return
		}
		for i, c := range parts[3:] {
			if v, ok := number(c); ok {
				p.add(Result{Algorithm: parts[2], Block: p.blocks[i], Value: v, Unit: BytesPerSec})
			}
		}
	default:
		k, ok := mrKinds[tag]
		if !ok || len(parts) < 3+len(k.rates) {
			return
		}
		bits, err := strconv.Atoi(parts[2])
		if err != nil || bits <= 0 {
			return
		}
		for i, op := range k.rates {
			if v, ok := number(parts[3+i]); ok {
				p.add(Result{Algorithm: fmt.Sprintf(k.label, bits), Operation: op, Value: v, Unit: OpsPerSec})
			}
		}
	}
}

// blockList reads the block sizes of a -mr "+H" record.
func blockList(cells []string) ([]int, bool) {
	var blocks []int
	for _, c := range cells {
		n, err := strconv.Atoi(c)
		if err != nil || n <= 0 {
			return nil, false
		}
		blocks = append(blocks, n)
	}
	return blocks, len(blocks) > 0
}

// add appends r when it is usable: a name and a finite, non-negative value.
func (p *parser) add(r Result) {
	if r.Algorithm == "" || math.IsNaN(r.Value) || math.IsInf(r.Value, 0) || r.Value < 0 {
		return
	}
	p.out = append(p.out, r)
}

// number parses a plain decimal figure ("801.2"); signs, exponents, hex,
// inf and nan are not figures a speed tool prints.
func number(s string) (float64, bool) {
	if !numRE.MatchString(s) {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}
