package notes

import (
	"fmt"
	"maps"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/softratio"
	"github.com/kaeload/kaeload/results/stats"
)

// The codes, each with its words in messages.
const (
	RepFailed        Code = "failed"             // why: the failure's note
	NoSuccess        Code = "no_success"         // errors, unanswered (results.Stages)
	ErrorsOverMax    Code = "errors_over_max"    // share, max
	FailedText       Code = "failed_text"        // text: a failure (or profile reason) stored as a sentence
	BackedOff        Code = "backed_off"         // backoffs, fails
	ClientBound      Code = "client_bound"       // groups: ClientBoundGroup notes
	OtherLoad        Code = "other_load"         // groups: OtherLoadGroup notes
	MissedStarts     Code = "missed_starts"      // groups: MissedGroup notes
	OpenLoop         Code = "open_loop"          // asked, rate, missed, scheduled, share
	ClientBoundGroup Code = "client_bound_group" // index, cpus, own, busy, kaeload, interrupts
	// OtherLoadGroup: index, cpus, others, kaeload, interrupts, wait,
	// waited, top ([]results.ProcessCPU).
	OtherLoadGroup  Code = "other_load_group"
	MissedGroup     Code = "missed_group"      // index, limit, share, measured, own, busy, kaeload, interrupts, slots
	ServerOtherLoad Code = "server_other_load" // others, cpus, server, kaeload, interrupts, top
	SharedCPUs      Code = "shared_cpus"       // shared (SharedGroup notes), measured, cpus, server, kaeload
	SharedGroup     Code = "shared_group"      // group, cpus, common: a client group on the server's CPUs
	// NotSaturated: server, cpus, has_cpus_busy, cpus_busy,
	// has_client_busy, client_busy, connections, latency_us, little, rate.
	NotSaturated Code = "not_saturated"
	Flagged      Code = "flagged" // notes, the flags of a window joined
	InRep        Code = "in_rep"  // variant, rep (1-based), note: a repetition's note as a run-wide line
	// Caveat: reps, n, flag (one of ClientBound, OtherLoad, SharedCPUs,
	// ServerOtherLoad), baseline (the repetitions are the baseline's).
	Caveat      Code = "caveat"
	Unjudged    Code = "unjudged"     // rule, title, why: a diagnosis rule could not judge a repetition
	ServerShare Code = "server_share" // common: a client group ran on the server's CPUs
	// ServerBusiest: cpus, comm, pid, nice: other load on the server's
	// CPUs and its busiest process.
	ServerBusiest Code = "server_busiest"
	NotMeasured   Code = "not_measured" // variant, reps, reason: a variant the run gave up on
	// PartialWindow: variant, rep, seconds, planned (time.Duration),
	// requests, rate, errors: a window an interrupt cut short.
	// A lost worker's window adds lost_group, lost_host, lost_why and
	// lost_requests (what the group had reported).
	PartialWindow     Code = "partial_window"
	ExcludedWindow    Code = "excluded_window"    // variant, rep, rate, why: a window exclude_flagged set aside
	ThresholdCrossed  Code = "threshold_crossed"  // expr, variant, shown (the measured figure)
	ThresholdChecked  Code = "threshold_checked"  // passed, check (a ThresholdCrossed)
	TLS12Hint         Code = "tls12_hint"         // variant
	Misaligned        Code = "misaligned"         // a caveat's flag, the groups' windows over 1 % apart
	OtherLoadApart    Code = "other_load_apart"   // own, base (shares of the server's CPUs), mde (%)
	HandshakeDiffers  Code = "handshake_differs"  // parts (names), own and base (Handshake keys)
	SoftRatio         Code = "soft_ratio"         // prediction (softratio.Prediction), in its package's words
	DriftUncontrolled Code = "drift_uncontrolled" // a sequential order does not control drift
	// DriftTrend: trend (%), rounds, names, deltas (%): drift as large
	// as differences called significant.
	DriftTrend  Code = "drift_trend"
	MDESpread   Code = "mde_spread"   // reps (SpreadRep notes): the repetitions that inflate a comparison's MDE
	SpreadRep   Code = "spread_rep"   // variant, rep, rate
	ProbeFailed Code = "probe_failed" // probe, failed, read (windows), variants, first (error)
	Capacity    Code = "capacity"     // spec (results.CapacitySpec), knees (CapacityKnee notes): the capacity answer
	// CapacityKnee: variant, knee, from, steps, below_from, at_max, delta
	// (against the baseline's knee, absent when none).
	CapacityKnee Code = "capacity_knee"
	// MetricsServed: metrics (*results.Metrics): where the live metrics
	// were served and whether Prometheus read the final values.
	MetricsServed Code = "metrics_served"
	Caveats       Code = "caveats" // notes, a variant's caveats joined
	// Interrupted: label, and for a window a later repetition measures,
	// variant and index (0-based): an interrupt cut the window short.
	Interrupted         Code = results.WarnInterrupted
	SpeedFailed         Code = "speed_failed"          // variant, command, error
	ServerCPUUnmeasured Code = "server_cpu_unmeasured" // variant, error: the server's processes not found
	SearchNotUnimodal   Code = "search_not_unimodal"   // series, key, values (the coarse pass's local bests)
	// SearchUnrefined: series, budget, and values (the coarse pass's)
	// when the budget covered it, none when only both ends and the
	// predicted value.
	SearchUnrefined Code = "search_unrefined"
	// PlanWarning: text, a scenario warning as the compiler words it, with
	// its position in the file (as its errors are, for validate too).
	PlanWarning Code = "plan_warning"
	// PortsTooMany, PortsRateHigh and PortsTimeWait are ports.Shortage's
	// kinds: low, high, ports, per (open connections per destination),
	// dest, fix (a ports.Fix* value), and their own figures.
	PortsTooMany    Code = "ports_too_many"
	PortsRateHigh   Code = "ports_rate_high"   // rate, per_dest, reused, held, max_rate, wide_max, left
	PortsTimeWait   Code = "ports_time_wait"   // time_wait, share, free, port_errors
	QuietTimedOut   Code = "quiet_timed_out"   // label, waited, others, max_other; busiest, pid when named
	ClockUncertain  Code = "clock_uncertain"   // host, uncertainty, window
	NoComparison    Code = "no_comparison"     // baseline, missing (a BaselineMissing)
	SlowerRun       Code = "slower_run"        // variant, run, comparison (a stats.Comparison with the reference run)
	UnansweredAtEnd Code = "unanswered_at_end" // stages (results.Stages)
	// PlansCompared heads compare's PlanDiff and ServerInfoDiff lines.
	PlansCompared  Code = "plans_compared"   // ref (run name), differ (runs with another plan), lines
	PlanDiff       Code = "plan_diff"        // run, diff ("load.duration: 1m0s → 30s")
	ServerInfoDiff Code = "server_info_diff" // run, variant, command, from, to (first differing line)
	// BaselineMissing: the baseline was not measured (yet: the run was cut short).
	BaselineMissing Code = "baseline_missing" // yet
	// The search's lines: SearchHead (series, key, grid, first, last,
	// objective, windows, budget), then SearchNone or SearchBest and the
	// others.
	SearchHead      Code = "search_head"
	SearchNone      Code = "search_none"
	SearchBest      Code = "search_best"      // key, value, mean, unit, n; low, high with a CI
	SearchPredicted Code = "search_predicted" // key, value ("" when none), prediction
	SearchPlateau   Code = "search_plateau"   // values, key, lowest, caution
	SearchOnce      Code = "search_once"      // values measured once
	// The server profile's words; the first three say why there is none.
	ProfileUnprofiled   Code = "profile_unprofiled"
	ProfileNoReps       Code = "profile_no_reps"
	ProfileNoSamples    Code = "profile_no_samples"
	ProfileNotAvailable Code = "profile_not_available" // reasons (notes; a stored reason is FailedText)
	ProfileBound        Code = "profile_bound"         // share (crypto's), bound (+Inf: all was crypto)
	// ProfileCheck: samples, cpu_seconds, rate, expected, ratio, agrees,
	// close (within tolerance, not only /proc's resolution), tolerance.
	ProfileCheck Code = "profile_check"
	ProfileOn    Code = "profile_on" // rate, crypto ([]string)
)

