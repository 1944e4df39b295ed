package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// The errors exitCode maps to an exit status (kaeload help lists them).
var (
	errUsage   = errors.New("usage")            // a command-line mistake
	errSilent  = errors.New("silent")           // already reported to the user (help printed)
	errInvalid = errors.New("invalid scenario") // a scenario that does not load or compile
	errFailed  = errors.New("variant failed")   // a completed run with a failed or not measured variant
	// errThreshold: a crossed threshold or a significantly slower variant,
	// exit status 99, k6's convention for a failed check.
	errThreshold   = errors.New("threshold crossed")
	errInterrupted = errors.New("interrupted") // a run stopped by a signal
)

// marked is err marked as one of the errors above.
type marked struct{ err, mark error }

func (e marked) Error() string   { return e.err.Error() }
func (e marked) Unwrap() []error { return []error{e.err, e.mark} }

func usageError(err error) error { return marked{err, errUsage} }
func invalid(err error) error    { return marked{err, errInvalid} }

// exitCode maps an error to the exit status. Interrupted and failed win
// over crossed: a run that did not complete says little of its thresholds.
func exitCode(err error) int {
	switch {
	case err == nil, errors.Is(err, errSilent):
		return 0
	case errors.Is(err, errUsage), errors.Is(err, errInvalid):
		return 2
	case errors.Is(err, errInterrupted):
		return 130
	case errors.Is(err, errFailed):
		return 3
	case errors.Is(err, errThreshold):
		return 99
	}
	return 1
}

// printFlags lists fs's flags one a line, each usage clipped so that a
// --help stays on a screen; a "same as -X" flag shares X's line.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	dash := func(name string) string { // -c, --dry-run: as people type them
		return strings.Repeat("-", min(len(name), 2)) + name
	}
	alias := map[string]string{}
	fs.VisitAll(func(f *flag.Flag) {
		if x, ok := strings.CutPrefix(f.Usage, "same as -"); ok {
			alias[x] = ", " + dash(f.Name)
		}
	})
	head := "\nFlags:\n"
	fs.VisitAll(func(f *flag.Flag) {
		if strings.HasPrefix(f.Usage, "same as -") {
			return
		}
		arg, usage := flag.UnquoteUsage(f)
		if d := f.DefValue; d != "" && d != "0" && d != "false" && d != "0s" && !strings.Contains(usage, "default") {
			usage += " (default " + d + ")"
		}
		fmt.Fprintf(w, "%s  %-24s %s\n", head, strings.TrimSpace(dash(f.Name)+alias[f.Name]+" "+arg), clip(usage, 74))
		head = ""
	})
}

// clip cuts s to at most n runes at a clause boundary, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n-3])
	for _, sep := range []string{"; ", ", ", " (", " "} {
		if i := strings.LastIndex(cut, sep); i > len(cut)/2 {
			cut = cut[:i]
			break
		}
	}
	if strings.Count(cut, "(") > strings.Count(cut, ")") {
		return cut + " …)"
	}
	return cut + " …"
}

// parse parses flags before or after the positional arguments.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
			return nil, err
		} else if err != nil {
			return nil, usageError(fmt.Errorf("%s: %w (see kaeload %s --help)", fs.Name(), err, fs.Name()))
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// setFlags are repeated --set path=value flags.
type setFlags [][2]string

// addSetFlag registers the repeatable --set path=value override.
func addSetFlag(fs *flag.FlagSet, sets *setFlags) {
	fs.Func("set", "override a scenario field, e.g. --set load.duration=30s (repeatable)", func(v string) error {
		path, value, ok := strings.Cut(v, "=")
		if !ok || path == "" {
			return fmt.Errorf("want path=value, e.g. load.duration=30s")
		}
		*sets = append(*sets, [2]string{path, value})
		return nil
	})
}

// wantArgs checks that pos holds min to max (< 0: any) arguments; what "": unchecked.
func wantArgs(fs *flag.FlagSet, pos []string, min, max int, what string) error {
	if what == "" || len(pos) >= min && (max < 0 || len(pos) <= max) {
		return nil
	}
	got := fmt.Sprintf("%d arguments", len(pos))
	if len(pos) == 1 {
		got = "1 argument"
	}
	return usageError(fmt.Errorf("%s: want %s, got %s (see kaeload %s --help)", fs.Name(), what, got, fs.Name()))
}

// progressModes are the values of --progress.
var progressModes = []string{"auto", "on", "plain", "off"}

// oneOf returns the index of a flag's value among names, or a usage error.
func oneOf(fs *flag.FlagSet, flag, value string, names ...string) (int, error) {
	if i := slices.Index(names, value); i >= 0 {
		return i, nil
	}
	list := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	return 0, usageError(fmt.Errorf("%s: %s %q: want %s", fs.Name(), flag, value, list))
}

// appendTo is the function of a repeatable flag: each value goes to *list.
func appendTo(list *[]string) func(string) error {
	return func(v string) error {
		*list = append(*list, v)
		return nil
	}
}
