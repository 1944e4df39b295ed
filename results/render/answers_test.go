package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/results/analysis"
	"github.com/kaeload/kaeload/results/diagnosis"
	"github.com/kaeload/kaeload/results/format"
	"github.com/kaeload/kaeload/results/htmlreport"
	"github.com/kaeload/kaeload/results/internal/fixture"
	"github.com/kaeload/kaeload/results/measure"
	"github.com/kaeload/kaeload/results/tables"
	"html"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// answerOutputs are the outputs that must show every answer of the
// report model: each renders one Report.
var answerOutputs = []struct {
	name  string
	write func(io.Writer, *analysis.Report) error
}{
	{"text", WriteText},
	{"md", WriteMarkdown},
	{"csv", WriteCSV},
	{"json", WriteSummaryJSON},
	{"compare", func(w io.Writer, m *analysis.Report) error { // the run against itself
		rr, err := analysis.AnalyzeRuns([]*results.Run{m.Run, m.Run}, []string{"a", "b"})
		if err != nil {
			return err
		}
		return CompareRuns(w, rr)
	}},
	{"html", func(w io.Writer, m *analysis.Report) error { // report.html's text, as a reader sees it
		var b bytes.Buffer
		if err := htmlreport.Write(&b, m); err != nil {
			return err
		}
		_, err := io.WriteString(w, pageText(b.String()))
		return err
	}},
}

// tag matches an HTML tag (and a comment): pageText drops them.
var tag = regexp.MustCompile(`(?s)<!--.*?-->|<[^>]*>`)

// pageText is the text of an HTML page as a browser shows it, roughly:
// tags dropped, entities unescaped, runs of white space made one space
// (the tables' cells then read "a b c"). The page's <style> and SVG
// markup go with their tags; chart labels stay.
func pageText(page string) string {
	page = regexp.MustCompile(`(?s)<style.*?</style>`).ReplaceAllString(page, " ")
	return strings.Join(strings.Fields(html.UnescapeString(tag.ReplaceAllString(page, " "))), " ")
}

// answer is one answer of the model and how the outputs show it.
type answer struct {
	// run is a fixture that has the answer.
	run func() *results.Run
	// want gives, per output, strings its rendering of run must contain
	// (they come from the model, formatted as that output formats them).
	want map[string]func(m *analysis.Report) []string
	// without names the outputs that leave the answer out, and why.
	without map[string]string
}