// messages are the words of every code (set in init: they refer to
// Note.String, which reads them).
var messages map[Code]func(Note) string

func init() {
	messages = table()
	maps.Copy(messages, runTable())
	maps.Copy(messages, summaryTable())
	kernelMessages(messages)
	rateMessages(messages)
	maps.Copy(messages, warningTable())
	maps.Copy(messages, reportTable())
	maps.Copy(messages, compareTable())
}

// warningTable are the words of the runner's warnings.
func warningTable() map[Code]func(Note) string {
	return map[Code]func(Note) string{
		Interrupted: func(n Note) string { return n.S("label") + " was interrupted and is not included" },
		SpeedFailed: func(n Note) string {
			return fmt.Sprintf("variant %s: speed command %q: %s", n.S("variant"), n.S("command"), n.S("error"))
		},
		ServerCPUUnmeasured: func(n Note) string {
			return fmt.Sprintf("variant %s: server CPU not measured: %s", n.S("variant"), n.S("error"))
		},
		SearchNotUnimodal: func(n Note) string {
			return fmt.Sprintf("search %s: the coarse pass is not unimodal (local bests at %s = %s): the search refined around each; look at the chart before trusting one best value",
				n.S("series"), n.S("key"), n.S("values"))
		},
		SearchUnrefined: func(n Note) string {
			if n.S("values") == "" {
				return fmt.Sprintf("search %s: a budget of %d windows covers only both ends and the predicted value with its neighbours: no refinement", n.S("series"), n.I("budget"))
			}
			return fmt.Sprintf("search %s: a budget of %d windows covers only the coarse pass: no refinement, the best value is only the best of %s", n.S("series"), n.I("budget"), n.S("values"))
		},
		PlanWarning:   func(n Note) string { return n.S("text") },
		PortsTooMany:  portsTooMany,
		PortsRateHigh: portsRateHigh,
		PortsTimeWait: portsTimeWait,
		QuietTimedOut: func(n Note) string {
			s := fmt.Sprintf("%s: measured on a busy machine: after waiting %s for a quiet one, other processes still took %.0f %% of the client's or the server's CPUs (under %.0f %% wanted)",
				n.S("label"), n.D("waited").Round(time.Second), 100*n.F("others"), 100*n.F("max_other"))
			if comm := n.S("busiest"); comm != "" {
				s += fmt.Sprintf(", the busiest %s (pid %d)", comm, n.I("pid"))
			}
			return s
		},
		ClockUncertain: func(n Note) string {
			return fmt.Sprintf("host %s: the clock offset is uncertain by ±%s, more than 1%% of the %s window: the groups there may start and end their window that much off",
				n.S("host"), n.D("uncertainty"), n.D("window"))
		},
	}
}

// The commands that free client ports.
const (
	widenCmd = "sysctl -w net.ipv4.ip_local_port_range='1024 65535'"
	reuseCmd = "sysctl -w net.ipv4.tcp_tw_reuse=1"
	spread   = "spread the load over more server addresses or ports, or more client addresses"
)

