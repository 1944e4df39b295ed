package analysis

import (
	"encoding/json"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/notes"
	"strings"
)

// tls12Offer is the part of an encoded Plan with the TLS versions offered.
type tls12Offer struct {
	Target struct {
		TLS *struct {
			MaxVersion uint16 `json:"max_version"`
		} `json:"tls"`
	} `json:"target"`
}

// versionTLS13 is crypto/tls.VersionTLS13 (results imports no TLS).
const versionTLS13 = 0x0304

// Hints say what a reader could change to measure more cheaply: today
// max_version "1.2" for a variant that offered TLS 1.3 but negotiated 1.2.
func Hints(r *results.Run) notes.List {
	var plan tls12Offer
	if len(r.Plan) == 0 || json.Unmarshal(r.Plan, &plan) != nil || plan.Target.TLS == nil ||
		plan.Target.TLS.MaxVersion < versionTLS13 {
		return nil
	}
	var hints notes.List
	for i := range r.Variants {
		v := &r.Variants[i]
		if !allTLS12(v) {
			continue
		}
		hints = append(hints, notes.New(notes.TLS12Hint, "variant", v.Name))
	}
	return hints
}

// allTLS12: v completed handshakes, every one TLS 1.2.
func allTLS12(v *results.Variant) bool {
	var n uint64
	for j := range v.Reps {
		for key, c := range v.Reps[j].Total.Negotiated {
			if !strings.HasPrefix(key, "TLS1.2 ") {
				return false
			}
			n += c
		}
	}
	return n > 0
}
