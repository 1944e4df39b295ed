package softratio

import (
	"fmt"
	"strings"
)

// messages holds the package's words, by code (to move to the project's
// message table).
var messages = map[Code]string{
	OK:                   "best soft ratio %.0f predicted%s, peak %.0f req/s",
	"range":              " (%.0f–%.0f)",
	"below":              "below it ",
	"above":              "above it ",
	"every":              "at every ratio ",
	Code(BoundDevice):    "the device limits at %.0f ops/s",
	Code(BoundCPU):       "the server's CPU at %.2f → %.2f ms per request",
	TooFewRatios:         "no soft-ratio prediction: windows at %d soft ratio(s), two are needed",
	BadWindow:            "no soft-ratio prediction: window %d has a value out of range",
	CPUsDiffer:           "no soft-ratio prediction: window %d has another server CPU count",
	BadCapacity:          "no soft-ratio prediction: the given device capacity is not a positive number",
	BadFit:               "no soft-ratio prediction: the fit gives no positive CPU per request",
	NoCapacity:           "no soft-ratio prediction: the device's capacity is unknown; it needs %s",
	NeedDeviceWindow:     "a window where the device was the bottleneck (server CPUs not saturated, soft ratio below 100)",
	NeedScenarioCapacity: "accelerator.capacity in the scenario",
	NeedSpeedFile:        "a speed file (kaeload speed on openssl speed -async_jobs output)",
}

// Message is the prediction in words.
func Message(p Prediction) string {
	switch p.Status {
	case OK:
	case TooFewRatios:
		return fmt.Sprintf(messages[p.Status], p.Ratios)
	case BadWindow, CPUsDiffer:
		return fmt.Sprintf(messages[p.Status], p.Window)
	case NoCapacity:
		var needs []string
		for _, n := range p.Needs {
			needs = append(needs, messages[n])
		}
		return fmt.Sprintf(messages[p.Status], strings.Join(needs, ", or "))
	default:
		return messages[p.Status]
	}
	rg := ""
	if p.Ranged {
		rg = fmt.Sprintf(messages["range"], 100*p.Ratio.Low, 100*p.Ratio.High)
	}
	s := fmt.Sprintf(messages[OK], 100*p.Ratio.Value, rg, p.Rate.Value)
	for i, side := range p.Sides {
		where := Code("above")
		switch {
		case len(p.Sides) == 1:
			where = "every"
		case side.To <= p.Ratio.Value:
			where = "below"
		}
		args := []any{p.Model.Capacity}
		if side.Bound == BoundCPU {
			args = []any{1e3 * p.Model.B, 1e3 * p.Model.A}
		}
		s += []string{": ", ", "}[min(i, 1)] + messages[where] + fmt.Sprintf(messages[Code(side.Bound)], args...)
	}
	return s
}