// portsRange: "net.ipv4.ip_local_port_range 32768-60999 has 28232 ports";
// portsTo: "to the destination", "to each of 2 destinations".
func portsRange(n Note) string {
	return fmt.Sprintf("net.ipv4.ip_local_port_range %d-%d has %d ports", n.I("low"), n.I("high"), n.I("ports"))
}

func portsTo(n Note) string {
	if d := n.I("dest"); d > 1 {
		return fmt.Sprintf("to each of %d destinations", d)
	}
	return "to the destination"
}

func portsTooMany(n Note) string {
	fix := "run: " + widenCmd + " (64512 ports)"
	if n.S("fix") != "widen" {
		fix = "no port range is that wide: " + spread
	}
	return fmt.Sprintf("%d connections at once %s need as many client ports, but %s: the rest fail with EADDRNOTAVAIL; %s",
		n.I("per"), portsTo(n), portsRange(n), fix)
}

func portsRateHigh(n Note) string {
	fix := spread
	switch n.S("fix") {
	case "reuse_or_widen":
		fix = fmt.Sprintf("run: %s (or %s: enough for %s/s)", reuseCmd, widenCmd, portCount(n.F("wide_max")))
	case "reuse":
		fix = "run: " + reuseCmd
	case "widen":
		fix = fmt.Sprintf("run: %s (enough for %s/s)", widenCmd, portCount(n.F("wide_max")))
	}
	rate := portCount(n.F("rate")) + " new connections/s"
	if n.I("dest") > 1 {
		rate += fmt.Sprintf(" (%s per destination)", portCount(n.F("per_dest")))
	}
	hold := "60 s in TIME_WAIT"
	if n.B("reused") {
		hold = "about 1 s in TIME_WAIT before tcp_tw_reuse frees it"
	}
	return fmt.Sprintf("at %s with connection: close, a client that closes first keeps each port %s: "+
		"that holds %s ports %s at once, but %s, %d beside %d open connections (enough for %s/s); "+
		"connects may fail with EADDRNOTAVAIL after about %s s; %s",
		rate, hold, portCount(n.F("held")), portsTo(n), portsRange(n), n.I("ports")-n.I("per"), n.I("per"), portCount(n.F("max_rate")), portCount(n.F("left")), fix)
}

func portsTimeWait(n Note) string {
	fix := "run: " + reuseCmd + " (or " + widenCmd + ")"
	if n.S("fix") == "widen" {
		fix = "run: " + widenCmd + ", or spread the load over more server addresses or client addresses"
	}
	what := fmt.Sprintf("after the window the client held %d ports in TIME_WAIT to the target (it closed first, so each stays 60 s), %.0f %% of the %d ports net.ipv4.ip_local_port_range %d-%d leaves beside %d open connections",
		n.I("time_wait"), n.F("share")*100, n.I("free"), n.I("low"), n.I("high"), n.I("per"))
	if e := n.U("port_errors"); e > 0 {
		return what + fmt.Sprintf(", and %s failed with EADDRNOTAVAIL (no free port)", plural(int(e), "connect")) + "; " + fix
	}
	return what + ": a longer or faster window runs out of ports and its connects fail with EADDRNOTAVAIL; " + fix
}

// portCount formats a rate or a number of ports, with one decimal below 10.
func portCount(f float64) string {
	if f < 10 && f != math.Trunc(f) {
		return strconv.FormatFloat(f, 'f', 1, 64)
	}
	return strconv.FormatFloat(math.Floor(f), 'f', 0, 64)
}

// compareTable are the words of the comparisons' lines: the baseline
// missing, compare's plans and slower runs, unanswered requests.
func compareTable() map[Code]func(Note) string {
	return map[Code]func(Note) string{
		NoComparison: func(n Note) string {
			return fmt.Sprintf("baseline %q %s: no variant is compared with it", n.S("baseline"), n.Sub("missing"))
		},
		PlansCompared: plansCompared,
		PlanDiff:      func(n Note) string { return fmt.Sprintf("  %s: %s", n.S("run"), n.S("diff")) },
		ServerInfoDiff: func(n Note) string {
			return fmt.Sprintf("  %s: server info of %s, %s: %s → %s", n.S("run"), n.S("variant"), n.S("command"), n.S("from"), n.S("to"))
		},
		UnansweredAtEnd: func(n Note) string {
			u, _ := n.Args["stages"].(results.Stages)
			return Unanswered(u) + " at the window's end"
		},
		SlowerRun: func(n Note) string {
			c, _ := n.Args["comparison"].(stats.Comparison)
			return fmt.Sprintf("%s in %s: %s (p Holm %s)", n.S("variant"), n.S("run"), format.Delta(c.DeltaPct), format.PAdjusted(c))
		},
		BaselineMissing: func(n Note) string {
			if n.B("yet") {
				return "not measured yet"
			}
			return "not measured"
		},
	}
}

