package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/results/rundir"
)

// TestDefaultRunDirectory: a run without -o, started in an empty
// directory as from a clone's root, keeps its measurements in
// runs/<UTC time>-<name>/ there and writes nothing into results/, the
// name of the Go package's own source folder.
func TestDefaultRunDirectory(t *testing.T) {
	alongside(t)
	scenario, err := filepath.Abs("../../examples/quickstart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cwd := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "run", scenario, "--set", "load.duration=1s", "--set", "load.warmup=0s", "--progress", "off")
	cmd.Env = append(os.Environ(), "KAELOAD_TEST_MAIN=1")
	cmd.Dir = cwd
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("kaeload run: %v\n%s\n%s", err, out.String(), errOut.String())
	}
	ents, err := os.ReadDir(filepath.Join(cwd, "runs"))
	if err != nil {
		t.Fatalf("no runs/ in the current directory: %v\n%s", err, errOut.String())
	}
	if len(ents) != 1 || !regexp.MustCompile(`^\d{8}T\d{6}Z-quickstart$`).MatchString(ents[0].Name()) {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Fatalf("runs/ holds %q, want one <UTC time>-quickstart directory", names)
	}
	dir := filepath.Join("runs", ents[0].Name())
	if _, err := os.Stat(filepath.Join(cwd, dir, rundir.RunFile)); err != nil {
		t.Errorf("the run directory lacks %s: %v", rundir.RunFile, err)
	}
	if !strings.Contains(errOut.String(), "results written to "+dir+"\n") {
		t.Errorf("stderr does not name %s:\n%s", dir, errOut.String())
	}
	if _, err := os.Lstat(filepath.Join(cwd, "results")); !os.IsNotExist(err) {
		t.Errorf("results/ in the current directory: %v (want none)", err)
	}
}
