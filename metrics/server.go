package metrics

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/runner"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// ScrapeHeader is the header Prometheus sends with every scrape: only such requests count as
// scrapes for the barriers (a person's curl does not).
const ScrapeHeader = "X-Prometheus-Scrape-Timeout-Seconds"

// Bounds on the HTTP side: a scraper that stalls is cut off; a few scrapes at a time are served.
const (
	writeTimeout  = 10 * time.Second
	readTimeout   = 5 * time.Second
	maxInFlight   = 4
	lingerScrapes = 3 // the default linger, in observed scrape intervals
	minLinger     = time.Second
)

// Server serves a run's metrics on /metrics and watches the run as one
// of its outputs (runner.Output). Listen makes one; Close ends it.
type Server struct {
	cfg  plans.Metrics
	ln   net.Listener
	http *http.Server
	log  io.Writer
	done chan struct{}

	snap atomic.Pointer[[]prometheus.Metric] // what a scrape serves

	mu        sync.Mutex
	run       string // the run label
	baseline  string
	name      string
	margin    float64
	groups    int
	windows   []*window // in plan order, then as planned
	byID      map[runner.WindowID]*window
	order     []runner.WindowID // windows in the order they ran
	finals    map[runner.WindowID]time.Time
	published time.Time // when the last snapshot was published
	waited    time.Duration

	inflight atomic.Int32 // requests of /metrics being served

	smu     sync.Mutex
	scrapes []time.Time   // starts of the Prometheus scrapes served, as served
	others  int           // other requests of /metrics served
	served  chan struct{} // closed and replaced at each Prometheus scrape served
}

// Listen binds cfg.Listen and serves /metrics on it until Close; log gets
// the endpoint's notes. An address it cannot bind is an error at once.
func Listen(cfg plans.Metrics, log io.Writer) (*Server, error) {
	if p := plans.ListenProblem(cfg.Listen); p != "" {
		return nil, errors.New(p)
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", cfg.Listen, err)
	}
	if log == nil {
		log = io.Discard
	}
	s := &Server{cfg: cfg, ln: ln, log: log, done: make(chan struct{}), byID: map[runner.WindowID]*window{},
		finals: map[runner.WindowID]time.Time{}, served: make(chan struct{})}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collector{s})
	h := promhttp.HandlerFor(reg, promhttp.HandlerOpts{EnableOpenMetrics: true, MaxRequestsInFlight: maxInFlight, ErrorHandling: promhttp.ContinueOnError})
	mux := http.NewServeMux()
	mux.Handle("/metrics", s.count(h))
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "kaeload: live metrics of the run at /metrics")
	})
	s.http = &http.Server{Handler: mux, ReadHeaderTimeout: readTimeout, ReadTimeout: readTimeout, WriteTimeout: writeTimeout, IdleTimeout: time.Minute}
	s.publishLocked()
	go func() {
		defer close(s.done)
		_ = s.http.Serve(ln)
	}()
	return s, nil
}

// Addr is the address served, with the port bound.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Port is the port bound.
func (s *Server) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// Loopback reports whether the endpoint listens on loopback only (else it
// serves anyone who reaches the machine, without authentication).
func (s *Server) Loopback() bool { return s.ln.Addr().(*net.TCPAddr).IP.IsLoopback() }

// Close stops serving: the listener and every connection.
func (s *Server) Close() error {
	err := s.http.Close()
	<-s.done
	return err
}

// collector hands a scrape the published snapshot: one pointer read, so
// a scrape never waits for the run and the run never waits for a scrape.
type collector struct{ s *Server }

// Describe describes nothing: the series change with the plan (an unchecked collector).
func (collector) Describe(chan<- *prometheus.Desc) {}

// Collect sends the last published snapshot.
func (c collector) Collect(ch chan<- prometheus.Metric) {
	for _, m := range *c.s.snap.Load() {
		ch <- m
	}
}

// count wraps the handler: a scrape served whole is logged with the time it began.
func (s *Server) count(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		began := time.Now()
		s.inflight.Add(1)
		defer s.inflight.Add(-1)
		ew := &errWriter{ResponseWriter: w}
		h.ServeHTTP(ew, r)
		if ew.err != nil || ew.status >= 400 {
			return
		}
		s.smu.Lock()
		defer s.smu.Unlock()
		if r.Header.Get(ScrapeHeader) == "" {
			s.others++
			return
		}
		s.scrapes = append(s.scrapes, began)
		close(s.served)
		s.served = make(chan struct{})
	})
}

