package scenarios

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Set overrides one field, as `--set load.groups[0].connections=32` does:
// value is YAML, missing sections are created and an index equal to a
// list's length appends. Compile's messages then name the --set.
func (s *Scenario) Set(path, value string) error {
	segs, err := splitPath(path)
	if err != nil {
		return &Error{Msg: err.Error()}
	}
	var node yaml.Node
	var val *yaml.Node // nil: not YAML, a string field takes it as written
	yamlErr := yaml.Unmarshal([]byte(value), &node)
	if yamlErr == nil {
		val = &node
		if val.Kind == yaml.DocumentNode && len(val.Content) == 1 {
			val = val.Content[0]
		}
		if value == "" || val.Kind == yaml.DocumentNode {
			val = str(value) // "path=" sets an empty string
		}
	}
	if s.pos == nil { // a Scenario built in code
		s.pos, s.dropped = make(map[string]Error), make(map[string]bool)
	}
	d := &decoder{file: s.file, set: path + "=" + value, pos: s.pos, dropped: s.dropped}
	d.raw, d.rawErr = value, yamlErr
	if err := d.assign(reflect.ValueOf(s).Elem(), "", segs, val); err != nil {
		return &Error{Msg: err.Error()}
	}
	for _, e := range d.errs {
		e := e.(*Error)
		e.File, e.Line, e.Col, e.Set = "", 0, 0, "" // the caller names the --set
	}
	return errors.Join(d.errs...)
}

// FromFlag says that the value at path and under it came from a flag (URL
// mode): problems there name the flag ("--cpus 0-9: …"). Call it from the
// general path to the particular; a later Set still names its --set.
func (s *Scenario) FromFlag(path, flag string) {
	if s.pos == nil {
		s.pos = make(map[string]Error)
	}
	for k := range s.pos {
		if within(k, path) {
			s.pos[k] = Error{Flag: flag}
		}
	}
	s.pos[path] = Error{Flag: flag}
}

// seg is one step of a field path: a key, or a list index when index >= 0.
type seg struct {
	key   string
	index int
}

// splitPath parses "a.b[2].c" into segments.
func splitPath(path string) ([]seg, error) {
	if path == "" {
		return nil, fmt.Errorf("empty field path")
	}
	var segs []seg
	for _, part := range strings.Split(path, ".") {
		key, rest, _ := strings.Cut(part, "[")
		if key == "" {
			return nil, fmt.Errorf("field path %q: empty key", path)
		}
		segs = append(segs, seg{key: key, index: -1})
		for rest != "" {
			num, after, ok := strings.Cut(rest, "]")
			i, err := strconv.Atoi(num)
			if !ok || err != nil || i < 0 || (after != "" && after[0] != '[') {
				return nil, fmt.Errorf("field path %q: want an index such as [0] after %q", path, key)
			}
			segs = append(segs, seg{index: i})
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return segs, nil
}

// forget drops what is known of the value at path and under it, which a
// Set replaces: positions, and values left out.
func (d *decoder) forget(path string) {
	maps.DeleteFunc(d.pos, func(k string, _ Error) bool { return within(k, path) })
	maps.DeleteFunc(d.dropped, func(k string, _ bool) bool { return within(k, path) })
}

// notYAML is the error of a Set value that is not YAML where YAML is needed.
func (d *decoder) notYAML() error {
	return fmt.Errorf("value is not valid YAML: %s", strings.TrimPrefix(d.rawErr.Error(), "yaml: "))
}

// assign walks v along segs, creating what is missing, and decodes val at the end.
func (d *decoder) assign(v reflect.Value, path string, segs []seg, val *yaml.Node) error {
	if len(segs) == 0 {
		return d.assignValue(v, path, val)
	}
	sg := segs[0]
	t := v.Type()
	if t.Kind() == reflect.Pointer {
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
			d.pos[path] = Error{Set: d.set}
		}
		return d.assign(v.Elem(), path, segs, val)
	}
	switch {
	case sg.index >= 0:
		return d.assignIndex(v, path, segs, val)
	case is[SearchSpec](t):
		return d.assignSearch(v, path, segs, val)
	case is[BudgetSpec](t):
		return fmt.Errorf("%s is a value, not a section", path)
	case t.Kind() == reflect.Struct:
		fs := fieldsOf(t)
		f, ok := lookupField(fs, sg.key)
		if !ok {
			where := "at the top level"
			if path != "" {
				where = "in " + path
			}
			return fmt.Errorf("unknown key %q %s (valid keys: %s)", sg.key, where, keyList(fs))
		}
		return d.assign(v.Field(f.index), joinKey(path, sg.key), segs[1:], val)
	case is[Pairs](t):
		return d.assignPair(v, path, segs, val)
	case is[Sweep](t):
		return d.assignSweep(v, path, segs, val)
	case t.Kind() == reflect.Map:
		if v.IsNil() {
			v.Set(reflect.MakeMap(t))
		}
		e := reflect.New(t.Elem()).Elem()
		if old := v.MapIndex(reflect.ValueOf(sg.key)); old.IsValid() {
			e.Set(old)
		}
		if err := d.assign(e, joinKey(path, sg.key), segs[1:], val); err != nil {
			return err
		}
		v.SetMapIndex(reflect.ValueOf(sg.key), e)
		return nil
	}
	return fmt.Errorf("%s is a value, not a section; %q does not apply", path, sg.key)
}

// assignValue decodes val into v, the end of the path.
func (d *decoder) assignValue(v reflect.Value, path string, val *yaml.Node) error {
	// An env entry's mapping form with a value replaces it whole; any other
	// value is its value, and keeps its secret mark (--set server.env.TOKEN=x).
	old, env := v.Interface().(EnvValue)
	mapping := false
	if env && val != nil && val.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(val.Content); i += 2 {
			mapping = mapping || val.Content[i].Value == "value" && !isNull(val.Content[i+1])
		}
	}
	// A string field takes a value that is not a YAML scalar as written,
	// so that templates such as {scenario_dir}/x.cnf work.
	if (v.Kind() == reflect.String || env && !mapping) && (val == nil || val.Kind != yaml.ScalarNode) {
		val = str(d.raw)
	}
	if val == nil {
		return d.notYAML()
	}
	d.forget(path)
	v.SetZero()
	d.decode(path, val, v)
	if env && !mapping && old.Secret != nil {
		v.Addr().Interface().(*EnvValue).Secret = old.Secret
	}
	return nil
}

