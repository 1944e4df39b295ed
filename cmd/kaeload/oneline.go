package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/kaeload/kaeload/pinning"
	"github.com/kaeload/kaeload/scenarios"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// oneLine holds the flags of URL mode ("kaeload run URL -c 200 -d 60s"),
// which write the scenario --print-scenario shows, compiled as a file is.
type oneLine struct {
	name, cpus, tlsVersion, ciphers, curves string
	conns, threads                          *int // nil when not given: "-c 0" must be refused, naming the flag
	duration, warmup                        *time.Duration
	groups, perGroup, firstCPU              int
	headers                                 []string
	keepalive, insecure, print, profile     bool
}

// urlModePrefix starts the usage of every flag only URL mode takes.
const urlModePrefix = "URL mode: "

// register adds the one-line flags to fs.
func (o *oneLine) register(fs *flag.FlagSet) {
	fs.StringVar(&o.name, "name", "oneline", "URL mode: the run's name")
	fs.Func("c", "URL mode: `n` concurrent connections per group (default 16)", given(&o.conns, atoi))
	fs.Func("t", "URL mode: `n` threads (GOMAXPROCS) per group (default: its CPU count)", given(&o.threads, atoi))
	fs.Func("d", "URL mode: the measured window, a `duration` (default 10s; -d 60: seconds)", given(&o.duration, parseFlagDuration))
	fs.Func("warmup", "URL mode: load before the window, not counted, a `duration` (default 1s)", given(&o.warmup, parseFlagDuration))
	fs.StringVar(&o.cpus, "cpus", "", `URL mode: one group per CPU list ("0-9,10-19"); "+" joins ranges ("0-3+8-11")`)
	fs.IntVar(&o.groups, "groups", 0, "URL mode: this many groups of --cpus-per-group CPUs from --first-cpu")
	fs.IntVar(&o.perGroup, "cpus-per-group", 0, "URL mode: CPUs per group, with --groups")
	fs.IntVar(&o.firstCPU, "first-cpu", 0, "URL mode: the first group's first CPU, with --groups")
	fs.Func("H", `URL mode: a request header "Name: value" (repeatable)`, appendTo(&o.headers))
	fs.BoolVar(&o.keepalive, "keepalive", false, "URL mode: keep-alive, instead of a new connection per request")
	fs.StringVar(&o.tlsVersion, "tls-version", "", "URL mode: TLS version: 1.2, 1.3 or 1.2-1.3 (default 1.2-1.3)")
	fs.StringVar(&o.ciphers, "ciphers", "", "URL mode: TLS 1.2 cipher suites, comma-separated, OpenSSL or IANA names")
	fs.StringVar(&o.curves, "curves", "", "URL mode: key-exchange groups, comma-separated (default X25519,P-256)")
	fs.BoolVar(&o.insecure, "insecure", false, "URL mode: do not verify the certificate (the default; for curl habits)")
	fs.BoolVar(&o.print, "print-scenario", false, "URL mode: print the scenario the flags make (YAML) and exit")
	fs.BoolVar(&o.profile, "server-profile", false, "URL mode: profile the server on the URL's port here with perf")
}

// given returns a flag's setter that points *p at the value read.
func given[T any](p **T, read func(string) (T, error)) func(string) error {
	return func(s string) error {
		v, err := read(s)
		*p = &v
		return err
	}
}

func atoi(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, errors.New("want a whole number")
	}
	return n, nil
}

// parseFlagDuration reads a Go duration or a non-negative number of seconds.
func parseFlagDuration(s string) (time.Duration, error) {
	if d, err := time.ParseDuration(s); err == nil {
		return d, nil
	}
	if sec, err := strconv.ParseFloat(s, 64); err == nil && sec >= 0 && sec <= float64(math.MaxInt64/int64(time.Second)) && !strings.ContainsAny(s, "eEpPxX_+") {
		return time.Duration(sec * float64(time.Second)), nil
	}
	return 0, fmt.Errorf("want a duration such as 30s or 2m, or a number of seconds such as 60")
}

// isURL reports whether a run's argument is a URL rather than a file.
func isURL(arg string) bool {
	return strings.HasPrefix(arg, "https://") || strings.HasPrefix(arg, "http://")
}

// splitList splits a comma-separated flag value, dropping blanks.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// flagArg writes a flag and its value as typed on a command line.
func flagArg(name, value string) string {
	if value == "" || strings.ContainsAny(value, " \t\"'\\$`*?;&|<>()") {
		value = strconv.Quote(value)
	}
	return name + " " + value
}

