package scenarios

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Error is one problem in a scenario, located in its file (or a --set, or
// a flag) and in the field tree. Parse, Set and Compile join several.
type Error struct {
	File      string
	Line, Col int    // 1-based; 0 when the problem has no position in the file
	Set       string // "path=value" when the value came from --set
	// Flag is the flag the value came from ("--cpus 0-9"), which replaces
	// the position and the path (FromFlag).
	Flag string
	Path string // the field path, e.g. "load.groups[1].cpus"; "" = the whole file
	Msg  string
}

// Error formats the problem as "file:line:col: path: message", with
// "--set path=value" or the flag in place of the position.
func (e *Error) Error() string {
	if e.Flag != "" {
		return e.Flag + ": " + e.Msg
	}
	var parts []string
	switch {
	case e.Set != "":
		parts = append(parts, "--set "+e.Set)
	case e.Line > 0:
		parts = append(parts, fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Col))
	case e.File != "":
		parts = append(parts, e.File)
	}
	if e.Path != "" {
		parts = append(parts, e.Path)
	}
	return strings.Join(append(parts, e.Msg), ": ")
}

// maxMergeDepth bounds nested YAML merge keys ("<<: *anchor"), which may
// otherwise refer to themselves.
const maxMergeDepth = 8

// decoder walks a yaml.Node tree into the Spec types by their yaml tags,
// reporting problems with their position and recording every value's.
type decoder struct {
	file   string
	set    string // "path=value" while decoding a Set value
	raw    string // the value of a Set as written
	rawErr error  // why raw is not YAML (nil when it is)
	pos    map[string]Error
	errs   []error
	visits int // values decoded, bounded by maxVisits
	// dropped collects the paths of values left out as undecodable.
	dropped map[string]bool
}

// maxVisits bounds the values one document may decode to, so that aliases
// referring to aliases cannot blow a small file up exponentially.
const maxVisits = 100_000

// at is where n came from, as an Error's location.
func (d *decoder) at(n *yaml.Node) Error {
	if d.set != "" {
		return Error{Set: d.set}
	}
	return Error{Line: n.Line, Col: n.Column}
}

// errorf records a problem with the value at path, which is left out and
// marked dropped, so that Compile does not also report its absence.
func (d *decoder) errorf(n *yaml.Node, path, format string, args ...any) {
	d.keyErrorf(n, path, format, args...)
	d.dropped[path] = true
}

// keyErrorf records a problem with a key (unknown, repeated, not a
// scalar): what it holds belongs to no field, so no field is left out.
func (d *decoder) keyErrorf(n *yaml.Node, path, format string, args ...any) {
	e := d.at(n)
	e.File, e.Path, e.Msg = d.file, path, fmt.Sprintf(format, args...)
	d.errs = append(d.errs, &e)
}

// is reports whether t is T.
func is[T any](t reflect.Type) bool { return t == reflect.TypeFor[T]() }

// describeNode names a node's kind for "want X, got Y" messages.
func describeNode(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case isNull(n):
		return "null"
	case n.Kind == yaml.ScalarNode:
		return strconv.Quote(n.Value)
	}
	return "nothing"
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

// resolve follows aliases to the anchored node.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// decoders decode the types whose YAML form is not their Go kind.
var decoders map[reflect.Type]func(*decoder, string, *yaml.Node, reflect.Value)

func init() {
	decoders = map[reflect.Type]func(*decoder, string, *yaml.Node, reflect.Value){
		reflect.TypeFor[time.Duration](): (*decoder).duration,
		reflect.TypeFor[Pairs]():         (*decoder).pairs,
		reflect.TypeFor[Sweep]():         (*decoder).sweep,
		reflect.TypeFor[Fraction]():      (*decoder).fraction,
		reflect.TypeFor[EnvValue]():      (*decoder).envValue,
		reflect.TypeFor[RepeatSpec]():    (*decoder).repeat,
		reflect.TypeFor[SearchSpec]():    (*decoder).search,
		reflect.TypeFor[BudgetSpec]():    (*decoder).budget,
	}
}

