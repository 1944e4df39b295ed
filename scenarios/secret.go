package scenarios

import (
	"maps"

	"github.com/kaeload/kaeload/scenarios/plans"
)

// scrub replaces the secret values (as written and expanded) in every
// problem and warning, --set texts included: a message never shows a
// secret, even one quoting a value that holds it through a {var}.
func (c *compiler) scrub() {
	set := maps.Clone(c.secrets)
	for s := range c.rawSecrets {
		set[s] = true
	}
	secrets := plans.SortSecrets(set)
	if len(secrets) == 0 {
		return
	}
	redact := (&plans.Plan{Secrets: secrets}).Redact
	for _, es := range [][]*Error{c.errs, c.warns} {
		for _, e := range es {
			e.Msg, e.Set = redact(e.Msg), redact(e.Set)
		}
	}
}