// durationArg writes d as a person would: 100h, not 100h0m0s.
func durationArg(d time.Duration) string {
	s := d.String()
	for _, zero := range []string{"m0s", "h0m"} {
		if strings.HasSuffix(s, zero) {
			s = s[:len(s)-2]
		}
	}
	return s
}

// step is one flag's part of the scenario: the flag as typed and its fill.
type step struct {
	arg  string
	fill func(*scenarios.Scenario)
}

// stepList collects the steps of the flags given.
type stepList []step

func (l *stepList) add(given bool, arg string, fill func(*scenarios.Scenario)) {
	if given {
		*l = append(*l, step{arg, fill})
	}
}

// ensure returns *p, made first when it is nil: the section a flag fills.
func ensure[T any](p **T) *T {
	if *p == nil {
		*p = new(T)
	}
	return *p
}

func tlsOf(sc *scenarios.Scenario) *scenarios.TLSSpec { return ensure(&ensure(&sc.Target).TLS) }

// steps lists the given flags' steps in the order their names join in a
// message. Values are Compile's to check, as a file's are.
func (o *oneLine) steps(url string) ([]step, error) {
	l := stepList{
		{flagArg("--name", o.name), func(sc *scenarios.Scenario) { sc.Name = new(o.name) }},
		{"URL", func(sc *scenarios.Scenario) { ensure(&sc.Target).URL = new(url) }},
	}
	for _, h := range o.headers {
		name, value, ok := strings.Cut(h, ":")
		if name = strings.TrimSpace(name); !ok || name == "" {
			return nil, fmt.Errorf("-H %q: want \"Name: value\"", h)
		}
		l.add(true, flagArg("-H", h), func(sc *scenarios.Scenario) {
			t := ensure(&sc.Target)
			t.Headers = append(t.Headers, scenarios.Pair{Key: name, Value: strings.TrimSpace(value)})
		})
	}
	lo, hi := o.tlsVersion, o.tlsVersion
	switch o.tlsVersion {
	case "", "1.2", "1.3":
	case "1.2-1.3":
		lo, hi = "1.2", "1.3"
	default:
		return nil, fmt.Errorf("--tls-version %q: want 1.2, 1.3 or 1.2-1.3", o.tlsVersion)
	}
	l.add(lo != "", flagArg("--tls-version", o.tlsVersion), func(sc *scenarios.Scenario) {
		tlsOf(sc).MinVersion, tlsOf(sc).MaxVersion = new(lo), new(hi)
	})
	ciphers, curves := splitList(o.ciphers), splitList(o.curves)
	l.add(ciphers != nil, flagArg("--ciphers", o.ciphers), func(sc *scenarios.Scenario) { tlsOf(sc).Ciphers = ciphers })
	l.add(curves != nil, flagArg("--curves", o.curves), func(sc *scenarios.Scenario) { tlsOf(sc).Curves = curves })
	l.add(o.insecure, "--insecure", func(sc *scenarios.Scenario) { tlsOf(sc).Verify = new(false) })
	if err := o.loadSteps(&l); err != nil {
		return nil, err
	}
	l.add(o.profile, "--server-profile", func(sc *scenarios.Scenario) { sc.Server = &scenarios.ServerSpec{Profile: new(true)} })
	return l, nil
}

// loadSteps adds the steps of the connection mode, the window and the groups.
func (o *oneLine) loadSteps(l *stepList) error {
	add := func(given bool, arg string, fill func(*scenarios.LoadSpec)) {
		l.add(given, arg, func(sc *scenarios.Scenario) { fill(ensure(&sc.Load)) })
	}
	add(o.keepalive, "--keepalive", func(l *scenarios.LoadSpec) { l.Connection = new("keep-alive") })
	add(o.duration != nil, flagArg("-d", durationArg(deref(o.duration))), func(l *scenarios.LoadSpec) { l.Duration = o.duration })
	add(o.warmup != nil, flagArg("--warmup", durationArg(deref(o.warmup))), func(l *scenarios.LoadSpec) { l.Warmup = o.warmup })
	groups, err := o.groupLists()
	if err != nil {
		return err
	}
	add(groups != nil, flagArg("--cpus", o.cpus), func(l *scenarios.LoadSpec) {
		for _, cpus := range groups {
			l.Groups = append(l.Groups, scenarios.GroupSpec{CPUs: new(cpus)})
		}
	})
	layout := o.groups != 0 || o.perGroup != 0
	add(layout, flagArg("--groups", strconv.Itoa(o.groups)), func(l *scenarios.LoadSpec) { ensure(&l.Layout).Groups = new(o.groups) })
	add(layout, flagArg("--cpus-per-group", strconv.Itoa(o.perGroup)), func(l *scenarios.LoadSpec) { l.Layout.CPUsPerGroup = new(o.perGroup) })
	add(layout && o.firstCPU != 0, flagArg("--first-cpu", strconv.Itoa(o.firstCPU)), func(l *scenarios.LoadSpec) { l.Layout.FirstCPU = new(o.firstCPU) })
	// -t and -c go to the layout, or to every group (one made here if none).
	each := func(set func(threads, conns **int)) func(*scenarios.LoadSpec) {
		return func(l *scenarios.LoadSpec) {
			if l.Layout != nil {
				set(&l.Layout.Threads, &l.Layout.Connections)
				return
			}
			if l.Groups == nil {
				l.Groups = []scenarios.GroupSpec{{}}
			}
			for i := range l.Groups {
				set(&l.Groups[i].Threads, &l.Groups[i].Connections)
			}
		}
	}
	add(o.threads != nil, flagArg("-t", strconv.Itoa(deref(o.threads))), each(func(t, _ **int) { *t = o.threads }))
	add(o.conns != nil, flagArg("-c", strconv.Itoa(deref(o.conns))), each(func(_, c **int) { *c = o.conns }))
	return nil
}