// decode decodes n into v (addressable), recording positions under path.
func (d *decoder) decode(path string, n *yaml.Node, v reflect.Value) {
	if d.visits++; d.visits > maxVisits {
		if d.visits == maxVisits+1 {
			d.errorf(n, path, "the document expands to more than %d values (aliases repeated too often)", maxVisits)
		}
		return
	}
	use := n
	n = resolve(n)
	if n == nil || n.Kind == yaml.AliasNode {
		d.errorf(use, path, "unresolvable alias")
		return
	}
	t := v.Type()
	if k := t.Kind(); isNull(n) && (k == reflect.Pointer || k == reflect.Slice || k == reflect.Map) {
		v.SetZero() // null = left out
		return
	}
	d.pos[path] = d.at(use)
	if dec, ok := decoders[t]; ok {
		dec(d, path, n, v)
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		e := reflect.New(t.Elem())
		d.decode(path, use, e.Elem())
		if !d.dropped[path] {
			v.Set(e) // a value in error stays left out
		}
	case reflect.Struct:
		d.structure(path, n, v)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			d.errorf(use, path, "want a list, got %s", describeNode(n))
			return
		}
		s := reflect.MakeSlice(t, len(n.Content), len(n.Content))
		for i, c := range n.Content {
			d.decode(fmt.Sprintf("%s[%d]", path, i), c, s.Index(i))
		}
		v.Set(s)
	case reflect.Map:
		d.mapping(path, use, n, v)
	default:
		d.scalar(path, use, n, v)
	}
}

// each calls f with the field path and entry of every key of mapping n;
// want says what else n should have been (use locates that problem).
func (d *decoder) each(path string, use, n *yaml.Node, want string, f func(sub string, kv entry)) {
	if n.Kind != yaml.MappingNode {
		d.errorf(use, path, "%s, got %s", want, describeNode(n))
		return
	}
	for _, kv := range d.entries(path, n, 0, nil) {
		f(joinKey(path, kv.key.Value), kv)
	}
}

// mapping decodes a YAML mapping into the map v.
func (d *decoder) mapping(path string, use, n *yaml.Node, v reflect.Value) {
	m := reflect.MakeMap(v.Type())
	d.each(path, use, n, "want a mapping", func(sub string, kv entry) {
		e := reflect.New(v.Type().Elem()).Elem()
		d.decode(sub, kv.value, e)
		d.keyPos(sub, kv)
		if !d.dropped[sub] {
			m.SetMapIndex(reflect.ValueOf(kv.key.Value), e)
		}
	})
	if n.Kind == yaml.MappingNode {
		v.Set(m)
	}
}

// scalarKinds are the YAML tags each kind of scalar field takes ("" any), and what it wants.
var scalarKinds = map[reflect.Kind]struct{ tags, want string }{
	reflect.String:  {"", "want a string"},
	reflect.Int:     {"!!int", "want a whole number"},
	reflect.Uint64:  {"!!int", fmt.Sprintf("want a whole number from 0 to %d", uint64(math.MaxUint64))},
	reflect.Float64: {"!!int !!float", "want a number"},
	reflect.Bool:    {"!!bool", "want true or false"},
}

// scalar decodes a string, number or bool, whose YAML tag must match.
func (d *decoder) scalar(path string, use, n *yaml.Node, v reflect.Value) {
	k, ok := scalarKinds[v.Kind()]
	if !ok {
		panic("scenarios: no decoder for " + v.Type().String())
	}
	good := n.Kind == yaml.ScalarNode && !isNull(n) &&
		(k.tags == "" || slices.Contains(strings.Fields(k.tags), n.Tag))
	if _, err := strconv.ParseUint(n.Value, 10, 64); v.Kind() == reflect.Uint64 && err != nil {
		good = false
	}
	switch {
	case good && k.tags == "":
		v.SetString(n.Value)
	case !good || n.Decode(v.Addr().Interface()) != nil:
		d.errorf(use, path, "%s, got %s", k.want, describeNode(n))
	}
}