// errWriter remembers a failed write and the status sent.
type errWriter struct {
	http.ResponseWriter
	err    error
	status int
}

func (w *errWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *errWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	if err != nil && w.err == nil {
		w.err = err
	}
	return n, err
}

// publishLocked makes the current values what scrapes serve; s.mu held.
func (s *Server) publishLocked() {
	var out []prometheus.Metric
	if old := s.snap.Load(); old != nil {
		out = make([]prometheus.Metric, 0, len(*old))
	}
	bi := "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		bi = info.Main.Version
	}
	out = append(out, prometheus.MustNewConstMetric(famBuildInfo.desc, prometheus.GaugeValue, 1, bi, runtime.Version()))
	if s.run != "" {
		out = append(out, prometheus.MustNewConstMetric(famRunInfo.desc, prometheus.GaugeValue, 1, s.run, s.name, s.baseline))
	}
	for _, w := range s.windows {
		out = append(out, w.metrics(s.run)...)
	}
	s.snap.Store(&out)
	s.published = time.Now()
}

// Start takes the run's identity and returns the endpoint, for the record's header.
func (s *Server) Start(r *results.Run, p *plans.Plan) ([]results.Change, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.run, s.baseline = runLabels(r)
	s.name, s.margin = r.Name, r.Equivalence
	s.groups = len(p.Load.Groups)
	s.publishLocked()
	return []results.Change{{Type: results.ChangeMetrics, Metrics: &results.Metrics{Listen: s.cfg.Listen, Addr: s.Addr(), Port: s.Port()}}}, nil
}

// Event takes the run's live events: windows planned, about to load, their readings and their ends.
func (s *Server) Event(ctx context.Context, e runner.Event) error {
	switch e.Kind {
	case runner.EventPlanned:
		s.plan(e.Windows)
	case runner.EventLoad:
		return s.beforeLoad(ctx, *e.Live)
	case runner.EventReading:
		s.intervalClosed(e.Window, *e.Reading)
	case runner.EventWindowEnded:
		s.windowEnded(e.Window, e.Rep)
	}
	return nil
}

// Stop holds the final values for a scrape and returns the endpoint's record, for run.json.
func (s *Server) Stop(ctx context.Context) []results.Change {
	return []results.Change{{Type: results.ChangeMetrics, Metrics: s.end(ctx)}}
}

// plan creates the windows' series at 0.
func (s *Server) plan(ws []runner.WindowID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.windows)
	for _, id := range ws {
		s.windowLocked(id)
	}
	if len(s.windows) > n {
		s.publishLocked()
	}
}

// windowLocked returns window id, made at 0 where it is new; s.mu held.
func (s *Server) windowLocked(id runner.WindowID) *window {
	if s.byID[id] == nil {
		s.byID[id] = newWindow(id, s.groups)
		s.windows = append(s.windows, s.byID[id])
	}
	return s.byID[id]
}

// beforeLoad completes w's series at 0 and waits, for at most the linger,
// until a scrape read them: before the first load with metrics.wait (an
// error when none comes), else only while a scraper is known.
func (s *Server) beforeLoad(ctx context.Context, lw runner.LiveWindow) error {
	s.mu.Lock()
	s.windowLocked(lw.WindowID).describe(lw)
	s.publishLocked()
	zeros := s.published
	first := len(s.order) == 0
	s.order = append(s.order, lw.WindowID)
	s.mu.Unlock()

	if first && s.cfg.Wait > 0 {
		fmt.Fprintf(s.log, "metrics: waiting up to %s for a Prometheus scrape of %s before the load (metrics.wait)\n", s.cfg.Wait, s.Addr())
		began := time.Now()
		ok := s.waitScrape(ctx, zeros, s.cfg.Wait)
		s.mu.Lock()
		s.waited = time.Since(began)
		s.mu.Unlock()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if !ok {
			return fmt.Errorf("metrics: no Prometheus scrape of http://%s/metrics within %s (metrics.wait, --metrics-wait): no load was sent; check Prometheus's scrape config", s.Addr(), s.cfg.Wait)
		}
		return nil
	}
	if s.scraped() == 0 {
		return nil // nobody scrapes: nothing to wait for
	}
	s.waitScrape(ctx, zeros, s.linger())
	return ctx.Err()
}

