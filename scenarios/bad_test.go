package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// smallHost is the fake machine the bad scenarios are compiled for.
var smallHost = Host{CPUs: pinning.Set{0, 1}}

// loadCompile runs LoadFile and Compile as kaeload validate does: a
// scenario that comes back with an error is compiled too, and Compile's
// error then holds every problem of the file.
func loadCompile(path string, h Host) (*plans.Plan, error) {
	s, err := LoadFile(path)
	if s == nil {
		return nil, err
	}
	return s.Compile(h)
}

// TestBadScenarios checks that every testdata/scenarios/bad-*.yaml fails
// with exactly the message in its bad-*.err file (positions included).
func TestBadScenarios(t *testing.T) {
	files, err := filepath.Glob("testdata/scenarios/bad-*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got, min := len(files), 30; got < min {
		t.Fatalf("found %d bad scenarios, want at least %d", got, min)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			errFile := strings.TrimSuffix(file, ".yaml") + ".err"
			if *update {
				if _, err := loadCompile(file, smallHost); err != nil {
					if err := os.WriteFile(errFile, []byte(err.Error()+"\n"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			wantB, err := os.ReadFile(errFile)
			if err != nil {
				t.Fatalf("no expected message: %v", err)
			}
			want := strings.TrimSuffix(string(wantB), "\n")
			_, err = loadCompile(file, smallHost)
			if err == nil {
				t.Fatalf("compiled without error, want:\n%s", want)
			}
			if got := err.Error(); got != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestBadScenariosHaveFiles checks that every .err file has its scenario.
func TestBadScenariosHaveFiles(t *testing.T) {
	errs, _ := filepath.Glob("testdata/scenarios/bad-*.err")
	for _, e := range errs {
		if _, err := os.Stat(strings.TrimSuffix(e, ".err") + ".yaml"); err != nil {
			t.Errorf("%s has no scenario: %v", e, err)
		}
	}
}
