package scenarios

import (
	"bytes"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"time"

	"gopkg.in/yaml.v3"
)

// Marshal writes s as a scenario file, keys in the spec types' order, which
// Parse reads back to the same values; URL mode prints its scenario so.
func (s *Scenario) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(encode(reflect.ValueOf(s).Elem())); err != nil { // a struct: always a mapping
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func scalar(tag, value string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
}

func str(s string) *yaml.Node { return scalar("!!str", s) }

func mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode} }

// encode is decode's inverse: the node of v, nil when v is left out.
func encode(v reflect.Value) *yaml.Node {
	if k := v.Kind(); (k == reflect.Pointer || k == reflect.Slice || k == reflect.Map) && v.IsNil() {
		return nil
	}
	switch x := v.Interface().(type) {
	case time.Duration:
		return str(x.String())
	case Fraction:
		return str(strconv.FormatFloat(float64(x)*100, 'g', -1, 64) + "%")
	case Pairs:
		m := mapping()
		for _, p := range x {
			m.Content = append(m.Content, str(p.Key), str(p.Value))
		}
		return m
	case Sweep:
		m := mapping()
		for _, p := range x {
			m.Content = append(m.Content, str(p.Key), encodeParam(p))
		}
		return m
	case EnvValue:
		if !x.secret() && x.Value != nil {
			return str(*x.Value)
		}
	case RepeatSpec:
		switch {
		case x.Count != nil:
			return scalar("!!int", strconv.Itoa(*x.Count))
		case x.Auto != nil && *x.Auto == AutoSpec{}:
			return str("auto")
		}
		return encode(reflect.ValueOf(x.Auto))
	case SearchSpec:
		m := mapping()
		if x.Param != nil {
			m.Content = append(m.Content, str(x.Param.Key), encodeParam(*x.Param))
		}
		m.Content = append(m.Content, encodeKind(v).Content...)
		return m
	case BudgetSpec:
		switch {
		case x.Windows != nil:
			return scalar("!!int", strconv.Itoa(*x.Windows))
		case x.Duration != nil:
			return str(x.Duration.String())
		}
		return nil
	}
	return encodeKind(v)
}

// encodeKind encodes v by its kind: a struct by its yaml tags.
func encodeKind(v reflect.Value) *yaml.Node {
	switch v.Kind() {
	case reflect.Pointer:
		return encode(v.Elem())
	case reflect.Struct:
		m := mapping()
		for _, f := range fieldsOf(v.Type()) {
			if n := encode(v.Field(f.index)); n != nil {
				m.Content = append(m.Content, str(f.key), n)
			}
		}
		return m
	case reflect.Slice:
		s := &yaml.Node{Kind: yaml.SequenceNode}
		for i := range v.Len() {
			s.Content = append(s.Content, encode(v.Index(i)))
		}
		return s
	case reflect.Map:
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		m := mapping()
		for _, k := range keys {
			m.Content = append(m.Content, str(k.String()), encode(v.MapIndex(k)))
		}
		return m
	case reflect.String:
		return str(v.String())
	case reflect.Int:
		return scalar("!!int", strconv.FormatInt(v.Int(), 10))
	case reflect.Uint64:
		return scalar("!!int", strconv.FormatUint(v.Uint(), 10))
	case reflect.Float64:
		return scalar("", strconv.FormatFloat(v.Float(), 'g', -1, 64)) // 0, not !!float 0
	case reflect.Bool:
		return scalar("!!bool", strconv.FormatBool(v.Bool()))
	}
	panic("scenarios: no encoder for " + v.Type().String())
}

// encodeParam writes a swept or searched parameter: its values as written
// (plain, so that 33 stays a number), or its range.
func encodeParam(p SweepParam) *yaml.Node {
	if p.Range != nil {
		return encode(reflect.ValueOf(p.Range))
	}
	s := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, x := range p.Values {
		s.Content = append(s.Content, scalar("", x))
	}
	return s
}

// Paths lists the field path of every value s holds, each section before
// what it holds ("load", "load.groups", "load.groups[0]", …).
func (s *Scenario) Paths() []string {
	var out []string
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				p := joinKey(path, n.Content[i].Value)
				out = append(out, p)
				walk(n.Content[i+1], p)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				p := fmt.Sprintf("%s[%d]", path, i)
				out = append(out, p)
				walk(c, p)
			}
		}
	}
	walk(encode(reflect.ValueOf(s).Elem()), "")
	return out
}
