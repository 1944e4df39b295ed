package scenarios

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// FuzzLoad feeds arbitrary bytes through Parse and Compile: they must never
// panic, every error must be located in the file, a scenario Parse returns
// with its error must fail Compile with Parse's problems among Compile's,
// and every plan Compile
// accepts must pass Check, satisfy the Plan's invariants, render, and hide
// its secret env values in Redacted and in its JSON.
func FuzzLoad(f *testing.F) {
	for _, glob := range []string{"testdata/scenarios/*.yaml", "../examples/*.yaml"} {
		files, _ := filepath.Glob(glob)
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("fuzz.yaml", data)
		if err != nil {
			checkLocated(t, err)
			if s == nil {
				return
			}
			// Values in error: Compile reports them among its own.
			_, cerr := s.Compile(bigHost)
			if cerr == nil {
				t.Fatalf("Compile accepted a scenario Parse refused: %v", err)
			}
			checkLocated(t, cerr)
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.Contains(cerr.Error()+"\n", line+"\n") {
					t.Fatalf("Compile's problems lack Parse's %q:\n%v", line, cerr)
				}
			}
			return
		}
		p, err := s.Compile(bigHost)
		if err != nil {
			checkLocated(t, err)
			return
		}
		if err := p.Check(); err != nil {
			t.Fatalf("Compile's plan fails Check: %v", err)
		}
		switch {
		case p.Repeat < 1, p.Load.Duration <= 0, p.Load.Warmup < 0, p.Load.Timeout <= 0:
			t.Fatalf("bad load values: repeat %d %+v", p.Repeat, p.Load)
		case len(p.Load.Groups) == 0, len(p.Variants) == 0, p.Baseline == "":
			t.Fatalf("no groups, variants or baseline: %+v", p)
		case p.Load.Connection != plans.Close && p.Load.Connection != plans.KeepAlive:
			t.Fatalf("connection %q", p.Load.Connection)
		case !strings.Contains(string(p.Target.Request), "\r\n\r\n"):
			t.Fatalf("request %q has no header end", p.Target.Request)
		case p.Target.Builtin == nil && p.Target.Addr == "":
			t.Fatalf("URL target without address: %+v", p.Target)
		}
		for i, g := range p.Load.Groups {
			if g.Threads < 1 || g.Connections < 1 || g.Connections > plans.MaxConnections {
				t.Fatalf("group %d: %+v", i, g)
			}
			for _, c := range g.CPUs {
				if !bigHost.CPUs.Contains(c) {
					t.Fatalf("group %d pinned to CPU %d the host lacks", i, c)
				}
			}
		}
		seen := map[string]bool{}
		for _, v := range p.Variants {
			if seen[v.Name] || v.Name == "" || strings.ContainsAny(v.Name, "/\\") {
				t.Fatalf("variant name %q empty, with a slash or repeated", v.Name)
			}
			seen[v.Name] = true
			if p.Server != nil && v.Start == "" {
				t.Fatalf("variant %q has no start command", v.Name)
			}
			if p.Server == nil && (v.Env != nil && v.Speed == nil || v.Start != "" || v.Probes != nil) {
				t.Fatalf("variant %q has env or commands without a server", v.Name)
			}
			if (v.Series == "") != (v.Sweep == nil) {
				t.Fatalf("variant %q: series %q with sweep %v", v.Name, v.Series, v.Sweep)
			}
		}
		searched := 0
		if sr := p.Search; sr != nil {
			searched = sr.Points
			if sr.First < 0 || sr.First+sr.Points > len(p.Variants) || sr.Budget < 1 {
				t.Fatalf("bad search: %+v of %d variants", sr, len(p.Variants))
			}
		}
		if !seen[p.Baseline] && !(p.Baseline == "" && searched == len(p.Variants)) {
			t.Fatalf("baseline %q names no variant", p.Baseline)
		}
		if s := p.Server; s != nil && (s.Ready.Timeout <= 0 || s.Ready.Interval <= 0 || s.CommandTimeout <= 0 ||
			(s.Ready.Addr == "") == (s.Ready.URL == "")) {
			t.Fatalf("bad server: %+v", s)
		}
		if p.Order != results.OrderSequential && p.Order != results.OrderInterleaved && p.Order != results.OrderRandomized || p.Cooldown < 0 {
			t.Fatalf("order %q cooldown %s", p.Order, p.Cooldown)
		}
		if got, want := len(p.Steps()), (len(p.Variants)-searched)*p.Repeat; got != want {
			t.Fatalf("%d steps, want %d", got, want)
		}
		if p.Target.TLS != nil {
			if p.Target.TLS.MinVersion > p.Target.TLS.MaxVersion {
				t.Fatalf("min version above max: %+v", p.Target.TLS)
			}
			if _, err := p.Target.TLS.Config(); err != nil {
				t.Fatalf("Config: %v", err)
			}
		}
		checkRedaction(t, p)
	})
}

// checkRedaction fails unless Describe, Redacted and the plan's JSON hide
// every secret env value and leave the plan itself as it was.
func checkRedaction(t *testing.T, p *plans.Plan) {
	t.Helper()
	before := make([]map[string]string, len(p.Variants))
	for i, v := range p.Variants {
		before[i] = maps.Clone(v.Env)
	}
	var desc strings.Builder
	Describe(&desc, p)
	r := p.Redacted()
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var back plans.Plan
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	for i, v := range p.Variants {
		if !maps.Equal(v.Env, before[i]) {
			t.Fatalf("variant %q: Describe, Redacted or Marshal changed env %v to %v", v.Name, before[i], v.Env)
		}
		for _, k := range v.SecretEnv {
			if got := r.Variants[i].Env[k]; got != plans.SecretPlaceholder {
				t.Fatalf("variant %q: Redacted %s = %q", v.Name, k, got)
			}
			if got := back.Variants[i].Env[k]; got != plans.SecretPlaceholder {
				t.Fatalf("variant %q: JSON %s = %q", v.Name, k, got)
			}
		}
	}
	for _, s := range p.Secrets {
		if got := p.Redact(s); got != plans.SecretPlaceholder {
			t.Fatalf("Redact(%q) = %q", s, got)
		}
	}
}

// checkLocated fails unless every joined error is an *Error naming the file.
func checkLocated(t *testing.T, err error) {
	t.Helper()
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for _, e := range errs {
		var se *Error
		if !errors.As(e, &se) || se.File != "fuzz.yaml" || se.Msg == "" {
			t.Fatalf("error not located in the file: %#v", e)
		}
	}
}
