// Command kaeload measures HTTPS short-connection throughput from
// CPU-pinned worker processes over one common window, and compares server
// configurations (TLS offload) with statistics. See "kaeload help".
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/kaeload/kaeload/runner"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	abort := make(chan struct{})
	sigs := make(chan os.Signal, 3)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		// First signal: stop the load, tear down, report. Second: kill the
		// workers, still stop the server. Third: exit at once. Finished
		// repetitions are in the journal whatever happens.
		s := <-sigs
		last := time.Now()
		fmt.Fprintf(os.Stderr, "\nkaeload: %v: stopping the load and tearing down (again to abort)\n", s)
		cancel()
		last = nextSignal(sigs, last)
		fmt.Fprintln(os.Stderr, "kaeload: aborting: stopping the server first (again to exit at once)")
		close(abort)
		nextSignal(sigs, last)
		fmt.Fprintln(os.Stderr, "kaeload: exiting without tearing down")
		os.Exit(130)
	}()
	err := run(ctx, os.Args[1:], stdio{os.Stdin, os.Stdout, os.Stderr, abort})
	if err != nil && !errors.Is(err, errSilent) {
		fmt.Fprintln(os.Stderr, "kaeload:", err)
	}
	os.Exit(exitCode(err))
}

// sameSignal is how close two signals count as one: GNU timeout sends a
// SIGINT to the process and its group, so one arrives twice.
const sameSignal = 200 * time.Millisecond

// nextSignal returns when a signal came more than sameSignal after last.
func nextSignal(sigs <-chan os.Signal, last time.Time) time.Time {
	for range sigs {
		if now := time.Now(); now.Sub(last) > sameSignal {
			return now
		}
	}
	return time.Now()
}

// command is one subcommand; setup registers its flags and returns its body.
type command struct {
	name, summary, synopsis, help string
	// min to max positional arguments, checked by wantArgs
	min, max int
	what     string
	hidden   bool
	setup    func(fs *flag.FlagSet) body
}

// body is a command's work on its positional arguments.
type body = func(ctx context.Context, s stdio, pos []string) error

// stdio is a command's standard streams and the teardown's abort (nil: never).
type stdio struct {
	in       io.Reader
	out, err io.Writer
	abort    <-chan struct{}
}

var commands = []command{runCommand, planRepsCommand, validateCommand, reportCommand, compareCommand,
	speedCommand, dashboardCommand, serveCommand, versionCommand, workerCommand}

func run(ctx context.Context, args []string, s stdio) error {
	if len(args) == 0 || slices.Contains([]string{"help", "-h", "--help", "-help"}, args[0]) {
		if len(args) > 1 {
			return run(ctx, []string{args[1], "--help"}, s)
		}
		usage(s.out)
		return nil
	}
	if slices.Contains([]string{"--version", "-version", "-v"}, args[0]) {
		args = append([]string{"version"}, args[1:]...)
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(ctx, args[1:], s)
		}
	}
	usage(s.err)
	return usageError(fmt.Errorf("unknown command %q", args[0]))
}

// run parses c's flags and checks its arguments before its body runs.
func (c command) run(ctx context.Context, args []string, s stdio) error {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // a typo gets the one-line error, --help the whole text
	do := c.setup(fs)
	pos, err := parse(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(s.out, "Usage: kaeload %s %s\n\n%s\n", c.name, c.synopsis, strings.TrimSpace(c.help))
		printFlags(s.out, fs)
		return errSilent
	}
	if err != nil {
		return err
	}
	if err := wantArgs(fs, pos, c.min, c.max, c.what); err != nil {
		return err
	}
	return do(ctx, s, pos)
}

func usage(w io.Writer) {
	fmt.Fprint(w, `kaeload measures HTTPS short-connection throughput (new TCP connection and a
full TLS handshake per request) from CPU-pinned worker groups, and compares
server configurations with statistics.

Usage: kaeload <command> [flags] [arguments]

Commands:
`)
	for _, c := range commands {
		if !c.hidden {
			fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
		}
	}
	fmt.Fprint(w, `
Quick start (built-in target, nothing else needed):
  kaeload run examples/quickstart.yaml

One URL, wrk style (one group per CPU list; --print-scenario for the YAML):
  kaeload run https://10.0.0.2/index.html -c 200 -d 60s -t 11 --cpus 0-9,10-19

Run "kaeload <command> --help" for a command's flags; "kaeload --version"
(or -v) prints the version. The reference is in docs/ (README.md lists it).

Exit status:
  0    success
  1    the work could not be done (server command, worker, disk, bad input file)
  2    bad command line, flags or scenario
  3    a run completed but a variant failed or was not measured (see
       FAILED and NOT MEASURED in the report)
  99   a threshold was crossed (run), or a variant got significantly
       slower (compare --fail-if-slower)
  130  interrupted (Ctrl-C or SIGTERM)
`)
}

// version is set at build time with -ldflags "-X main.version=v1.2.3".
var version = "dev"

func versionString() string {
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok && v == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	return fmt.Sprintf("kaeload %s (%s, %s/%s)", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

var versionCommand = command{name: "version", summary: "print kaeload's version",
	help: "Prints kaeload's version, the Go version and the platform.",
	setup: func(*flag.FlagSet) body {
		return func(_ context.Context, s stdio, _ []string) error {
			fmt.Fprintln(s.out, versionString())
			return nil
		}
	}}

// workerCommand is one pinned worker process (locally or through ssh).
var workerCommand = command{name: "worker", summary: "internal: one pinned load process, driven over stdin/stdout",
	hidden: true, help: `Internal: one pinned load process driven over stdin/stdout by "kaeload run".
Not for direct use; the protocol is in docs/internals.md.`,
	setup: func(fs *flag.FlagSet) body {
		relay := fs.Bool("relay", false, "relay for a remote host: start the pinned worker as a child and pass the stream through (what kaeload runs over ssh)")
		return func(ctx context.Context, s stdio, _ []string) error {
			if !*relay {
				return runner.Worker(ctx, s.in, s.out)
			}
			exe, err := os.Executable()
			if err != nil {
				return err
			}
			return runner.Relay(ctx, s.in, s.out, s.err, exe, []string{"worker"})
		}
	}}
