package analysis

import "encoding/json"

// MarshalJSON writes p with per_request last, left out when p's
// repetitions completed no request.
func (p ProbeSummary) MarshalJSON() ([]byte, error) {
	type plain ProbeSummary
	var per *float64
	if p.HasPerRequest {
		per = &p.PerRequest
	}
	return json.Marshal(struct {
		plain
		PerRequest *float64 `json:"per_request,omitempty"`
	}{plain(p), per})
}