// reportTable are the words of the report's lines: the baseline, the
// search and the server profile.
func reportTable() map[Code]func(Note) string {
	return map[Code]func(Note) string{
		SearchHead: func(n Note) string {
			what := "maximize " + n.S("objective")
			if results.Objective(n.S("objective")) == results.ObjectiveP99 {
				what = "minimize p99 handshake"
			}
			return fmt.Sprintf("search %s: %s over %d values (%s … %s), %s: %d windows of a budget of %d; the full grid would need %d",
				n.S("series"), n.S("key"), n.I("grid"), n.S("first"), n.S("last"), what, n.I("windows"), n.I("budget"), n.I("grid"))
		},
		SearchNone: fixed("no window measured yet"),
		SearchBest: func(n Note) string {
			ci := "no 95 % CI (one window)"
			if _, ok := n.Args["low"]; ok {
				ci = fmt.Sprintf("95 %% CI %s … %s", format.Number(n.F("low")), format.Number(n.F("high")))
			}
			return fmt.Sprintf("best %s = %s: %s %s (%s, %d windows)", n.S("key"), n.S("value"), format.Number(n.F("mean")), n.S("unit"), ci, n.I("n"))
		},
		SearchPredicted: func(n Note) string {
			p := New(SoftRatio, "prediction", n.Args["prediction"])
			if n.S("value") == "" {
				return fmt.Sprintf("predicted from both ends: none (%s); the search fell back to its coarse pass", p)
			}
			return fmt.Sprintf("predicted from both ends: best %s = %s (%s); the search confirmed around it", n.S("key"), n.S("value"), p)
		},
		SearchPlateau: func(n Note) string {
			vals, _ := n.Args["values"].([]string)
			s := fmt.Sprintf("plateau (not significantly worse than the best, Holm-adjusted t-test on the log scale): %s; lowest %s = %s",
				strings.Join(vals, ", "), n.S("key"), n.S("lowest"))
			if c := n.S("caution"); c != "" {
				s += "; caution: " + c
			}
			return s
		},
		SearchOnce: func(n Note) string {
			vals, _ := n.Args["values"].([]string)
			return "measured once, so not tested and on no plateau: " + strings.Join(vals, ", ")
		},
		ProfileUnprofiled:   fixed("not profiled"),
		ProfileNoReps:       fixed("no repetition measured"),
		ProfileNoSamples:    fixed("no samples: the server used no CPU in the window"),
		ProfileNotAvailable: func(n Note) string { return "profile not available: " + Join(n.N("reasons"), "; ") },
		ProfileBound: func(n Note) string {
			share := format.Percent(n.F("share"))
			if b := n.F("bound"); !math.IsInf(b, 1) {
				return fmt.Sprintf("offloading all crypto (%s of the server's CPU) could make it at most %.2f× faster (%s)", share, b, BoundGain(b))
			}
			return fmt.Sprintf("offloading all crypto (%s of the server's CPU) leaves no bound: the server did nothing else", share)
		},
		ProfileCheck: func(n Note) string {
			tol := n.F("tolerance") * 100
			verdict := fmt.Sprintf("agrees within %.0f %%", tol)
			switch {
			case !n.B("agrees"):
				verdict = fmt.Sprintf("DISAGREES by more than %.0f %% (perf or /proc missed some of the server's processes)", tol)
			case !n.B("close"):
				verdict = "agrees within /proc's resolution (two clock ticks per window)"
			}
			return fmt.Sprintf("%s samples vs %.2f server CPU-s × %d Hz = %s: ratio %.2f, %s", format.Count(n.U("samples")), n.F("cpu_seconds"),
				n.I("rate"), format.Count(uint64(math.Round(n.F("expected")))), n.F("ratio"), verdict)
		},
		ProfileOn: func(n Note) string {
			crypto, _ := n.Args["crypto"].([]string)
			return fmt.Sprintf("profiling was on: perf record -e cpu-clock -F %d -g on the server's processes in every window (crypto: %s); perf itself takes some of the server's CPU (bench/profile-overhead.sh measures how much)",
				n.I("rate"), strings.Join(crypto, ", "))
		},
	}
}

// BoundGain is an offload bound as a gain: "+249 %", "+∞".
func BoundGain(bound float64) string {
	if math.IsInf(bound, 1) {
		return "+∞"
	}
	return fmt.Sprintf("%+.0f %%", (bound-1)*100)
}

// table are the words of a repetition's codes.
func table() map[Code]func(Note) string {
	return map[Code]func(Note) string{
		RepFailed: func(n Note) string { return "FAILED: " + n.Sub("why").String() },
		NoSuccess: func(n Note) string {
			var why []string
			if e := n.U("errors"); e > 0 {
				why = append(why, format.Count(e)+" errors")
			}
			if u, ok := n.Args["unanswered"].(results.Stages); ok && u.Total() > 0 {
				why = append(why, "unanswered at the window's end: "+Unanswered(u))
			}
			if len(why) == 0 {
				why = append(why, "no request ended at all")
			}
			return "no request succeeded in the window (" + strings.Join(why, "; ") + ")"
		},
		ErrorsOverMax: func(n Note) string {
			return fmt.Sprintf("errors were %s of the window's attempts, more than max_errors %s", format.Share(n.F("share")), format.Share(n.F("max")))
		},
		FailedText: func(n Note) string { return n.S("text") },
		BackedOff: func(n Note) string {
			return fmt.Sprintf("BACKED OFF: connection slots waited %s times before their next try because their connects kept failing (%s connect errors, counted as usual): the server refused or was unreachable",
				format.Count(n.U("backoffs")), format.Count(n.U("fails")))
		},
		ClientBound: func(n Note) string {
			return "CLIENT-BOUND: " + Join(n.N("groups"), ", ") + ": this figure measures kaeload, not the server"
		},
		OtherLoad: func(n Note) string {
			return "OTHER LOAD: " + Join(n.N("groups"), "; ") + ": not kaeload's own use, which alone makes a result client-bound"
		},
		MissedStarts: func(n Note) string {
			return "MISSED STARTS: " + Join(n.N("groups"), ", ") + ": the rate asked was not kept"
		},
		ClientBoundGroup: clientBoundGroup,
		OtherLoadGroup:   otherLoadGroup,
		MissedGroup:      missedGroup,
		ServerOtherLoad:  serverOtherLoad,
		SharedCPUs:       sharedCPUs,
		NotSaturated:     notSaturated,
		Flagged:          func(n Note) string { return Join(n.N("notes"), "; ") },
		Caveats:          func(n Note) string { return Join(n.N("notes"), "; ") },
		InRep: func(n Note) string {
			return fmt.Sprintf("variant %s, repetition %d: %s", n.S("variant"), n.I("rep"), n.Sub("note"))
		},
	}
}