// answers lists every exported field of Report and RunSummary (or
// notAnswers says why it is none) and the answers among VariantSummary's: TestEveryAnswerInEveryOutput fails for a field that
// is not here, and for an output that neither shows it nor says why not.
var answers = map[string]answer{
	"Report.Summary": {run: fixture.CompareRun, want: forOutputs("text md compare html", func(m *analysis.Report) []string {
		return []string{format.Rate(m.Summary.Variants[1].Stats.Mean)}
	}, "csv", func(m *analysis.Report) []string { return []string{csvF3(m.Summary.Variants[1].Stats.Mean)} },
		"json", func(m *analysis.Report) []string {
			return []string{fmt.Sprintf(`"mean": %v`, m.Summary.Variants[1].Stats.Mean)}
		})},
	"Report.Search": {run: fixture.SearchRun, want: forOutputs("text compare html", func(m *analysis.Report) []string { return m.Search.Lines().Strings()[1:2] },
		"md", func(m *analysis.Report) []string { return []string{mdEscape(m.Search.Lines()[1].String())} },
		"json", func(m *analysis.Report) []string {
			return []string{`"best": "` + m.Search.Points[m.Search.Best].Value + `"`, `"plateau_low": "20"`}
		},
		"csv", func(m *analysis.Report) []string {
			b := m.Search.Points[m.Search.Best]
			return []string{",search_best,search_score_req_per_s", ",true," + csvF3(b.Stats.Mean)}
		})},
	"Report.Capacities": {run: fixture.CapacityRun, want: forOutputs("text md compare html", func(m *analysis.Report) []string {
		return []string{format.Count(uint64(m.Capacities[1].Knee)) + "/s"}
	}, "json", func(m *analysis.Report) []string { return []string{fmt.Sprintf(`"knee": %v`, m.Capacities[1].Knee)} },
		"csv", func(m *analysis.Report) []string {
			c := m.Capacities[1]
			return []string{",capacity_knee_per_s,capacity_fail_per_s", "," + csvF3(c.Knee) + "," + csvF3(c.Fail) + "\n"}
		})},
	"Report.CapacityLine": {run: fixture.CapacityRun, want: forOutputs("text compare json html", func(m *analysis.Report) []string { return []string{m.CapacityLine.String()} },
		"md", func(m *analysis.Report) []string { return []string{mdEscape(upperFirst(m.CapacityLine.String()))} }),
		without: map[string]string{"csv": "the line is words; its figures are the capacity_knee_per_s and capacity_fail_per_s columns"}},
	"Report.Thresholds": {run: fixture.ThresholdRun, want: forOutputs("text md csv json html", func(m *analysis.Report) []string {
		return []string{m.Thresholds[0].Threshold.Expr}
	}), without: map[string]string{"compare": "a comparison of runs checks no thresholds"}},
	"Report.Crossed": {run: fixture.ThresholdRun, want: forOutputs("text", func(m *analysis.Report) []string { return []string{"THRESHOLD CROSSED: " + m.Crossed[0].String()} },
		"md", func(m *analysis.Report) []string {
			return []string{"**THRESHOLD CROSSED:** " + mdEscape(m.Crossed[0].String())}
		},
		"csv", func(m *analysis.Report) []string { return []string{"crossed: "} },
		"json", func(m *analysis.Report) []string { return []string{`"thresholds_passed": false`} },
		"html", func(m *analysis.Report) []string {
			return []string{fmt.Sprintf("THRESHOLD CROSSED: %d of %d checks failed", len(m.Crossed), len(m.Thresholds)), m.Crossed[0].String()}
		}),
		without: map[string]string{"compare": "a comparison of runs checks no thresholds"}},
	"Report.Failed": {run: failedRun, want: forOutputs("text md json html", func(m *analysis.Report) []string { return m.Failed },
		"csv", func(m *analysis.Report) []string { return []string{"1 of 3 reps"} }),
		without: map[string]string{"compare": "it compares figures; a failed repetition's warning is counted in the runs table"}},
	"Report.NotMeasured": {run: fixture.NotMeasuredRun, want: forOutputs("text html", func(m *analysis.Report) []string { return m.NotMeasured.Strings() },
		"json", func(m *analysis.Report) []string { return []string{jsonText(m.Run.NotMeasured[0].Reason)} },
		"md", func(m *analysis.Report) []string { return []string{mdEscape(m.NotMeasured[0].String())} },
		"csv", func(m *analysis.Report) []string { return []string{"not measured: "} }),
		without: map[string]string{"compare": "it lines up measured variants only"}},
	"Report.Partial": {run: partialRun, want: forOutputs("text html", func(m *analysis.Report) []string { return m.Partial.Strings() },
		"md", func(m *analysis.Report) []string { return []string{"**PARTIAL:** " + mdEscape(m.Partial[0].String())} },
		"json", func(m *analysis.Report) []string { return []string{`"partial": [`, jsonText(m.Partial[0].String())} },
		"csv", func(m *analysis.Report) []string {
			return []string{"\nbaseline,,4 partial,2.001,100000,", m.Partial[0].String()}
		}),
		without: map[string]string{"compare": "it lines up measured repetitions; a partial window is in none"}},
	"Report.Excluded": {run: excludedRun, want: forOutputs("text html", func(m *analysis.Report) []string { return m.Excluded.Strings() },
		"md", func(m *analysis.Report) []string {
			return []string{"**EXCLUDED:** " + mdEscape(m.Excluded[0].String())}
		},
		"json", func(m *analysis.Report) []string { return []string{`"excluded": [`, jsonText(m.Excluded[0].String())} },
		"csv", func(m *analysis.Report) []string { return []string{"\nkae,,2 excluded,2.001,", m.Excluded[0].String()} }),
		without: map[string]string{"compare": "it lines up the windows in the statistics; an excluded one is in none"}},
	"Report.Warnings": {run: laterRun, want: forOutputs("text html", func(m *analysis.Report) []string { return m.Warnings },
		"json", func(m *analysis.Report) []string { return []string{jsonText(m.Warnings[0])} },
		"md", func(m *analysis.Report) []string { return []string{mdEscape(m.Warnings[0])} },
		"compare", func(m *analysis.Report) []string { return []string{"1 warning"} }),
		without: map[string]string{"csv": "rows are figures; the warnings' cases have their columns (client_bound, other_load, failed)"}},
	"Report.Hints": {run: hintRun, want: forOutputs("text html", func(m *analysis.Report) []string { return m.Hints.Strings() },
		"json", func(m *analysis.Report) []string { return []string{jsonText(m.Hints[0].String())} },
		"md", func(m *analysis.Report) []string { return []string{mdEscape(m.Hints[0].String())} }),
		without: map[string]string{"csv": "rows are figures", "compare": "it compares figures"}},
	"Report.Speed": {run: fixture.SpeedRun, want: forOutputs("text md html", func(m *analysis.Report) []string { return []string{m.Speed.Commands[0]} },
		"compare", func(m *analysis.Report) []string {
			return []string{"== b: crypto speed", tables.Speed(m.Speed).Rows[0][len(m.Speed.Variants)+2], format.Message(m.Speed.Failures[0].Error)}
		},
		"json", func(m *analysis.Report) []string {
			row := &m.Speed.Rows[0]
			d, _ := m.Speed.Delta(row, 1)
			return []string{jsonText(m.Speed.Commands[0]), fmt.Sprintf(`"%s": %v`, m.Speed.Variants[1], row.Values[1]),
				fmt.Sprintf(`"delta_pct": {%s"%s": %v`, "\n          ", m.Speed.Variants[1], d), jsonText(m.Speed.Failures[0].Error)}
		}),
		without: map[string]string{"csv": "speed.csv is a file of its own (WriteSpeedCSV)"}},
	"Report.Profile": {run: fixture.ProfileRun, want: forOutputs("text html", func(m *analysis.Report) []string {
		t := m.Profile
		bound, delta, check := profileWords(t)
		return []string{t.OnLine().String(), bound, delta, check, t.Variants[2].Missing.String(), "libcrypto.so.3", t.Variants[0].Pprof}
	}, "md", func(m *analysis.Report) []string {
		t := m.Profile
		bound, delta, _ := profileWords(t)
		return []string{mdEscape(t.OnLine().String()), mdEscape(bound), mdEscape(delta),
			mdEscape(t.Variants[2].Missing.String())}
	}, "json", func(m *analysis.Report) []string {
		return []string{`"server_profile": {`, `"name": "libcrypto.so.3",` + "\n            \"share\": 0.667", `"reason": "profile not available: perf not found"`,
			`"pprof": "profile-baseline.pb.gz"`}
	}), without: map[string]string{"csv": "profile.csv is a file of its own (WriteProfileCSV)",
		"compare": "it lines up rates; each run's own report shows its server profile"}},
	"Report.Reps": {run: failedRun, want: forOutputs("text html", func(m *analysis.Report) []string { return []string{m.Reps[1][0].Failed.String()} },
		"md", func(m *analysis.Report) []string { return []string{mdEscape(m.Reps[1][0].Failed.String())} },
		"csv", func(m *analysis.Report) []string { return []string{m.Run.Variants[1].Reps[0].Failed.Text} },
		"json", func(m *analysis.Report) []string { return []string{jsonText(m.Reps[1][0].Failed.String())} }),
		without: map[string]string{"compare": "it compares figures; a failed repetition's warning is counted in the runs table"}},
	"Report.ClientBoundGroups": {run: fixture.OtherLoadRun, without: map[string]string{
		"text": "each repetition's CLIENT-BOUND line (Report.Reps) names its groups; the list over the run is report.html's banner",
		"md":   "each repetition's note (Report.Reps) names its groups", "csv": "the client_bound column, per repetition",
		"json": "the warnings name the groups", "compare": "it compares figures"},
		want: forOutputs("html", func(m *analysis.Report) []string { return m.ClientBoundGroups[:1].Strings() })},
	"VariantSummary.Missed": {run: fixture.CapacityRun, want: forOutputs("csv", func(m *analysis.Report) []string {
		v := m.Summary.Variants[1]
		return []string{fmt.Sprintf(",%d,%d,", v.Scheduled, v.Missed)}
	}, "json", func(m *analysis.Report) []string { return []string{`"scheduled": `} }, "text", func(m *analysis.Report) []string { return []string{"missed"} },
		"html", func(m *analysis.Report) []string {
			v := m.Summary.Variants[1]
			return []string{fmt.Sprintf("%s %s %s", v.Name, format.Count(v.Scheduled), format.Count(v.Missed)), m.Reps[1][0].OpenLoop.String()}
		},
		"md", func(m *analysis.Report) []string {
			t := &m.Run.Variants[1].Reps[0].Total
			return []string{fmt.Sprintf("missed %s of %s starts", format.Count(t.Missed), format.Count(t.Scheduled))}
		},
		"compare", func(m *analysis.Report) []string {
			v := m.Summary.Variants[1]
			return []string{"starts missed", format.Count(v.Missed) + " of " + format.Count(v.Scheduled)}
		}),
	},
	"VariantSummary.Intended": {run: fixture.CapacityRun, want: forOutputs("csv", func(m *analysis.Report) []string {
		return []string{csvMs(m.Summary.Variants[1].Intended, 99)}
	}, "json", func(m *analysis.Report) []string { return []string{`"intended_p99": `} },
		"text md", func(m *analysis.Report) []string { return []string{"p99 from intended ms"} },
		"html", func(m *analysis.Report) []string {
			v := m.Summary.Variants[1]
			return []string{fmt.Sprintf("%s %s %s %s %s", format.Count(v.Scheduled), format.Count(v.Missed),
				format.QuantileMillis(v.Intended, 50), format.QuantileMillis(v.Intended, 99), format.QuantileMillis(v.Intended, 99.9))}
		},
		"compare", func(m *analysis.Report) []string {
			v := m.Summary.Variants[1]
			return []string{"p99 from intended ms", format.QuantileMillis(v.Intended, 99)}
		}),
	},
	"VariantSummary.ClientCPUSeconds": {run: laterRun, want: forOutputs("text md compare html", func(m *analysis.Report) []string {
		us, _ := m.Summary.Variants[1].ClientMicrosPerRequest()
		return []string{format.Micros(us)}
	}, "csv", func(m *analysis.Report) []string {
		us, _ := m.Summary.Variants[1].ClientMicrosPerRequest()
		return []string{csvF3(us)}
	}, "json", func(m *analysis.Report) []string { return []string{`"client_us_per_request": `} })},
	"RunSummary.Sweeps": {run: fixture.SweepRun, want: forOutputs("text html", func(m *analysis.Report) []string {
		return []string{tables.PlateauLine(m.Summary, &m.Summary.Sweeps[0])}
	}, "md", func(m *analysis.Report) []string {
		return []string{mdEscape(upperFirst(tables.PlateauLine(m.Summary, &m.Summary.Sweeps[0])))}
	}, "json", func(m *analysis.Report) []string {
		sw := &m.Summary.Sweeps[0]
		return []string{`"best": "33"`, `"plateau": [` + "\n" + `        "33"`, `"verdict": "` + jsonText(tables.PlateauLine(m.Summary, sw)) + `"`}
	}, "csv", func(m *analysis.Report) []string { return []string{",plateau"} }),
		without: map[string]string{"compare": "it lines up variants across runs; each run's own report gives its sweeps' verdicts"}},
	"RunSummary.Drift": {run: fixture.SweepRun, want: forOutputs("text md html", func(m *analysis.Report) []string {
		t, _, _ := tables.Drift(m.Summary)
		last := t.Rows[len(t.Rows)-1]
		return []string{"round effect", last[1], last[3]}
	}, "json", func(m *analysis.Report) []string {
		d := &m.Summary.Drift
		return []string{`"drift": {`, `"rounds": 3`, fmt.Sprintf(`"trend_pct": %v`, d.TrendPct), fmt.Sprintf("%v", d.RoundPct[1])}
	}),
		without: map[string]string{"csv": "each repetition's row gives its rep (the round) and its rate; the round effects are the reports' table",
			"compare": "it compares runs; each run's own report gives its drift"}},
	"VariantSummary.Probes": {run: fixture.SweepRun, want: forOutputs("text", func(m *analysis.Report) []string {
		t, _ := tables.Probes(m.Summary)
		return []string{"kae_ops", t.Rows[len(t.Rows)-1][4]}
	}, "md", func(m *analysis.Report) []string {
		t, _ := tables.Probes(m.Summary)
		return []string{mdEscape("kae_ops"), t.Rows[len(t.Rows)-1][4]}
	}, "html", func(m *analysis.Report) []string { return []string{"kae_ops", "No such file"} },
		"csv", func(m *analysis.Report) []string { return []string{"probe.kae_ops.per_request"} },
		"json", func(m *analysis.Report) []string {
			p := m.Summary.Variants[4].Probes[0]
			return []string{`"probes": [`, fmt.Sprintf(`"per_request": %v`, *p.PerRequest), `"failed": 1`}
		}),
		without: map[string]string{"compare": "it compares rates across runs; each run's own report gives its probes"}},
	"VariantSummary.ServerSharedReps": {run: fixture.ServerCPUsRun, want: forOutputs("text md compare", func(m *analysis.Report) []string {
		return []string{"SHARED CPUS: client and server share CPU 0 (3 of 3 reps)", "SHARED CPUS: OTHER LOAD on the server's CPU 0, busiest sh (pid 5151, nice 10) (3 of 3 reps)"}
	}, "csv", func(m *analysis.Report) []string {
		return []string{",client and server share CPU 0 (3 of 3 reps),", `,3 of 3 reps,"OTHER LOAD on the server's CPU 0, busiest sh (pid 5151, nice 10) (3 of 3 reps)",`}
	}, "json", func(m *analysis.Report) []string {
		return []string{`"shared_reps": 3`, `"shared_in_most": true`, `"other_load_reps": 3`, jsonText(m.Reps[3][0].SharedCPUs.String())}
	}, "html", func(m *analysis.Report) []string {
		return []string{m.Reps[3][0].SharedCPUs.String(), m.Reps[1][2].ServerOtherLoad.String()}
	})},
	"VariantSummary.NotSaturatedReps": {run: fixture.ServerCPUsRun, want: forOutputs("text md compare", func(m *analysis.Report) []string {
		return []string{"NOT SATURATED (3 of 3 reps)"}
	}, "csv", func(m *analysis.Report) []string {
		s := m.Reps[2][0].Saturation
		return []string{",true," + csvF3(s.LittleRate) + ",", ",3 of 3 reps,"}
	}, "json", func(m *analysis.Report) []string {
		return []string{`"not_saturated_reps": 3`, `"not_saturated": true`, jsonText(m.Reps[2][0].NotSaturated.String())}
	}, "html", func(m *analysis.Report) []string { return []string{m.Reps[2][1].NotSaturated.String()} })},
	"Report.Metrics": {run: metricsRun, want: forOutputs("text html", func(m *analysis.Report) []string { return []string{m.Metrics.String(), "NOT scraped"} },
		"md", func(m *analysis.Report) []string { return []string{mdEscape(m.Metrics.String())} },
		"json", func(m *analysis.Report) []string {
			return []string{`"metrics": "` + jsonText(m.Metrics.String()) + `"`, `"metrics_final_scraped": false`}
		}),
		without: map[string]string{"csv": "rows are figures; whether Prometheus read the final values is a line of the run",
			"compare": "it compares figures across runs; each run's report says whether its final values were scraped"}},
	"VariantSummary.ServerCPUSeconds": {run: fixture.SweepRun, want: forOutputs("text md html compare", func(m *analysis.Report) []string {
		x, _ := m.Summary.Variants[4].RequestsPerServerCPU()
		return []string{"req/server cpu-s", format.Rate(x)}
	}, "csv", func(m *analysis.Report) []string {
		x, _ := m.Summary.Variants[4].RequestsPerServerCPU()
		return []string{"req_per_server_cpu_s", csvF3(x)}
	}, "json", func(m *analysis.Report) []string {
		x, _ := m.Summary.Variants[4].RequestsPerServerCPU()
		return []string{fmt.Sprintf(`"req_per_server_cpu_s": %v`, x)}
	})},
	"VariantSummary.ServerCPUComparison": {run: fixture.SweepRun, want: forOutputs("text html", func(m *analysis.Report) []string {
		return []string{"Δ req/server cpu-s", serverCPUDelta(m)}
	}, "md", func(m *analysis.Report) []string {
		return []string{"Δ req/server cpu-s", mdEscape(serverCPUDelta(m))}
	}, "csv", func(m *analysis.Report) []string {
		c := m.Summary.Variants[4].ServerCPUComparison
		return []string{"server_cpu_delta_pct", csvF3(c.DeltaPct) + "," + csvG(c.PValue) + "," + csvG(c.PAdjusted) + ",true,4"}
	}, "json", func(m *analysis.Report) []string {
		c := m.Summary.Variants[4].ServerCPUComparison
		return []string{`"server_cpu_comparison": {`, fmt.Sprintf(`"delta_pct": %v`, c.DeltaPct)}
	}), without: map[string]string{"compare": "it compares runs by req/s; each run's own report compares its variants' server cost"}},
	"VariantSummary.ServerCPUStats": {run: fixture.SweepRun, want: forOutputs("html", func(m *analysis.Report) []string {
		return []string{"95 % CI (per repetition)", measure.CICell(m.Summary.Variants[4].ServerCPUStats)}
	}, "csv", func(m *analysis.Report) []string {
		st := m.Summary.Variants[4].ServerCPUStats
		return []string{"server_cpu_ci95_low", csvF3(st.Mean) + "," + csvF3(st.CI95Low) + "," + csvF3(st.CI95High)}
	}, "json", func(m *analysis.Report) []string {
		return []string{`"server_cpu_req_per_cpu_s": {`, fmt.Sprintf(`"ci95_low": %v`, m.Summary.Variants[4].ServerCPUStats.CI95Low)}
	}), without: map[string]string{"text": "its table shows the pooled req/server cpu-s and the comparison; the per-repetition interval is in the CSV, JSON and HTML",
		"md": "as text", "compare": "it compares runs by req/s"}},
}