// intervalClosed takes a reading of window id; its series change once every group reported.
func (s *Server) intervalClosed(id runner.WindowID, r runner.LiveReading) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.byID[id]
	if w == nil || w.ended {
		return
	}
	if w.add(r) {
		w.applyDue(false)
		s.publishLocked()
	}
}

// windowEnded sets window id's final values from its record (rep nil: what it had).
func (s *Server) windowEnded(id runner.WindowID, rep *results.Rep) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.byID[id]
	if w == nil {
		return
	}
	w.end(rep, s.margin)
	s.publishLocked()
	if rep != nil {
		s.finals[id] = s.published
	}
}

// end waits, at most the linger, until a Prometheus scrape begun after the last values were
// published has been served, and returns the endpoint's record.
func (s *Server) end(ctx context.Context) *results.Metrics {
	s.mu.Lock()
	last := s.published
	s.mu.Unlock()
	linger := s.linger()
	s.waitScrape(ctx, last, linger)

	s.mu.Lock()
	defer s.mu.Unlock()
	s.smu.Lock()
	defer s.smu.Unlock()
	m := &results.Metrics{Listen: s.cfg.Listen, Addr: s.Addr(), Port: s.Port(), Scrapes: len(s.scrapes), Others: s.others,
		ScrapeInterval: s.intervalLocked(), Linger: linger, Waited: s.waited}
	for _, id := range s.order {
		f, ok := s.finals[id]
		if !ok {
			continue // it did not complete: not in run.json
		}
		m.Windows = append(m.Windows, results.MetricsFinal{Variant: id.Variant, Rep: id.Rep, Final: f, Scraped: s.firstAfterLocked(f)})
	}
	m.End = results.MetricsFinal{Final: last, Scraped: s.firstAfterLocked(last)}
	if !m.End.WasScraped() {
		fmt.Fprintf(s.log, "metrics: no Prometheus scrape read the final values within the linger (%s)\n", linger)
	}
	return m
}

// waitScrape reports whether a Prometheus scrape begun after t was served within max.
func (s *Server) waitScrape(ctx context.Context, t time.Time, max time.Duration) bool {
	timer := time.NewTimer(max)
	defer timer.Stop()
	for {
		s.smu.Lock()
		ok := !s.firstAfterLocked(t).IsZero()
		ch := s.served
		s.smu.Unlock()
		if ok {
			return true
		}
		select {
		case <-ch:
		case <-timer.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// firstAfterLocked is the start of the first scrape begun after t (zero: none); s.smu held.
func (s *Server) firstAfterLocked(t time.Time) time.Time {
	var first time.Time
	for _, b := range s.scrapes {
		if b.After(t) && (first.IsZero() || b.Before(first)) {
			first = b
		}
	}
	return first
}

func (s *Server) scraped() int {
	s.smu.Lock()
	defer s.smu.Unlock()
	return len(s.scrapes)
}

// intervalLocked is the median gap between the scrapes' starts (0: fewer than two); s.smu held.
func (s *Server) intervalLocked() time.Duration {
	if len(s.scrapes) < 2 {
		return 0
	}
	starts := slices.Clone(s.scrapes)
	slices.SortFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
	gaps := make([]time.Duration, len(starts)-1)
	for i := range gaps {
		gaps[i] = starts[i+1].Sub(starts[i])
	}
	slices.Sort(gaps)
	return gaps[len(gaps)/2]
}

// linger is how long the end waits for a scrape of the final values: the configured one, else
// lingerScrapes observed intervals (at least minLinger), else plans.DefaultLinger.
func (s *Server) linger() time.Duration {
	if s.cfg.Linger > 0 {
		return s.cfg.Linger
	}
	s.smu.Lock()
	iv := s.intervalLocked()
	s.smu.Unlock()
	if iv <= 0 {
		return plans.DefaultLinger
	}
	return max(lingerScrapes*iv, minLinger)
}

// String describes the endpoint for the run's log.
func (s *Server) String() string { return "http://" + s.Addr() + "/metrics" }

var _ runner.Output = (*Server)(nil)
