package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results"
)

// TestCompareFailIfSlower runs one real run, stores a copy of it with
// every repetition's requests halved (a variant 50 % slower), and
// compares: --fail-if-slower exits 99 naming the variant when the later
// run is the slower one, 0 the other way round and without the flag, 2
// for a bad limit.
func TestCompareFailIfSlower(t *testing.T) {
	alongside(t)
	dir := t.TempDir()
	old := sharedRun(t)
	r, err := readRun(old)
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Variants {
		for j := range r.Variants[i].Reps {
			tot := &r.Variants[i].Reps[j].Total
			// A tenth: ln 10 stands far above any window-to-window noise a
			// loaded machine gives the real run it is copied from (the
			// same noise in both, so p depends only on that noise).
			tot.Requests /= 10
			tot.Status[2] /= 10
		}
	}
	slow := filepath.Join(dir, "slow.json")
	f, err := os.Create(slow)
	if err != nil {
		t.Fatal(err)
	}
	if err := results.WriteJSON(f, r); err != nil {
		t.Fatal(err)
	}
	f.Close()

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