// timelineAnswers are the answers of a repetition's timeline
// (RepReport.Timeline, a diagnosis.Repetition), by field.
// noTimelineCompare is why compare leaves a repetition's timeline out.
const noTimelineCompare = "it compares figures across runs, not what happened inside their windows"

var timelineAnswers = map[string]answer{
	"Report.Diagnoses": {run: fixture.DiagnosedRun, want: forOutputs("text", func(m *analysis.Report) []string {
		d := &m.Diagnoses[0]
		return []string{"DIAGNOSIS: " + tables.DiagnosisTitle(d) + ": " + d.Cause.String(), d.Fix.String()}
	}, "md", func(m *analysis.Report) []string {
		return []string{mdEscape(m.Diagnoses[0].Figure), mdEscape(m.Diagnoses[1].Consequence.String())}
	}, "csv", func(m *analysis.Report) []string {
		return []string{diagnosis.RuleAcceptQueue + ";" + diagnosis.RuleStalls}
	},
		"json", func(m *analysis.Report) []string {
			return []string{jsonText(m.Diagnoses[0].Consequence.String()), jsonText(m.Diagnoses[1].Fix.String())}
		}, "html", func(m *analysis.Report) []string {
			return []string{"DIAGNOSED", tables.DiagnosisTitle(&m.Diagnoses[0]) + ": " + m.Diagnoses[0].Cause.String(), tables.DiagnosisTitle(&m.Diagnoses[1]) + ": " + m.Diagnoses[1].Cause.String()}
		}),
		without: map[string]string{"compare": "it compares figures across runs; each run's report names its diagnoses"}},
	"Timeline.NoTimeline": {run: fixture.CompareRun, want: forOutputs("text", func(*analysis.Report) []string { return []string{tables.NoTimeline} },
		"md csv", func(*analysis.Report) []string { return []string{"no timeline"} },
		"json", func(*analysis.Report) []string { return []string{`"no_timeline": true`} },
		"html", func(*analysis.Report) []string { return []string{"No timeline recorded"} }),
		without: map[string]string{"compare": noTimelineCompare}},
	"Timeline.Interval": {run: fixture.DiagnosedRun, want: forOutputs("text", func(*analysis.Report) []string { return []string{"rate by second"} },
		"json", func(*analysis.Report) []string { return []string{`"interval_s": 1`} },
		"html", func(*analysis.Report) []string { return []string{"rate by second", "in intervals of 1 s"} }),
		without: map[string]string{"compare": noTimelineCompare, "md": "the column says by interval", "csv": "the rate columns are per second whatever the interval"}},
	"Timeline.Range": {run: fixture.DiagnosedRun, want: forOutputs("text html", func(m *analysis.Report) []string {
		return []string{tables.RangeWords(&m.Reps[0][0].Timeline)}
	}, "md", func(m *analysis.Report) []string {
		r := m.Reps[0][0].Timeline.Range
		return []string{format.Rate(r.Min) + " / " + format.Rate(r.Median) + " / " + format.Rate(r.Max)}
	},
		"csv", func(m *analysis.Report) []string {
			r := m.Reps[0][0].Timeline.Range
			return []string{csvF3(r.Min) + "," + csvF3(r.Median) + "," + csvF3(r.Max)}
		}, "json", func(m *analysis.Report) []string {
			return []string{fmt.Sprintf(`"median": %v`, m.Reps[0][0].Timeline.Range.Median)}
		}),
		without: map[string]string{"compare": noTimelineCompare}},
	"Timeline.Stalls": {run: fixture.DiagnosedRun, want: forOutputs("text html", func(m *analysis.Report) []string {
		return []string{tables.StallWords(&m.Reps[0][0].Timeline)}
	}, "md", func(m *analysis.Report) []string { return []string{measure.StallsCell(&m.Reps[0][0].Timeline)} },
		"csv", func(*analysis.Report) []string { return []string{",1,3.0-5.0,"} },
		"json", func(*analysis.Report) []string { return []string{`"start_s": 3,`, `"end_s": 5,`} }),
		without: map[string]string{"compare": noTimelineCompare}},
	"Timeline.StallsJudged": {run: shortRun, want: forOutputs("text html", func(m *analysis.Report) []string {
		return []string{"not judged: " + m.Reps[0][0].Timeline.StallsUnjudged()}
	}, "md", func(*analysis.Report) []string { return []string{"| not judged |"} },
		"json", func(*analysis.Report) []string { return []string{`"not_judged": [`} }),
		without: map[string]string{"compare": noTimelineCompare, "csv": "the stalls cell is empty"}},
	"Timeline.ListenOverflows": {run: fixture.DiagnosedRun, want: forOutputs("text html", func(*analysis.Report) []string { return []string{"ListenOverflows +400"} },
		"csv", func(*analysis.Report) []string { return []string{",400," + diagnosis.RuleAcceptQueue} },
		"json", func(*analysis.Report) []string { return []string{`"listen_overflows": 400`} }),
		without: map[string]string{"compare": noTimelineCompare, "md": "the accept-queue diagnosis names them (Report.Diagnoses)"}},
	"Report.HostOnly": {run: fixture.ForeignOverflowRun, want: forOutputs("text md", func(m *analysis.Report) []string {
		return []string{tables.HostOnlyLabel, "ListenOverflows +300", diagnosis.NotTheRun}
	}, "csv", func(*analysis.Report) []string { return []string{",0,," + diagnosis.RuleAcceptQueue + ","} },
		"json", func(m *analysis.Report) []string { return []string{jsonText(m.HostOnly[0].Line())} },
		"html", func(m *analysis.Report) []string { return []string{m.HostOnly[0].Line()} }),
		without: map[string]string{"compare": noTimelineCompare}},
	"Timeline.HostOnly": {run: fixture.ForeignOverflowRun, want: forOutputs("text html", func(m *analysis.Report) []string {
		h := &m.Reps[0][0].Timeline.HostOnly[0]
		return []string{"not the run's", h.Title + ": " + h.Line()}
	}, "json", func(*analysis.Report) []string {
		return []string{`"not_attributable": [`, `"rule": "accept_queue_overflow"`}
	},
		"csv", func(*analysis.Report) []string { return []string{"," + diagnosis.RuleAcceptQueue + ","} }),
		without: map[string]string{"compare": noTimelineCompare, "md": "the banner names each (Report.HostOnly)"}},
	"Timeline.Traffic": {run: fixture.ForeignOverflowRun, want: forOutputs("text html", func(m *analysis.Report) []string {
		return []string{"other traffic", m.Reps[0][0].Timeline.Traffic[0].Words()}
	}, "json", func(*analysis.Report) []string { return []string{`"counter": "ActiveOpens"`, `"other": 600`} },
		"csv", func(*analysis.Report) []string { return []string{",600@local"} }),
		without: map[string]string{"compare": noTimelineCompare, "md": "per-host counters are in the text report and the JSON summary"}},
	"Timeline.Listener": {run: fixture.ForeignOverflowRun, want: forOutputs("text html", func(m *analysis.Report) []string {
		return []string{"listener", m.Reps[0][0].Timeline.Listener.Words()}
	}, "json", func(*analysis.Report) []string { return []string{`"listener": {`, `"port": 8443`} }),
		without: map[string]string{"compare": noTimelineCompare, "md": "per-host counters are in the text report and the JSON summary",
			"csv": "the listen_overflows column holds its drops"}},
	"Timeline.Hosts": {run: fixture.DiagnosedRun, want: forOutputs("text html", func(m *analysis.Report) []string {
		return []string{"tcp local", tables.TCPWords(&m.Reps[0][0].Timeline.Hosts[0])}
	}, "json", func(*analysis.Report) []string { return []string{`"PassiveOpens": 10000`, `"shared": true`} }),
		without: map[string]string{"compare": noTimelineCompare, "md": "per-host counters are in the text report and the JSON summary; the diagnoses name those that matter",
			"csv": "the listen_overflows column; the other counters are in the JSON summary"}},
	"Timeline.Diagnoses": {run: fixture.DiagnosedRun, want: forOutputs("text", func(m *analysis.Report) []string {
		d := &m.Reps[0][0].Timeline.Diagnoses[1]
		return []string{"DIAGNOSIS " + d.Title + "\n", d.Figure}
	}, "md", func(m *analysis.Report) []string {
		return []string{"### " + mdEscape(tables.DiagnosisTitle(&m.Reps[0][0].Timeline.Diagnoses[1]))}
	},
		"csv", func(*analysis.Report) []string { return []string{diagnosis.RuleStalls} },
		"json", func(*analysis.Report) []string { return []string{`"rule": "stalls"`, `"title": "stalls"`} },
		"html", func(m *analysis.Report) []string {
			d := &m.Reps[0][0].Timeline.Diagnoses[1]
			return []string{"DIAGNOSIS: " + d.Title, d.Figure, d.Consequence.String()}
		}),
		without: map[string]string{"compare": noTimelineCompare}},
	"Timeline.Unjudged": {run: shortRun, want: forOutputs("text html", func(m *analysis.Report) []string { return []string{m.Reps[0][0].Timeline.Unjudged[1].String()} },
		"json", func(m *analysis.Report) []string {
			return []string{jsonText(m.Reps[0][0].Timeline.Unjudged[1].String())}
		}),
		without: map[string]string{"compare": noTimelineCompare, "md": "the stalls column says not judged; the rest is in the text report", "csv": "the stalls cell is empty"}},
}

