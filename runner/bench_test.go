package runner

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"
)

// BenchmarkGroups runs one group (CPU 0) and then two groups (CPUs 0 and
// 1) against the built-in target and reports total req/s and requests per
// client CPU-second (the workers' user+system time over their whole life,
// warm-up included, so compare the two cases with each other, not with
// other tools). bench/groups.sh prints them side by side with the ratio.
// KAELOAD_BENCH_DURATION sets the window (default 3s).
func BenchmarkGroups(b *testing.B) {
	dur := 3 * time.Second
	if s := os.Getenv("KAELOAD_BENCH_DURATION"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			b.Fatalf("KAELOAD_BENCH_DURATION: %v", err)
		}
		dur = d
	}
	for _, tc := range []struct {
		name string
		cpus [][]int
	}{
		{"groups=1", [][]int{{0}}},
		{"groups=2", [][]int{{0}, {1}}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var requests uint64
			var window, cpu time.Duration
			for i := 0; i < b.N; i++ {
				p := builtinPlan(dur, tc.cpus...)
				for g := range p.Load.Groups {
					p.Load.Groups[g].Connections = 8
				}
				var mu sync.Mutex
				opts := Options{
					Executable: os.Args[0],
					WorkerArgs: []string{"-test.run=^$"},
					Env:        []string{envWorker + "=1"},
					hooks: hooks{workerExit: func(_ int, st *os.ProcessState) {
						if st != nil {
							mu.Lock()
							cpu += st.UserTime() + st.SystemTime()
							mu.Unlock()
						}
					}},
				}
				run, err := Run(context.Background(), p, opts)
				if err != nil {
					b.Fatal(err)
				}
				total := run.Variants[0].Reps[0].Total
				if n := total.Errors.Total(); n > 0 {
					b.Fatalf("%d errors: %+v", n, total.Errors)
				}
				requests += total.Requests
				window += total.Window.Length()
			}
			b.ReportMetric(float64(requests)/window.Seconds(), "req/s")
			b.ReportMetric(cpu.Seconds()/float64(b.N), "client-cpu-s/op")
			b.ReportMetric(float64(requests)/cpu.Seconds(), "req/client-cpu-s")
		})
	}
}