// runTable are the words of the run-wide and variant-wide codes.
func runTable() map[Code]func(Note) string {
	return map[Code]func(Note) string{
		Caveat:        caveat,
		MetricsServed: metricsServed,
		Capacity: func(n Note) string {
			spec, _ := n.Args["spec"].(results.CapacitySpec)
			return "capacity under " + TargetWords(&spec) + ": " + Join(n.N("knees"), ", ")
		},
		CapacityKnee: func(n Note) string {
			s := n.S("variant") + " " + KneeWords(n.F("knee"), n.F("from"), n.I("steps"), n.B("below_from"), n.B("at_max"))
			if _, ok := n.Args["delta"]; ok {
				s += fmt.Sprintf(" (%+.0f %%)", 100*n.F("delta"))
			}
			return s
		},
		ProbeFailed: func(n Note) string {
			vs, _ := n.Args["variants"].([]string)
			which := "variants"
			if len(vs) == 1 {
				which = "variant"
			}
			return fmt.Sprintf("probe %s failed in %d of %d windows (%s %s): %s; no delta was recorded there, and a threshold on the probe is crossed",
				n.S("probe"), n.I("failed"), n.I("read"), which, strings.Join(vs, ", "), format.Plain(n.S("first")))
		},
	}
}

// summaryTable are the words of the run summary's codes.
func summaryTable() map[Code]func(Note) string {
	return map[Code]func(Note) string{
		DriftUncontrolled: func(Note) string {
			return "order sequential: drift is not controlled: each variant's repetitions run together, so a slow change of the machine lands between variants and reads as a difference (order: randomized spreads it over every variant)"
		},
		DriftTrend: func(n Note) string {
			names, _ := n.Args["names"].([]string)
			pcts, _ := n.Args["deltas"].([]float64)
			deltas := make([]string, len(pcts))
			for i, p := range pcts {
				deltas[i] = format.Delta(p)
			}
			return fmt.Sprintf("drift: the rates moved %s from round 1 to round %d, as much as the difference called significant for %s (%s): drift alone can make or hide a difference of that size; rerun on a steadier machine or with more rounds",
				format.Delta(n.F("trend")), n.I("rounds"), strings.Join(names, ", "), strings.Join(deltas, ", "))
		},
		MDESpread: func(n Note) string { return Join(n.N("reps"), ", ") },
		SpreadRep: func(n Note) string {
			return fmt.Sprintf("%s rep %d (%s req/s)", n.S("variant"), n.I("rep"), format.Rate(n.F("rate")))
		},
		NotMeasured: func(n Note) string {
			switch reps := n.I("reps"); reps {
			case 0:
				return fmt.Sprintf("variant %s: %s", n.S("variant"), n.S("reason"))
			case 1:
				return fmt.Sprintf("variant %s after 1 repetition: %s", n.S("variant"), n.S("reason"))
			default:
				return fmt.Sprintf("variant %s after %d repetitions: %s", n.S("variant"), reps, n.S("reason"))
			}
		},
		PartialWindow: partialWindow,
		ExcludedWindow: func(n Note) string {
			return fmt.Sprintf("variant %s rep %d: %s req/s set aside and measured again (exclude_flagged): %s", n.S("variant"), n.I("rep"), format.Rate(n.F("rate")), n.S("why"))
		},
		ThresholdCrossed: func(n Note) string { return fmt.Sprintf("%s: %s %s", n.S("expr"), n.S("variant"), n.S("shown")) },
		ThresholdChecked: func(n Note) string {
			if n.B("passed") {
				return "PASS  " + n.Sub("check").String()
			}
			return "CROSSED  " + n.Sub("check").String()
		},
		OtherLoadApart: func(n Note) string {
			return "caution: other processes took " + pct(n.F("own")) + " % of the server's CPUs against " + pct(n.F("base")) +
				" % in the baseline's windows, further apart than the " + format.Percent(n.F("mde")/100) + " this comparison resolves"
		},
		HandshakeDiffers: func(n Note) string {
			return "negotiated another " + n.S("parts") + " than the baseline: " + n.S("own") + " against " + n.S("base")
		},
		SoftRatio: func(n Note) string {
			if p, ok := n.Args["prediction"].(softratio.Prediction); ok {
				return SoftRatioWords(p)
			}
			return "no soft-ratio prediction"
		},
		TLS12Hint: func(n Note) string {
			return fmt.Sprintf("variant %s: every handshake negotiated TLS 1.2, yet the ClientHello also offered TLS 1.3 "+
				"and generated a TLS 1.3 key share the server never used; target.tls.max_version: \"1.2\" saves part of kaeload's client CPU "+
				"per request (bench/peers.sh measures how much on this machine; bench/README.md gives the measured range)", n.S("variant"))
		},
		ServerShare: func(n Note) string { return "client and server share " + cpusWords(n.S("common")) },
		ServerBusiest: func(n Note) string {
			why := "OTHER LOAD on the server's " + cpusWords(n.S("cpus"))
			if comm, ok := n.Args["comm"]; ok {
				why += fmt.Sprintf(", busiest %s (pid %d", comm, n.I("pid"))
				if n.I("nice") != 0 {
					why += fmt.Sprintf(", nice %d", n.I("nice"))
				}
				why += ")"
			}
			return why
		},
		SharedGroup: func(n Note) string {
			return fmt.Sprintf("client and server share %s (%s)", cpusWords(n.S("common")), groupName(n.I("group"), n.S("cpus")))
		},
		Unjudged: func(n Note) string { return n.S("title") + ": " + n.S("why") },
		OpenLoop: func(n Note) string {
			return fmt.Sprintf("%s/s asked, %s/s achieved; %s of %s starts missed (%s)",
				format.Rate(n.F("asked")), format.Rate(n.F("rate")), format.Count(n.U("missed")), format.Count(n.U("scheduled")), format.Share(n.F("share")))
		},
	}
}