// profileWords are the baseline's bound and self-check and the second variant's Δ, as tables words them;
// a line that is missing gives words no output holds, so the answer test fails.
func profileWords(t *analysis.ProfileTable) (bound, delta, check string) {
	lines, name := tables.ProfileLines(t), t.Variants[0].Name+": "
	line := func(prefix, keep string) string {
		if i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, prefix+keep) }); i >= 0 {
			return strings.TrimPrefix(lines[i], prefix)
		}
		return "no line " + prefix + keep
	}
	rows := tables.Profile(t).Rows
	delta = rows[slices.IndexFunc(rows, func(r []string) bool { return r[0] == "Δ vs baseline" })][2]
	return line(name, "offloading"), delta, line(name+"self-check: ", "")
}

// shortRun is DiagnosedRun cut to two window seconds: too short to judge
// stalls or a trend.
func shortRun() *results.Run {
	r := fixture.DiagnosedRun()
	tl := r.Variants[0].Reps[0].Timeline
	tl.Points = tl.Points[:4]
	for name, d := range tl.Hosts[0].Deltas {
		tl.Hosts[0].Deltas[name] = d[:4]
	}
	return r
}

// notAnswers are the fields the walk skips, and why.
var notAnswers = map[string]string{
	"Report.Run": "the record itself", "Report.Err": "an error, returned by every renderer",
	"Timeline.Variant": "the repetition's identity: its section or row", "Timeline.Rep": "the repetition's identity: its section or row",
	"RunSummary.Baseline":        "an index; BaselineName names it",
	"RunSummary.BaselineName":    "the comparisons' reference, shown with them (Report.Summary)",
	"RunSummary.BaselineMissing": "TestBaselineNotMeasured checks every output for it",
	"RunSummary.Variants":        "walked through the VariantSummary answers",
	"RunSummary.Family":          "every comparison's (stats.Comparison.Family), shown with them (Report.Summary)",
	"RunSummary.Equivalence":     "every comparison's equivalence verdict (Report.Summary)",
	"RunSummary.Warnings":        "part of Report.Warnings",
	"Report.SoftRatio":           "said as the last of Report.Hints and by the catalogue's soft_ratio_model_req_per_s (cmd/kaeload TestSoftRatioPrediction runs it end to end)",
}

