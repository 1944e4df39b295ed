// Package notes holds the analysis's verdicts, cautions, flags, diagnoses and failure reasons as
// codes with parameters, worded by one table of templates (messages.go).
package notes

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/kaeload/kaeload/results"
)

// Code names a kind of note; messages holds its words.
type Code string

// Args are a note's parameters by name.
type Args map[string]any

// Note is a code and its parameters; the zero Note says nothing.
type Note struct {
	Code Code
	Args Args
}

// New returns the note code with name, value pairs as Args.
func New(code Code, kv ...any) Note {
	n := Note{Code: code, Args: Args{}}
	for i := 0; i+1 < len(kv); i += 2 {
		n.Args[kv[i].(string)] = kv[i+1]
	}
	return n
}

// IsZero reports whether n says nothing.
func (n Note) IsZero() bool { return n.Code == "" }

// String words n; "" for the zero Note, the code for one without words.
func (n Note) String() string {
	if n.Code != "" && said.Lookup(string(n.Code)) != nil {
		return say(string(n.Code), n.Args)
	}
	return string(n.Code)
}

// say is template name over data; "" when there is none, cut short where a parameter is missing.
func say(name string, data any) string {
	var b strings.Builder
	if t := said.Lookup(name); t != nil {
		_ = t.Execute(&b, data)
	}
	return b.String()
}

// MarshalJSON writes {"code": "errors_over_max", "message": "errors were 3 % …", "share": 0.03}; zero: null.
func (n Note) MarshalJSON() ([]byte, error) {
	if n.IsZero() {
		return []byte("null"), nil
	}
	m := Args{}
	maps.Copy(m, n.Args)
	m["code"], m["message"] = n.Code, n.String()
	return json.Marshal(m)
}

// Warning is n as a run's warning.
func (n Note) Warning() results.Warning {
	return results.Warning{Code: string(n.Code), Args: n.Args, Message: n.String()}
}

// Join words notes separated by sep, skipping those without words.
func Join(ns []Note, sep string) string {
	return strings.Join(slices.DeleteFunc(List(ns).Strings(), func(s string) bool { return s == "" }), sep)
}

// List is a list of notes.
type List []Note

// AppendNew appends the notes of add that l does not hold yet.
func (l List) AppendNew(add ...Note) List {
	for _, a := range add {
		if !slices.ContainsFunc(l, func(n Note) bool { return reflect.DeepEqual(n, a) }) {
			l = append(l, a)
		}
	}
	return l
}

// Strings says each note of l.
func (l List) Strings() []string {
	var out []string
	for _, n := range l {
		out = append(out, n.String())
	}
	return out
}

// S is parameter k as a string.
func (n Note) S(k string) string { s, _ := n.Args[k].(string); return s }

// B is parameter k as a bool.
func (n Note) B(k string) bool { b, _ := n.Args[k].(bool); return b }

// N is parameter k as notes.
func (n Note) N(k string) []Note { ns, _ := n.Args[k].([]Note); return ns }