// Failure is the note of a repetition's failure; the zero Note for nil.
func Failure(f *results.Failure) Note {
	switch {
	case f == nil:
		return Note{}
	case f.Code == results.FailNoSuccess:
		n := New(NoSuccess, "errors", f.Errors)
		if f.Unanswered != nil {
			n.Args["unanswered"] = *f.Unanswered
		}
		return n
	case f.Code == results.FailErrors:
		return New(ErrorsOverMax, "share", f.Share, "max", f.Max)
	}
	return New(FailedText, "text", f.Text)
}

// Unanswered words requests left unanswered by stage: "4 (connect 0,
// handshake 4, response 0)".
func Unanswered(u results.Stages) string {
	return fmt.Sprintf("%s (connect %s, handshake %s, response %s)",
		format.Count(u.Total()), format.Count(u.Connect), format.Count(u.Handshake), format.Count(u.Response))
}

// groupName is "group 1 (CPUs 4-7)" or "group 0 (unpinned)".
func groupName(index int, cpus string) string {
	if cpus == "" {
		return fmt.Sprintf("group %d (unpinned)", index)
	}
	return fmt.Sprintf("group %d (CPUs %s)", index, cpus)
}

// cpusWords is "CPU 0" or "CPUs 0-3".
func cpusWords(cpus string) string {
	if strings.ContainsAny(cpus, ",-") {
		return "CPUs " + cpus
	}
	return "CPU " + cpus
}

// processName is "sh (pid 4242, nice 19, CPUs 1) 2.95 CPU-s".
func processName(o results.ProcessCPU) string {
	s := fmt.Sprintf("%s (pid %d", o.Comm, o.PID)
	if o.Nice != 0 {
		s += fmt.Sprintf(", nice %d", o.Nice)
	}
	if o.CPUs != "" {
		s += ", CPUs " + o.CPUs
	}
	return s + fmt.Sprintf(") %.2f CPU-s", o.Seconds)
}

// pct is a 0..1 share as a whole percentage, without the sign.
func pct(f float64) string { return fmt.Sprintf("%.0f", f*100) }

// interrupts is ", interrupts 6 %" when interrupts took a visible share.
func interrupts(n Note) string {
	if i := n.F("interrupts"); i >= 0.005 {
		return ", interrupts " + pct(i) + " %"
	}
	return ""
}

// busiest is "; busiest: a, b" for the processes in top, "" for none.
func busiest(n Note) string {
	top, _ := n.Args["top"].([]results.ProcessCPU)
	if len(top) == 0 {
		return ""
	}
	names := make([]string, len(top))
	for i, o := range top {
		names[i] = processName(o)
	}
	return "; busiest: " + strings.Join(names, ", ")
}

func clientBoundGroup(n Note) string {
	name := groupName(n.I("index"), n.S("cpus"))
	if !n.B("own") {
		return fmt.Sprintf("%s was %s %% busy", name, pct(n.F("busy")))
	}
	s := fmt.Sprintf("kaeload used %s %% of %s", pct(n.F("kaeload")+n.F("interrupts")), name)
	if n.F("interrupts") >= 0.005 {
		s += fmt.Sprintf(" (its workers %s %%, interrupts %s %%)", pct(n.F("kaeload")), pct(n.F("interrupts")))
	}
	return s
}

func otherLoadGroup(n Note) string {
	p := fmt.Sprintf("other processes took %s %% of %s, kaeload %s %%", pct(n.F("others")), groupName(n.I("index"), n.S("cpus")), pct(n.F("kaeload"))) + interrupts(n)
	if n.B("wait") {
		p += fmt.Sprintf(" (its threads waited %.2f s in all for a CPU)", n.F("waited"))
	}
	return p + busiest(n)
}

func missedGroup(n Note) string {
	var detail string
	switch limit := n.S("limit"); {
	case limit == results.ClientBound && n.B("own"):
		detail = fmt.Sprintf("kaeload used %s %% of its CPUs", pct(n.F("kaeload")+n.F("interrupts")))
	case limit == results.ClientBound:
		detail = fmt.Sprintf("CPUs %s %% busy", pct(n.F("busy")))
	case limit == results.CPUsTaken:
		detail = fmt.Sprintf("CPUs %s %% busy, kaeload's own use %s %%", pct(n.F("busy")), pct(n.F("kaeload")))
	default:
		detail = fmt.Sprintf("all %d connection slots busy", n.I("slots"))
		if n.B("measured") {
			detail += fmt.Sprintf(", CPUs %s %% busy", pct(n.F("busy")))
		}
	}
	return fmt.Sprintf("group %d %s (missed %s of its starts; %s)", n.I("index"), n.S("limit"), format.Share(n.F("share")), detail)
}