// forOutputs builds an answer's want: pairs of space-separated output
// names and the function giving their strings.
func forOutputs(pairs ...any) map[string]func(*analysis.Report) []string {
	out := map[string]func(*analysis.Report) []string{}
	for i := 0; i < len(pairs); i += 2 {
		for _, name := range strings.Fields(pairs[i].(string)) {
			out[name] = pairs[i+1].(func(*analysis.Report) []string)
		}
	}
	return out
}

// answerFields are the fields of the model the walk covers: every
// exported field of Report, and those of VariantSummary the answers
// name (the rest are its building blocks, shown through them).
func answerFields() []string {
	var out []string
	rt := reflect.TypeOf(analysis.Report{})
	for i := range rt.NumField() {
		if f := rt.Field(i); f.IsExported() {
			out = append(out, "Report."+f.Name)
		}
	}
	rt = reflect.TypeOf(analysis.RunSummary{})
	for i := range rt.NumField() {
		if f := rt.Field(i); f.IsExported() {
			out = append(out, "RunSummary."+f.Name)
		}
	}
	rt = reflect.TypeOf(diagnosis.Repetition{})
	for i := range rt.NumField() {
		if f := rt.Field(i); f.IsExported() {
			out = append(out, "Timeline."+f.Name)
		}
	}
	for k := range answers {
		if strings.HasPrefix(k, "VariantSummary.") {
			if _, ok := reflect.TypeOf(analysis.VariantSummary{}).FieldByName(strings.TrimPrefix(k, "VariantSummary.")); !ok {
				out = append(out, k+" (no such field)")
			}
			out = append(out, k)
		}
	}
	return out
}

