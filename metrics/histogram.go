package metrics

import (
	"math"
	"sort"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/kaeload/kaeload/results"
)

// Bounds are the latency histograms' classic bucket bounds, in seconds (+Inf is implicit).
var Bounds = []float64{0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10}

// nativeSchema is the native buckets' resolution: each 2^(1/8) (about 9 %) wider than the last.
const nativeSchema = 3

// hist is a latency histogram as served: classic buckets (not cumulative),
// native buckets, count and sum. Each HDR bucket of the record goes whole
// to the bucket of its middle value: exact to the HDR precision (1 %).
type hist struct {
	classic []uint64
	native  map[int]int64
	count   uint64
	sum     float64
}

func newHist() *hist { return &hist{classic: make([]uint64, len(Bounds)+1), native: map[int]int64{}} }

// add adds every value of h (nil or empty: nothing).
func (a *hist) add(h *results.Histogram) {
	if results.EmptyHistogram(h) {
		return
	}
	if a.classic == nil {
		*a = *newHist()
	}
	for _, bar := range h.Distribution() {
		if bar.Count <= 0 {
			continue
		}
		n := uint64(bar.Count)
		v := float64(bar.From+bar.To) / 2 * float64(time.Microsecond) / float64(time.Second)
		a.classic[sort.SearchFloat64s(Bounds, v)] += n // the first bound >= v
		a.native[nativeIndex(v)] += bar.Count
		a.count += n
		a.sum += v * float64(n)
	}
}

// nativeIndex is the native bucket of v > 0 at nativeSchema: bucket i holds (2^((i-1)/8), 2^(i/8)].
func nativeIndex(v float64) int {
	return int(math.Ceil(math.Log2(v) * (1 << nativeSchema)))
}

// metric is the histogram with both bucket kinds: the text formats carry the classic ones, the
// protobuf format (Prometheus with native histograms on) the native ones too.
func (a *hist) metric(desc *prometheus.Desc, labels ...string) prometheus.Metric {
	if a.classic == nil {
		*a = *newHist()
	}
	cum := make(map[float64]uint64, len(Bounds))
	var c uint64
	for i, b := range Bounds {
		c += a.classic[i]
		cum[b] = c
	}
	classic := prometheus.MustNewConstHistogram(desc, a.count, a.sum, cum, labels...)
	native := prometheus.MustNewConstNativeHistogram(desc, a.count, a.sum, a.native, nil, 0, nativeSchema, 0, time.Time{}, labels...)
	return dual{classic, native}
}

// dual is a histogram made of two constant metrics of the same values: classic and native.
type dual struct{ classic, native prometheus.Metric }

// Desc is the histogram's descriptor.
func (d dual) Desc() *prometheus.Desc { return d.classic.Desc() }

// Write writes the classic histogram with the native buckets added.
func (d dual) Write(out *dto.Metric) error {
	var n dto.Metric
	if err := d.native.Write(&n); err != nil {
		return err
	}
	if err := d.classic.Write(out); err != nil {
		return err
	}
	h, nh := out.Histogram, n.Histogram
	h.Schema, h.ZeroThreshold, h.ZeroCount = nh.Schema, nh.ZeroThreshold, nh.ZeroCount
	h.PositiveSpan, h.PositiveDelta = nh.PositiveSpan, nh.PositiveDelta
	return nil
}