func serverOtherLoad(n Note) string {
	return fmt.Sprintf("OTHER LOAD on the server: other processes took %s %% of the server's %s, the server %s %%, kaeload %s %%",
		pct(n.F("others")), cpusWords(n.S("cpus")), pct(n.F("server")), pct(n.F("kaeload"))) +
		interrupts(n) + busiest(n) + ": the server did not have its CPUs to itself"
}

func sharedCPUs(n Note) string {
	line := "SHARED CPUS: " + Join(n.N("shared"), "; ")
	if n.B("measured") {
		line += fmt.Sprintf("; of the server's %s the server used %s %%, kaeload %s %%", cpusWords(n.S("cpus")), pct(n.F("server")), pct(n.F("kaeload")))
	}
	return line + ": the figure measures client and server together"
}

func notSaturated(n Note) string {
	busy := fmt.Sprintf("the server used %s %% of its %s", pct(n.F("server")), cpusWords(n.S("cpus")))
	if n.B("has_cpus_busy") {
		busy += fmt.Sprintf(" (%s %% busy in all)", pct(n.F("cpus_busy")))
	}
	if n.B("has_client_busy") {
		busy += fmt.Sprintf("; the busiest group's CPUs %s %%", pct(n.F("client_busy")))
	}
	little := "the mean latency was not measured"
	if us := int64(n.F("latency_us")); us > 0 {
		little = fmt.Sprintf("%d / %s ms mean latency ≈ %s req/s; measured %s req/s", n.I("connections"),
			format.Millis(us), format.Rate(n.F("little")), format.Rate(n.F("rate")))
	}
	return fmt.Sprintf("NOT SATURATED: neither kaeload nor the server's CPUs were busy (%s); the rate was set by the connections in flight (%s); raise connections or groups", busy, little)
}

// caveatWords are, by flag, what the figures measured when most
// repetitions raised it and the flag's name.
var caveatWords = map[Code][2]string{
	ClientBound:     {"measured the client", "CLIENT-BOUND"},
	OtherLoad:       {"shared CPUs", "other processes on the client's CPUs"},
	SharedCPUs:      {"shared CPUs", "SHARED CPUS between client and server"},
	ServerOtherLoad: {"shared CPUs", "OTHER LOAD on the server's CPUs"},
	Misaligned:      {"windows apart", MisalignedWords},
}

// MisalignedWords name a repetition whose groups' windows were over 1 %
// of the window apart.
const MisalignedWords = "MISALIGNED windows (groups over 1 % apart)"

// caveat: "measured the client: CLIENT-BOUND in 3 of 3 repetitions" when
// most repetitions are flagged, "caution: CLIENT-BOUND in 1 of 3
// repetitions" otherwise, naming whose repetitions they are (of).
func caveat(n Note) string {
	w := caveatWords[Code(n.S("flag"))]
	reps, total, of := n.I("reps"), n.I("n"), ""
	if n.B("baseline") {
		of = "the baseline"
	}
	if 2*reps > total {
		if of != "" {
			return fmt.Sprintf("%s %s: %s in %d of its %d repetitions", of, w[0], w[1], reps, total)
		}
		return fmt.Sprintf("%s: %s in %d of %d repetitions", w[0], w[1], reps, total)
	}
	in := fmt.Sprintf("caution: %s in %d of %d repetitions", w[1], reps, total)
	if of != "" {
		in += " of " + of
	}
	return in
}

// KneeWords is a capacity for a report: "41,000/s", "≥ 1,000,000/s"
// (every step passed), "< 1,000/s" (none did) or "-" (no step).
func KneeWords(knee, from float64, steps int, belowFrom, atMax bool) string {
	switch {
	case steps == 0:
		return "-"
	case belowFrom:
		return "< " + format.Count(uint64(math.Round(from))) + "/s"
	case atMax:
		return "≥ " + format.Count(uint64(math.Round(knee))) + "/s"
	}
	return format.Count(uint64(math.Round(knee))) + "/s"
}

// TargetWords names a capacity search's targets: "20 ms p99 handshake",
// "50 ms p99 total".
func TargetWords(s *results.CapacitySpec) string {
	var ts []string
	if s.P99Handshake > 0 {
		ts = append(ts, millisWords(s.P99Handshake)+" p99 handshake")
	}
	if s.P99Total > 0 {
		ts = append(ts, millisWords(s.P99Total)+" p99 total")
	}
	return strings.Join(ts, ", ")
}

// millisWords writes d in milliseconds without trailing zeros: "20 ms",
// "2.5 ms".
func millisWords(d time.Duration) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", float64(d)/float64(time.Millisecond)), "0"), ".") + " ms"
}

// metricsServed: "live metrics served on :9090: 12 Prometheus scrapes
// about every 1s; the final values were scraped at …".
func metricsServed(n Note) string {
	m, _ := n.Args["metrics"].(*results.Metrics)
	if m == nil {
		return "live metrics served"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "live metrics served on %s: %s", m.Addr, plural(m.Scrapes, "Prometheus scrape"))
	if m.ScrapeInterval > 0 {
		fmt.Fprintf(&b, " about every %s", m.ScrapeInterval.Round(10*time.Millisecond))
	}
	if e := &m.End; e.WasScraped() {
		fmt.Fprintf(&b, "; the final values were scraped at %s (%s after they were set)",
			e.Scraped.Format("15:04:05.000"), e.Scraped.Sub(e.Final).Round(time.Millisecond))
	} else {
		fmt.Fprintf(&b, "; the final values were NOT scraped: no Prometheus scrape began within the linger (%s) after they were set, so Prometheus lacks the run's last interval", m.Linger)
	}
	un := m.Unscraped()
	switch {
	case len(m.Windows) == 0:
	case len(un) == 0:
		b.WriteString(", and every window's were")
	default:
		names := make([]string, len(un))
		for i, w := range un {
			names[i] = w.Variant + " rep " + strconv.Itoa(w.Rep+1)
		}
		fmt.Fprintf(&b, "; %d of %d windows' final values were not scraped (%s)", len(un), len(m.Windows), strings.Join(names, ", "))
	}
	return b.String()
}