func (d *decoder) duration(path string, n *yaml.Node, v reflect.Value) {
	dur, err := time.ParseDuration(n.Value)
	switch {
	case n.Kind != yaml.ScalarNode:
	case n.Tag == "!!int" && n.Value == "0" || n.Tag == "!!str" && err == nil:
		v.SetInt(int64(dur))
		return
	case n.Tag == "!!int" || n.Tag == "!!float":
		d.errorf(n, path, "want a duration with a unit, such as 10s, got %s", n.Value)
		return
	}
	d.errorf(n, path, "want a duration such as 500ms, 10s or 1m30s, got %s", describeNode(n))
}

// fraction decodes a percentage ("1%", "0.5 %") or a plain fraction below
// 1 (0.01). Ranges (not negative, at most 100%) are Compile's.
func (d *decoder) fraction(path string, n *yaml.Node, v reflect.Value) {
	text := strings.TrimSpace(n.Value)
	num, pct := strings.CutSuffix(text, "%")
	f, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	switch {
	case n.Kind != yaml.ScalarNode || text == "" || pct && n.Tag != "!!str" ||
		!slices.Contains([]string{"!!int", "!!float", "!!str"}, n.Tag):
		err = strconv.ErrSyntax
	case pct:
		f /= 100
	case err == nil && f >= 1:
		d.errorf(n, path, "%s as a plain number would be a fraction of the whole (0.01 = 1%%); write %s%% for %s percent, or 100%% to tolerate any share", n.Value, n.Value, n.Value)
		return
	}
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		d.errorf(n, path, "want a percentage such as 1%% or 0.5%%, or a fraction such as 0.01, got %s", describeNode(n))
		return
	}
	v.SetFloat(f)
}

// repeat decodes repeat: a whole number, auto, or the {effect, max,
// calibrate} mapping.
func (d *decoder) repeat(path string, n *yaml.Node, v reflect.Value) {
	var spec RepeatSpec
	switch {
	case n.Tag == "!!int":
		spec.Count = new(int)
		if n.Decode(spec.Count) != nil {
			d.errorf(n, path, "want a whole number, got %s", describeNode(n))
			return
		}
	case n.Tag == "!!str" && strings.TrimSpace(n.Value) == "auto":
		spec.Auto = &AutoSpec{}
	case n.Kind == yaml.MappingNode:
		spec.Auto = &AutoSpec{}
		d.structure(path, n, reflect.ValueOf(spec.Auto).Elem())
	default:
		d.errorf(n, path, "want a whole number of windows per variant, auto, or {effect: 3%%, max: 10, calibrate: 5}, got %s", describeNode(n))
		return
	}
	v.Set(reflect.ValueOf(spec))
}

// search decodes variants[].search: maximize, budget, start, and one more
// key, the searched variable, written like a sweep parameter.
func (d *decoder) search(path string, n *yaml.Node, v reflect.Value) {
	var spec SearchSpec
	sv := reflect.ValueOf(&spec).Elem()
	fs := fieldsOf(v.Type())
	d.each(path, n, n, "want a mapping such as {ratio: {from: 0, to: 100, step: 1}, maximize: req/s, budget: 12}", func(sub string, kv entry) {
		switch f, ok := lookupField(fs, kv.key.Value); {
		case ok:
			d.decode(sub, kv.value, sv.Field(f.index))
		case spec.Param != nil:
			d.keyErrorf(kv.key, sub, "a search has one variable; %s is already searched (use a sweep for the others, in another variant entry)", spec.Param.Key)
		default:
			spec.Param = d.sweepParam(sub, kv)
		}
	})
	if n.Kind == yaml.MappingNode {
		v.Set(sv)
	}
}