// TestEveryAnswerInEveryOutput walks the report model's fields: every
// answer must be in every output (text, Markdown, CSV, JSON summary,
// compare) or carry the reason an output leaves it out, and each output
// that shows it must contain its value for a fixture that has it.
func TestEveryAnswerInEveryOutput(t *testing.T) {
	fixture.SingleGoroutine(t)
	for _, field := range answerFields() {
		if _, ok := notAnswers[field]; ok {
			continue
		}
		a, ok := answers[field]
		if !ok {
			a, ok = timelineAnswers[field]
		}
		if !ok {
			t.Errorf("%s: a field of the model that no output is checked for: add it to answers (and to every output)", field)
			continue
		}
		m := analysis.Analyze(a.run())
		for _, o := range answerOutputs {
			want, shows := a.want[o.name]
			why, leaves := a.without[o.name]
			switch {
			case shows && leaves:
				t.Errorf("%s: %s both shows it and leaves it out (%s)", field, o.name, why)
			case !shows && !leaves:
				t.Errorf("%s: %s leaves it out and says not why", field, o.name)
				continue
			case leaves:
				continue
			}
			var b bytes.Buffer
			if err := o.write(&b, m); err != nil {
				t.Fatalf("%s: %s: %v", field, o.name, err)
			}
			flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
			for _, w := range want(m) {
				// The text report wraps the cells below its comparison.
				if !strings.Contains(b.String(), w) && (o.name != "text" || !strings.Contains(flat(b.String()), flat(w))) {
					t.Errorf("%s: the %s output lacks %q:\n%s", field, o.name, w, b.String())
				}
			}
		}
	}
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

// metricsRun is compareRun served live, its final values not scraped.
func metricsRun() *results.Run {
	r := fixture.CompareRun()
	at := time.Date(2026, 12, 2, 13, 45, 0, 0, time.UTC)
	r.Metrics = &results.Metrics{Listen: "127.0.0.1:0", Addr: "127.0.0.1:41234", Port: 41234, Scrapes: 7, ScrapeInterval: time.Second, Linger: 3 * time.Second,
		Windows: []results.MetricsFinal{{Variant: "kae", Final: at, Scraped: at.Add(300 * time.Millisecond)}, {Variant: "kae", Rep: 1, Final: at.Add(time.Minute)}},
		End:     results.MetricsFinal{Final: at.Add(time.Minute)}}
	return r
}

// failedRun is compareRun with one failed repetition of kae.
func failedRun() *results.Run {
	r := fixture.CompareRun()
	r.Variants[1].Reps[0].Failed = &results.Failure{Code: results.FailText, Text: "no request succeeded"}
	return r
}

// hintRun is a run all of whose handshakes negotiated TLS 1.2 while TLS
// 1.3 was offered: it gets a hint.
func hintRun() *results.Run {
	g := results.Group{Index: 0, CPUs: "1"}
	g.Requests, g.Handshakes = 100, 100
	g.Negotiated = map[string]uint64{"TLS1.2 TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 X25519": 100}
	return &results.Run{Name: "hint", Plan: []byte(`{"target":{"tls":{"min_version":771,"max_version":772}}}`),
		Variants: []results.Variant{{Name: "v", Reps: []results.Rep{results.NewRep(0, []results.Group{g})}}}}
}

// partialRun has a fourth window of the baseline that an interrupt cut
// short after 4 s of 10 s.
func partialRun() *results.Run {
	r := fixture.CompareRun()
	p := fixture.Rep(3, 4, 50000, 50000)
	p.PartialOf = 10 * time.Second
	r.Variants[0].Partial = []results.Rep{p}
	return r
}

// excludedRun has a window of kae that the exclude_flagged policy set
// aside as client-bound and measured again.
func excludedRun() *results.Run {
	r := fixture.CompareRun()
	x := fixture.Measured(fixture.Rep(1, 6, 170000, 170400), []float64{0.55, 0.97}, 3.0, 0)
	x.Excluded = "CLIENT-BOUND: group 1 …"
	r.Variants[1].Excluded = []results.Rep{x}
	return r
}

// serverCPUDelta is the Δ req/server cpu-s cell of the sweep's significant variant 4.
func serverCPUDelta(m *analysis.Report) string {
	c := m.Summary.Variants[4].ServerCPUComparison
	return format.Delta(c.DeltaPct) + ", significant (p Holm " + format.PAdjusted(c) + ")"
}
