package softratio

import "math"

// Model is T(r) = min(N·β/(b + r·(a−b)), D/(1−r)): a, b the server's CPU-seconds per request at r = 1 (all in
// software) and 0 (all offloaded), β the N CPUs' busy fraction when they bound the rate, D the device's ops/s.
type Model struct {
	A        float64 `json:"a"`
	B        float64 `json:"b"`
	Beta     float64 `json:"beta"`
	CPUs     int     `json:"cpus"`
	Capacity float64 `json:"capacity"`
}

func (m Model) cpuBound(r float64) float64    { return float64(m.CPUs) * m.Beta / (m.B + r*(m.A-m.B)) }
func (m Model) deviceBound(r float64) float64 { return m.Capacity / (1 - r) }

// Rate is the predicted rate T(r) in requests per second.
func (m Model) Rate(r float64) float64 { return math.Min(m.cpuBound(r), m.deviceBound(r)) }

// cross is where the bounds meet (not clamped; NaN if they never do).
func (m Model) cross() float64 {
	nb := float64(m.CPUs) * m.Beta
	return (nb - m.Capacity*m.B) / (nb + m.Capacity*(m.A-m.B))
}

// Best is r* maximizing Rate, and T*: where the bounds meet, clamped to [0, 1], or 1 when offload
// costs the CPU as much as software or more (a ≤ b: both bounds rise with r).
func (m Model) Best() (ratio, rate float64) {
	ratio = 1
	if m.A > m.B {
		ratio = min(max(m.cross(), 0), 1)
	}
	return ratio, m.Rate(ratio)
}

// Bound names what limits the rate.
type Bound string

// The bounds: the device at Capacity, the server's CPUs at b + r·(a−b) CPU-seconds per request.
const (
	BoundDevice Bound = "device"
	BoundCPU    Bound = "cpu"
)

// Side is a span of soft ratios over which one bound holds.
type Side struct {
	Bound Bound   `json:"bound"`
	From  float64 `json:"from"`
	To    float64 `json:"to"`
}

// Sides splits [0, 1] where the bounds cross and names the one that holds on each part.
func (m Model) Sides() []Side {
	cuts := []float64{0, 1}
	if c := m.cross(); c > 0 && c < 1 {
		cuts = []float64{0, c, 1}
	}
	var sides []Side
	for i := 1; i < len(cuts); i++ {
		b, mid := BoundCPU, (cuts[i-1]+cuts[i])/2
		if m.deviceBound(mid) < m.cpuBound(mid) {
			b = BoundDevice
		}
		sides = append(sides, Side{Bound: b, From: cuts[i-1], To: cuts[i]})
	}
	return sides
}

// Curve is Rate at n+1 ratios from 0 to 1 (n ≥ 1).
func (m Model) Curve(n int) (ratios, rates []float64) {
	for i := 0; i <= n; i++ {
		r := float64(i) / float64(n)
		ratios, rates = append(ratios, r), append(rates, m.Rate(r))
	}
	return ratios, rates
}
