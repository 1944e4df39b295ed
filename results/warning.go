package results

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
)

// Warning is what a reader must know: a code and parameters, with results/notes' words.
type Warning struct {
	Code    string
	Args    map[string]any
	Message string
}

// Warnings are a run's warnings, in the order they arose.
type Warnings []Warning

// Strings are the warnings' words.
func (ws Warnings) Strings() []string {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		out = append(out, w.Message)
	}
	return out
}

// Has says whether ws holds w: the same code and parameters, or words where either has no code.
func (ws Warnings) Has(w Warning) bool {
	return slices.ContainsFunc(ws, func(o Warning) bool {
		if w.Code == "" || o.Code == "" {
			return w.Message == o.Message
		}
		return w.Code == o.Code && bytes.Equal(argsJSON(w.Args), argsJSON(o.Args))
	})
}

// argsJSON is args as stored, so that parameters read back (numbers as float64) equal new ones.
func argsJSON(args map[string]any) []byte {
	if len(args) == 0 {
		return nil
	}
	b, _ := json.Marshal(args)
	return b
}

// AppendNew appends the warnings of add that ws does not hold yet.
func (ws Warnings) AppendNew(add ...Warning) Warnings {
	for _, w := range add {
		if !ws.Has(w) {
			ws = append(ws, w)
		}
	}
	return ws
}

// MarshalJSON writes w as notes do: {"code": …, "message": …, params…}.
func (w Warning) MarshalJSON() ([]byte, error) {
	m := maps.Collect(maps.All(w.Args)) // never nil
	m["code"], m["message"] = w.Code, w.Message
	return json.Marshal(m)
}

// UnmarshalJSON reads what MarshalJSON writes, or an older run's plain string.
func (w *Warning) UnmarshalJSON(b []byte) error {
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] == '"' {
		*w = Warning{}
		return json.Unmarshal(b, &w.Message)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	code, _ := m["code"].(string)
	msg, _ := m["message"].(string)
	maps.DeleteFunc(m, func(k string, _ any) bool { return k == "code" || k == "message" })
	if len(m) == 0 {
		m = nil
	}
	*w = Warning{Code: code, Args: m, Message: msg}
	return nil
}
