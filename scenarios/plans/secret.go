package plans

import (
	"cmp"
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// SecretPlaceholder replaces a secret value wherever a Plan is shown or written.
const SecretPlaceholder = "<secret>"

// secretValues lists p.Secrets and every variant's SecretEnv values, in
// SortSecrets order.
func (p *Plan) secretValues() []string {
	set := make(map[string]bool, len(p.Secrets))
	for _, s := range p.Secrets {
		set[s] = true
	}
	for _, v := range p.Variants {
		for _, k := range v.SecretEnv {
			if val, ok := v.Env[k]; ok {
				set[val] = true
			}
		}
	}
	return SortSecrets(set)
}

// SortSecrets lists set's values but "" and the placeholder, longest first
// (a secret containing another is replaced whole), then in byte order.
func SortSecrets(set map[string]bool) []string {
	var out []string
	for s := range set {
		if s != "" && s != SecretPlaceholder {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	return out
}

// replacer replaces every secret by SecretPlaceholder.
func replacer(secrets []string) *strings.Replacer {
	pairs := make([]string, 0, 2*len(secrets))
	for _, s := range secrets {
		pairs = append(pairs, s, SecretPlaceholder)
	}
	return strings.NewReplacer(pairs...)
}

// Redact returns s with every secret value replaced by SecretPlaceholder,
// so that command output and log lines can be shown.
func (p *Plan) Redact(s string) string { return replacer(p.secretValues()).Replace(s) }

// Redacted returns a copy of p fit to be shown or stored: secret env values
// are SecretPlaceholder, and the texts {vars} reach (env, vars, commands,
// warnings) are redacted; names, target and request are not. p is unchanged.
func (p *Plan) Redacted() *Plan {
	q := *p
	secrets := p.secretValues()
	marked := slices.ContainsFunc(p.Variants, func(v Variant) bool { return len(v.SecretEnv) > 0 })
	if len(secrets) == 0 && !marked {
		return &q
	}
	hide := replacer(secrets).Replace
	q.Secrets = slices.Clone(p.Secrets)
	q.Warnings = nil
	for _, w := range p.Warnings {
		q.Warnings = append(q.Warnings, hide(w))
	}
	q.Variants = make([]Variant, len(p.Variants))
	for i, v := range p.Variants {
		w := v
		w.Env = hideMap(v.Env, hide)
		for _, k := range v.SecretEnv {
			if _, ok := w.Env[k]; ok {
				w.Env[k] = SecretPlaceholder
			}
		}
		w.SecretEnv = slices.Clone(v.SecretEnv)
		w.Vars = hideMap(v.Vars, hide)
		w.Start, w.Stop, w.Reload = hide(v.Start), hide(v.Stop), hide(v.Reload)
		w.Probes = slices.Clone(v.Probes)
		for j := range w.Probes {
			w.Probes[j].Command = hide(w.Probes[j].Command)
		}
		w.Speed = slices.Clone(v.Speed)
		for j := range w.Speed {
			w.Speed[j].Command = hide(w.Speed[j].Command)
		}
		q.Variants[i] = w
	}
	return &q
}

// hideMap copies m with hide applied to every value; nil stays nil.
func hideMap(m map[string]string, hide func(string) string) map[string]string {
	if m == nil {
		return nil
	}
	out := maps.Clone(m)
	for k, v := range out {
		out[k] = hide(v)
	}
	return out
}

// plainPlan is Plan without its MarshalJSON, to encode a redacted copy.
type plainPlan Plan

// MarshalJSON encodes p.Redacted(): run.json and workers never see a secret.
func (p Plan) MarshalJSON() ([]byte, error) {
	return json.Marshal((*plainPlan)(p.Redacted()))
}