// groupLists checks --cpus against --groups and returns its CPU lists, "+"
// written as ","; nil without --cpus.
func (o *oneLine) groupLists() ([]string, error) {
	switch {
	case (o.groups != 0 || o.perGroup != 0) && o.cpus != "":
		return nil, fmt.Errorf("--cpus and --groups: give one of them")
	case o.groups != 0 && o.perGroup == 0:
		return nil, fmt.Errorf("--groups %d: give --cpus-per-group too (or --cpus)", o.groups)
	case o.perGroup != 0 && o.groups == 0:
		return nil, fmt.Errorf("--cpus-per-group %d: give --groups too (or --cpus)", o.perGroup)
	case o.cpus == "":
		return nil, nil
	}
	var lists []string
	for _, list := range splitList(o.cpus) {
		joined := strings.ReplaceAll(list, "+", ",")
		if _, err := pinning.Parse(joined); err != nil {
			// Quote the list as typed, not as rewritten for the file.
			msg := strings.Replace(err.Error(), strconv.Quote(joined), strconv.Quote(list), 1)
			return nil, &scenarios.Error{Flag: flagArg("--cpus", o.cpus), Msg: msg}
		}
		lists = append(lists, joined)
	}
	if lists == nil {
		return nil, fmt.Errorf("--cpus %q names no CPU list", o.cpus)
	}
	return lists, nil
}

// oneLineSource names the generated scenario (Plan.Source).
const oneLineSource = "URL mode"

// compileOneLine writes the flags' scenario for url and compiles it as a file;
// a problem names the flags whose steps made a value at or under its path.
func compileOneLine(o *oneLine, url string, sets setFlags, thresholds []string, planning bool) (*plans.Plan, string, error) {
	steps, err := o.steps(url)
	if se := (*scenarios.Error)(nil); errors.As(err, &se) {
		return nil, "", invalid(err) // a value the scenario would refuse, named by its flag
	}
	if err != nil {
		return nil, "", usageError(fmt.Errorf("run: %w", err))
	}
	built := &scenarios.Scenario{}
	madeBy := map[string]string{} // path → the flag whose step made it (the last, for -H A twice)
	made := map[string]int{}
	for _, s := range steps {
		s.fill(built)
		now := map[string]int{}
		for _, p := range built.Paths() {
			if now[p]++; now[p] > made[p] {
				madeBy[p] = s.arg
			}
		}
		made = now
	}
	if ensure(&built.Load).Connection == nil {
		built.Load.Connection = new("close") // written out, so a file shows it
	}
	b, err := built.Marshal()
	if err != nil {
		return nil, "", usageError(fmt.Errorf("run: %w", err))
	}
	text := "# Written by kaeload run --print-scenario: run it with \"kaeload run FILE\".\n" + string(b)
	sc, err := scenarios.Parse(oneLineSource, []byte(text))
	if sc == nil {
		return nil, text, invalid(err)
	}
	sc.FromFlag("", oneLineSource)
	for _, p := range built.Paths() {
		var flags []string
		for _, s := range steps {
			for q, arg := range madeBy {
				if arg == s.arg && (q == p || strings.HasPrefix(q, p+".") || strings.HasPrefix(q, p+"[")) {
					flags = append(flags, arg)
					break
				}
			}
		}
		if flags != nil {
			sc.FromFlag(p, strings.Join(flags, " "))
		}
	}
	plan, err := compileScenario(sc, sets, thresholds, planning)
	return plan, text, err
}

// deref is *p, or the zero value when p is nil.
func deref[T any](p *T) (v T) {
	if p != nil {
		v = *p
	}
	return v
}
