package plans

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// module is the module path every package of kaeload is under.
const module = "github.com/kaeload/kaeload/"

// TestImportRule enforces the cut between the YAML compiler and what runs
// a plan: the engine, the runner and this package depend (directly or
// not) on neither package scenarios nor the YAML decoder, and the run
// record depends on neither scenarios nor this package. It asks the go
// command for each package's dependencies, tests left out: what the
// product links.
func TestImportRule(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list dependencies with: %v", err)
	}
	for _, tc := range []struct {
		pkg       string
		forbidden []string
	}{
		{module + "engine", []string{module + "scenarios", "gopkg.in/yaml.v3"}},
		{module + "runner", []string{module + "scenarios", "gopkg.in/yaml.v3"}},
		{module + "scenarios/plans", []string{module + "scenarios", "gopkg.in/yaml.v3"}},
		{module + "results", []string{module + "scenarios", module + "scenarios/plans"}},
	} {
		out, err := exec.Command(goTool, "list", "-deps", "-f", "{{.ImportPath}}", tc.pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", tc.pkg, err)
		}
		deps := strings.Fields(string(out))
		if !slices.Contains(deps, tc.pkg) {
			t.Fatalf("go list -deps %s does not list the package itself: %q", tc.pkg, deps)
		}
		for _, f := range tc.forbidden {
			if slices.Contains(deps, f) {
				t.Errorf("%s depends on %s (go list -deps %s); it must not", tc.pkg, f, tc.pkg)
			}
		}
	}
}