// budget decodes search.budget: a whole number of windows or a duration.
func (d *decoder) budget(path string, n *yaml.Node, v reflect.Value) {
	var b BudgetSpec
	dur, err := time.ParseDuration(strings.TrimSpace(n.Value))
	switch {
	case n.Tag == "!!int":
		b.Windows = new(int)
		if n.Decode(b.Windows) != nil {
			d.errorf(n, path, "want a whole number of windows, got %s", describeNode(n))
			return
		}
	case n.Tag == "!!str" && err == nil:
		b.Duration = &dur
	default:
		d.errorf(n, path, "want a number of windows such as 12 or a duration such as 20m, got %s", describeNode(n))
		return
	}
	v.Set(reflect.ValueOf(b))
}

// envValue decodes an env entry: any scalar (KAE_GO_SOFT_RATIO: 33), or
// the {value: …, secret: true} form.
func (d *decoder) envValue(path string, n *yaml.Node, v reflect.Value) {
	switch {
	case n.Kind == yaml.ScalarNode && !isNull(n):
		s := n.Value
		v.Set(reflect.ValueOf(EnvValue{Value: &s}))
	case n.Kind == yaml.MappingNode:
		d.structure(path, n, v)
	default:
		d.errorf(n, path, "want a string or {value: …, secret: true}, got %s", describeNode(n))
	}
}

// entry is one key/value pair of a mapping, after merge keys are applied.
type entry struct{ key, value *yaml.Node }

// entries returns the pairs of mapping n in order, keys checked unique and
// merge keys ("<<: *anchor") expanded, explicit keys winning. seen holds
// the mappings already merged (no exponential blow-up; nil at the top).
func (d *decoder) entries(path string, n *yaml.Node, depth int, seen map[*yaml.Node]bool) []entry {
	if seen == nil {
		seen = map[*yaml.Node]bool{n: true}
	}
	var out []entry
	first := make(map[string]*yaml.Node)
	var merged []entry
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := resolve(n.Content[i]), n.Content[i+1]
		if k == nil || k.Kind != yaml.ScalarNode {
			d.keyErrorf(n.Content[i], path, "want a plain key, got %s", describeNode(n.Content[i]))
			continue
		}
		if k.Tag == "!!merge" {
			merged = append(merged, d.merge(path, val, depth, seen)...)
			continue
		}
		if f, ok := first[k.Value]; ok {
			d.keyErrorf(n.Content[i], joinKey(path, k.Value), "key given twice (first at line %d)", f.Line)
			continue
		}
		first[k.Value] = k
		out = append(out, entry{k, val})
	}
	for _, e := range merged {
		if _, ok := first[e.key.Value]; !ok {
			first[e.key.Value] = e.key
			out = append(out, e)
		}
	}
	return out
}

func (d *decoder) merge(path string, val *yaml.Node, depth int, seen map[*yaml.Node]bool) []entry {
	if depth >= maxMergeDepth {
		d.errorf(val, path, "merge keys nested more than %d deep", maxMergeDepth)
		return nil
	}
	m := resolve(val)
	switch {
	case m != nil && (m.Kind == yaml.MappingNode || m.Kind == yaml.SequenceNode) && seen[m]:
		return nil
	case m != nil && m.Kind == yaml.MappingNode:
		seen[m] = true
		return d.entries(path, m, depth+1, seen)
	case m != nil && m.Kind == yaml.SequenceNode:
		seen[m] = true
		var out []entry
		for _, c := range m.Content {
			out = append(out, d.merge(path, c, depth, seen)...)
		}
		return out
	}
	d.errorf(val, path, "merge key << wants a mapping or a list of mappings, got %s", describeNode(m))
	return nil
}

