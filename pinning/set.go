package pinning

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Set is a sorted set of CPU numbers without duplicates.
type Set []int

// Parse reads a taskset-style CPU list such as "0-9,20-29,40". Ranges must
// ascend ("3-1" is an error) and no CPU may appear twice.
func Parse(s string) (Set, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("empty CPU list")
	}
	seen := make(map[int]bool)
	var set Set
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := parseCPU(lo, s)
		if err != nil {
			return nil, err
		}
		b := a
		if isRange {
			if b, err = parseCPU(hi, s); err != nil {
				return nil, err
			}
			if b < a {
				return nil, fmt.Errorf("CPU list %q: range %q descends (write %d-%d)", s, part, b, a)
			}
		}
		for c := a; c <= b; c++ {
			if seen[c] {
				return nil, fmt.Errorf("CPU list %q: CPU %d appears twice", s, c)
			}
			seen[c] = true
			set = append(set, c)
		}
	}
	sort.Ints(set)
	return set, nil
}

// maxCPU bounds CPU numbers so that a typo cannot allocate a huge set.
const maxCPU = 1 << 16

func parseCPU(tok, list string) (int, error) {
	tok = strings.TrimSpace(tok)
	n, err := strconv.Atoi(tok)
	if err != nil || n < 0 || tok == "" || tok[0] == '+' {
		return 0, fmt.Errorf("CPU list %q: %q is not a CPU number (want e.g. 0-9,20-29,40)", list, tok)
	}
	if n >= maxCPU {
		return 0, fmt.Errorf("CPU list %q: CPU %d is out of range (max %d)", list, n, maxCPU-1)
	}
	return n, nil
}

// String formats the set in taskset form with ranges: "0-9,20-29,40".
func (s Set) String() string {
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j+1 < len(s) && s[j+1] == s[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(s[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(s[j]))
		}
		i = j + 1
	}
	return b.String()
}

// Contains reports whether cpu is in the set.
func (s Set) Contains(cpu int) bool {
	i := sort.SearchInts(s, cpu)
	return i < len(s) && s[i] == cpu
}

// Missing returns the CPUs of s that are not in have.
func (s Set) Missing(have Set) Set {
	var m Set
	for _, c := range s {
		if !have.Contains(c) {
			m = append(m, c)
		}
	}
	return m
}

// Layout expands a regular layout into groups of consecutive CPUs:
// Layout(11, 10, 0) is 0-9, 10-19, … 100-109.
func Layout(groups, cpusPerGroup, firstCPU int) []Set {
	out := make([]Set, groups)
	for g := range out {
		s := make(Set, cpusPerGroup)
		for i := range s {
			s[i] = firstCPU + g*cpusPerGroup + i
		}
		out[g] = s
	}
	return out
}
