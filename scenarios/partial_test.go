package scenarios

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// valueNodes lists every value under n (mapping values and list entries,
// not keys), sections and scalars alike.
func valueNodes(n *yaml.Node, out *[]*yaml.Node) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			valueNodes(c, out)
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			*out = append(*out, c)
			valueNodes(c, out)
		}
	case yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			*out = append(*out, n.Content[i])
			valueNodes(n.Content[i], out)
		}
	}
}

// TestOneBadValueOneProblem: in every example scenario, each value in
// turn replaced by one of the wrong kind (a scalar by a list, a section by
// "?") gives exactly one problem, that value's own. Parse leaves the value
// out and Compile goes on to check the rest, so a file's problems are
// reported together; what only follows from the value's absence (a
// required key "missing", a {var} unknown, a baseline naming no variant)
// must not be reported beside it.
func TestOneBadValueOneProblem(t *testing.T) {
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	tried := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		var values []*yaml.Node
		valueNodes(&doc, &values)
		for _, v := range values {
			saved := *v
			if v.Kind == yaml.ScalarNode {
				*v = yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}}}
			} else {
				*v = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "?"}
			}
			text, err := yaml.Marshal(&doc)
			*v = saved
			if err != nil {
				t.Fatal(err)
			}
			tried++
			where := file + ":" + strconv.Itoa(saved.Line)
			s, perr := Parse(file, text)
			if s == nil || perr == nil {
				t.Errorf("%s: Parse returned scenario %v, error %v; want both", where, s != nil, perr)
				continue
			}
			_, err = s.Compile(bigHost)
			if err == nil {
				t.Errorf("%s: Compile accepted what Parse refused (%v)", where, perr)
				continue
			}
			if got, want := err.Error(), perr.Error(); got != want {
				t.Errorf("%s: Compile reports\n  %s\nwant Parse's problem alone:\n  %s", where, strings.ReplaceAll(got, "\n", "\n  "), want)
			}
			if msg := perr.Error(); strings.Contains(msg, "\n") || !strings.HasSuffix(msg, "got a list") && !strings.HasSuffix(msg, `got "?"`) {
				t.Errorf("%s: Parse reports\n  %s\nwant one problem, the replaced value's", where, strings.ReplaceAll(msg, "\n", "\n  "))
			}
		}
	}
	if tried < 200 {
		t.Errorf("tried %d values, want at least 200", tried)
	}
}

// TestSetReplacesValueLeftOut: a Set that fails leaves the field out,
// and a later Set of the same field puts a value back that Compile uses
// and checks (it is no longer "left out": its problems are reported).
func TestSetReplacesValueLeftOut(t *testing.T) {
	s, err := Parse("t.yaml", []byte("target: {builtin: {}}\nload: {duration: 5s}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Set("load.duration", "soon"); err == nil {
		t.Fatal("Set load.duration=soon: no error")
	}
	if err := s.Set("load.duration", "-2s"); err != nil {
		t.Fatal(err)
	}
	_, err = s.Compile(bigHost)
	if got, want := errString(err), "--set load.duration=-2s: load.duration: must be positive, got -2s"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if err := s.Set("load.duration", "3s"); err != nil {
		t.Fatal(err)
	}
	p, err := s.Compile(bigHost)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.Load.Duration, 3*time.Second; got != want {
		t.Errorf("duration %s, want %s", got, want)
	}
}