// plural is "1 thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// partialWindow: "variant default rep 1: interrupted after 4.01 s of its
// 10s window: …"; a lost worker's window is FAILED and names the group.
func partialWindow(n Note) string {
	what, whose := "interrupted", ""
	if _, lost := n.Args["lost_group"]; lost {
		host := ""
		if h := n.S("lost_host"); h != "" {
			host = " on host " + h
		}
		what = fmt.Sprintf("FAILED, the run is INCOMPLETE: group %d%s was lost (%s)", n.I("lost_group"), host, n.S("lost_why"))
		whose = fmt.Sprintf(" (the other groups'; group %d had reported %s)", n.I("lost_group"), format.Count(n.U("lost_requests")))
	}
	return fmt.Sprintf("variant %s rep %d: %s after %s s of its %v window: %s requests%s, %s req/s, %s errors; kept, not in the statistics",
		n.S("variant"), n.I("rep"), what, format.Float(n.F("seconds"), 2), n.Args["planned"], format.Count(n.U("requests")), whose,
		format.Rate(n.F("rate")), format.Count(n.U("errors")))
}

// softRatioWords are the soft-ratio prediction's words, by code.
var softRatioWords = map[softratio.Code]string{
	softratio.OK:                          "best soft ratio %.0f predicted%s, peak %.0f req/s",
	"range":                               " (%.0f–%.0f)",
	"below":                               "below it ",
	"above":                               "above it ",
	"every":                               "at every ratio ",
	softratio.Code(softratio.BoundDevice): "the device limits at %.0f ops/s",
	softratio.Code(softratio.BoundCPU):    "the server's CPU at %.2f → %.2f ms per request",
	softratio.TooFewRatios:                "no soft-ratio prediction: windows at %d soft ratio(s), two are needed",
	softratio.BadWindow:                   "no soft-ratio prediction: window %d has a value out of range",
	softratio.CPUsDiffer:                  "no soft-ratio prediction: window %d has another server CPU count",
	softratio.BadCapacity:                 "no soft-ratio prediction: the given device capacity is not a positive number",
	softratio.BadFit:                      "no soft-ratio prediction: the fit gives no positive CPU per request",
	softratio.NoCapacity:                  "no soft-ratio prediction: the device's capacity is unknown; it needs %s",
	softratio.NeedDeviceWindow:            "a window where the device was the bottleneck (server CPUs not saturated, soft ratio below 100)",
	softratio.NeedScenarioCapacity:        "accelerator.capacity in the scenario",
	softratio.NeedSpeedFile:               "a speed file (kaeload speed on openssl speed -async_jobs output)",
}

// SoftRatioWords is a soft-ratio prediction in words: the best ratio and
// what bounds each side of it, or why there is none.
func SoftRatioWords(p softratio.Prediction) string {
	words := softRatioWords
	switch p.Status {
	case softratio.OK:
	case softratio.TooFewRatios:
		return fmt.Sprintf(words[p.Status], p.Ratios)
	case softratio.BadWindow, softratio.CPUsDiffer:
		return fmt.Sprintf(words[p.Status], p.Window)
	case softratio.NoCapacity:
		var needs []string
		for _, n := range p.Needs {
			needs = append(needs, words[n])
		}
		return fmt.Sprintf(words[p.Status], strings.Join(needs, ", or "))
	default:
		return words[p.Status]
	}
	rg := ""
	if p.Ranged {
		rg = fmt.Sprintf(words["range"], 100*p.Ratio.Low, 100*p.Ratio.High)
	}
	s := fmt.Sprintf(words[softratio.OK], 100*p.Ratio.Value, rg, p.Rate.Value)
	for i, side := range p.Sides {
		where := softratio.Code("above")
		switch {
		case len(p.Sides) == 1:
			where = "every"
		case side.To <= p.Ratio.Value:
			where = "below"
		}
		args := []any{p.Model.Capacity}
		if side.Bound == softratio.BoundCPU {
			args = []any{1e3 * p.Model.B, 1e3 * p.Model.A}
		}
		s += []string{": ", ", "}[min(i, 1)] + words[where] + fmt.Sprintf(words[softratio.Code(side.Bound)], args...)
	}
	return s
}

// plansCompared words PlansCompared: a head, then a line per difference.
func plansCompared(n Note) string {
	differ, _ := n.Args["differ"].([]string)
	lines := n.N("lines")
	head := "plans: identical"
	switch {
	case len(differ) > 0 && len(lines) > 0:
		head = fmt.Sprintf("plans: %s ran a different plan than %s; what differs, field by field:", strings.Join(differ, ", "), n.S("ref"))
	case len(differ) > 0:
		head = fmt.Sprintf("plans: %s ran a different plan than %s (see each run's plan)", strings.Join(differ, ", "), n.S("ref"))
	case len(lines) > 0:
		head = fmt.Sprintf("plans: identical; the hosts differ from %s's:", n.S("ref"))
	}
	return strings.Join(append([]string{head}, List(lines).Strings()...), "\n")
}