// assignIndex sets list entry segs[0].index of v, appending at its length.
func (d *decoder) assignIndex(v reflect.Value, path string, segs []seg, val *yaml.Node) error {
	t, i := v.Type(), segs[0].index
	if t.Kind() != reflect.Slice || is[Pairs](t) || is[Sweep](t) {
		return fmt.Errorf("%s is not a list; [%d] does not apply", path, i)
	}
	n := v.Len()
	if i > n {
		entries := "entries"
		if n == 1 {
			entries = "entry"
		}
		return fmt.Errorf("%s has %d %s; index %d is out of range (use %d to append one)", path, n, entries, i, n)
	}
	if i == n {
		v.Set(reflect.Append(v, reflect.Zero(t.Elem())))
	}
	return d.assign(v.Index(i), fmt.Sprintf("%s[%d]", path, i), segs[1:], val)
}

// assignPair sets one entry of an ordered mapping (headers), in place or appended.
func (d *decoder) assignPair(v reflect.Value, path string, segs []seg, val *yaml.Node) error {
	key := segs[0].key
	if len(segs) > 1 {
		return fmt.Errorf("%s.%s is a value, not a section", path, key)
	}
	p := Pair{Key: key}
	if err := d.assign(reflect.ValueOf(&p.Value).Elem(), joinKey(path, key), nil, val); err != nil {
		return err
	}
	ps := v.Interface().(Pairs)
	if i := slices.IndexFunc(ps, func(q Pair) bool { return q.Key == key }); i >= 0 {
		ps[i] = p
	} else {
		v.Set(reflect.ValueOf(append(ps, p)))
	}
	return nil
}

// assignSweep sets one swept parameter whole, or a field of its range.
func (d *decoder) assignSweep(v reflect.Value, path string, segs []seg, val *yaml.Node) error {
	key := segs[0].key
	sub := joinKey(path, key)
	sw := slices.Clone(v.Interface().(Sweep))
	i := slices.IndexFunc(sw, func(p SweepParam) bool { return p.Key == key })
	if i < 0 {
		i, sw = len(sw), append(sw, SweepParam{Key: key})
	}
	p := &sw[i]
	switch {
	case len(segs) == 1:
		d.forget(sub)
		if val == nil {
			return d.notYAML()
		}
		*p = SweepParam{Key: key}
		d.paramValues(sub, val, p)
	case p.Values != nil:
		return fmt.Errorf("%s is a list of values, not a range; set it whole", sub)
	default:
		r := RangeSpec{}
		if p.Range != nil {
			r = *p.Range
		}
		if err := d.assign(reflect.ValueOf(&r).Elem(), sub, segs[1:], val); err != nil {
			return err
		}
		p.Range = &r
		d.pos[sub] = Error{Set: d.set}
	}
	v.Set(reflect.ValueOf(sw))
	return nil
}

// assignSearch sets a key of variants[i].search, or the searched variable
// (whole, or a field of its range, as for a sweep).
func (d *decoder) assignSearch(v reflect.Value, path string, segs []seg, val *yaml.Node) error {
	spec := v.Interface().(SearchSpec)
	key := segs[0].key
	var err error
	if f, ok := lookupField(fieldsOf(v.Type()), key); ok {
		err = d.assign(reflect.ValueOf(&spec).Elem().Field(f.index), joinKey(path, key), segs[1:], val)
	} else if spec.Param != nil && spec.Param.Key != key {
		return fmt.Errorf("%s searches %s; a search has one variable (set %s)", path, spec.Param.Key, joinKey(path, spec.Param.Key))
	} else {
		var sw Sweep
		if spec.Param != nil {
			sw = Sweep{*spec.Param}
		}
		if err = d.assign(reflect.ValueOf(&sw).Elem(), path, segs, val); len(sw) > 0 {
			spec.Param = &sw[0]
		}
	}
	if err == nil {
		v.Set(reflect.ValueOf(spec))
	}
	return err
}
