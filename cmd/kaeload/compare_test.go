package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results"
)

// TestCompareFailIfSlower stores one real run twice, its windows at
// 1,000/s and at a tenth of that (a variant 90 % slower), and compares:
// --fail-if-slower exits 99 naming the variant when the later run is the
// slower one, 0 the other way round and without the flag, 2 for a bad limit.
func TestCompareFailIfSlower(t *testing.T) {
	alongside(t)
	dir := t.TempDir()
	r, err := readRun(sharedRun(t))
	if err != nil {
		t.Fatal(err)
	}
	// The real run's windows at rates of 1,000/s ± 1 %, then at a tenth: a
	// loaded machine's window-to-window noise cannot move the verdict.
	old, slow := withRates(t, r, dir, "old.json", 1000), withRates(t, r, dir, "slow.json", 100)

	out, errOut, code := kaeload(t, "compare", old, slow, "--fail-if-slower", "5%")
	if code != 99 || !strings.Contains(errOut, "significantly slower by more than 5 %: default in slow.json: -9") {
		t.Errorf("old → slow: exit %d, want 99 naming default\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "== comparison of 2 runs") {
		t.Errorf("the comparison is not printed:\n%s", out)
	}
	if _, errOut, code := kaeload(t, "compare", "--fail-if-slower", "0.05", slow, old); code != 0 {
		t.Errorf("slow → old (faster): exit %d, want 0\n%s", code, errOut)
	}
	if _, errOut, code := kaeload(t, "compare", old, slow); code != 0 {
		t.Errorf("without --fail-if-slower: exit %d, want 0\n%s", code, errOut)
	}
	if _, _, code := kaeload(t, "compare", old, slow, "--fail-if-slower", "lots"); code != 2 {
		t.Errorf("--fail-if-slower lots: exit %d, want 2", code)
	}
}

// withRates writes r as dir/name with window j of each variant at
// rate·(1 + j/100) successful requests a second, and returns its path.
func withRates(t *testing.T, r *results.Run, dir, name string, rate float64) string {
	t.Helper()
	for i := range r.Variants {
		for j := range r.Variants[i].Reps {
			tot := &r.Variants[i].Reps[j].Total
			n := uint64(rate * (1 + float64(j)/100) * tot.Window.Length().Seconds())
			tot.Requests, tot.Status[2], tot.Errors, tot.GroupsRate = n, n, results.Errors{}, 0
		}
	}
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(results.WriteJSON(f, r), f.Close()); err != nil {
		t.Fatal(err)
	}
	return path
}