func joinKey(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// field is a struct field reachable by its yaml key.
type field struct {
	key   string
	index int
}

// fieldsOf lists the yaml-tagged fields of struct type t in declaration order.
func fieldsOf(t reflect.Type) []field {
	var fs []field
	for i := range t.NumField() {
		if tag := t.Field(i).Tag.Get("yaml"); tag != "" && tag != "-" {
			fs = append(fs, field{strings.Split(tag, ",")[0], i})
		}
	}
	return fs
}

func keyList(fs []field) string { return joinMap(fs, ", ", func(f field) string { return f.key }) }

func lookupField(fs []field, key string) (field, bool) {
	for _, f := range fs {
		if f.key == key {
			return f, true
		}
	}
	return field{}, false
}

func (d *decoder) structure(path string, n *yaml.Node, v reflect.Value) {
	fs := fieldsOf(v.Type())
	d.each(path, n, n, "want a mapping", func(sub string, kv entry) {
		f, ok := lookupField(fs, kv.key.Value)
		switch {
		case !ok:
			d.keyErrorf(kv.key, path, "unknown key %q (valid keys: %s)", kv.key.Value, keyList(fs))
		case !isNull(resolve(kv.value)): // an explicit null is the same as leaving the key out
			d.decode(sub, kv.value, v.Field(f.index))
			d.keyPos(sub, kv)
		}
	})
}

// pairs decodes a mapping of strings keeping its order (HTTP headers).
func (d *decoder) pairs(path string, n *yaml.Node, v reflect.Value) {
	ps := Pairs{}
	d.each(path, n, n, "want a mapping of names to values", func(sub string, kv entry) {
		p := Pair{Key: kv.key.Value}
		d.decode(sub, kv.value, reflect.ValueOf(&p.Value).Elem())
		ps = append(ps, p)
	})
	if n.Kind == yaml.MappingNode {
		v.Set(reflect.ValueOf(ps))
	}
}

// keyPos locates a section (a mapping or list value) at its key, which is
// where people look for it, rather than at its first entry.
func (d *decoder) keyPos(path string, kv entry) {
	v := resolve(kv.value)
	if _, ok := d.pos[path]; ok && v != nil && (v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode) {
		d.pos[path] = d.at(kv.key)
	}
}

// sweep decodes variants[].sweep, a mapping of parameter names to a list of
// values or a {from, to, step} range, keeping the order written.
func (d *decoder) sweep(path string, n *yaml.Node, v reflect.Value) {
	sw := Sweep{}
	d.each(path, n, n, "want a mapping of parameter names to values, such as {ratio: [0, 10, 33]}", func(sub string, kv entry) {
		sw = append(sw, *d.sweepParam(sub, kv))
	})
	if n.Kind == yaml.MappingNode {
		v.Set(reflect.ValueOf(sw))
	}
}

// sweepParam decodes the swept parameter of entry kv, located at its key.
func (d *decoder) sweepParam(path string, kv entry) *SweepParam {
	p := &SweepParam{Key: kv.key.Value}
	d.paramValues(path, kv.value, p)
	d.keyPos(path, kv)
	return p
}

// paramValues decodes one swept parameter's values into p (Key already set).
func (d *decoder) paramValues(path string, use *yaml.Node, p *SweepParam) {
	n := resolve(use)
	if n == nil || n.Kind == yaml.AliasNode {
		d.errorf(use, path, "unresolvable alias")
		return
	}
	d.pos[path] = d.at(use)
	switch n.Kind {
	case yaml.SequenceNode:
		p.Values = make([]string, len(n.Content))
		for i, c := range n.Content {
			ipath := fmt.Sprintf("%s[%d]", path, i)
			if r := resolve(c); r == nil || r.Kind != yaml.ScalarNode || isNull(r) {
				d.errorf(c, ipath, "want a number or a string, got %s", describeNode(c))
				continue
			}
			d.decode(ipath, c, reflect.ValueOf(&p.Values[i]).Elem())
		}
	case yaml.MappingNode:
		p.Range = &RangeSpec{}
		d.decode(path, use, reflect.ValueOf(p.Range).Elem())
	default:
		d.errorf(use, path, "want a list of values such as [0, 10, 33] or a range such as {from: 0, to: 100, step: 10}, got %s", describeNode(n))
	}
}
