package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// Output subscribes to a run's events, as k6's output.Output does. An
// output never writes the record: a fact it adds comes back as a Change,
// which Run makes to the record and hands to every output. A fact is
// run-wide, a warning or the metrics (see outputFact).
type Output interface {
	// Start gets the header and plan before any load, in order: the facts one
	// returns are in the header the next get (list the journal last). An
	// error fails the run.
	Start(r *results.Run, p *plans.Plan) ([]results.Change, error)
	// Event gets each event. Readings may come from several goroutines and
	// must not block; their errors are ignored. A Load event's error fails
	// the run; any other's is logged and fails the storing.
	Event(ctx context.Context, e Event) error
	// Stop is called once every window ended; it may wait for a scrape of the
	// final values, and returns the facts it adds.
	Stop(ctx context.Context) []results.Change
}

// EventKind says what an Event reports.
type EventKind int

// The events of a run. Those up to WindowEnded are live (the metrics and
// the display); EventChange changes the record.
const (
	EventPlanned EventKind = iota + 1 // Windows will be measured (a search's or step's once picked)
	EventLoad                         // Live's window is about to send load
	EventReading                      // one Reading of an interval of Window
	// EventWindowEnded: Window ended with Rep, its Index set (nil: it
	// failed; PartialOf set: an interrupt or a lost worker cut it short).
	EventWindowEnded
	EventChange // Change, made to the record; the journal keeps it
	eventShow   // the window's load began (the display's)
	eventQuiet  // Text says how the wait for a quiet machine stands
)

// Event is one thing that happened in a run; Kind says which fields are set.
type Event struct {
	Kind    EventKind
	Window  WindowID
	Windows []WindowID
	Live    *LiveWindow
	Reading *LiveReading
	Rep     *results.Rep
	Change  *results.Change
	Text    string
	show    *repInfo // eventShow: the window, and the live counts it pulls
	live    *live
}

// book is the run's record and its outputs: the one writer of the Run,
// which hands each change to every output as an event.
type book struct {
	run      *results.Run
	outputs  []Output
	log      io.Writer
	storeErr error // the outputs' failures
}

// start hands the header to every output in order, making their facts.
func (b *book) start(p *plans.Plan) error {
	for _, o := range b.outputs {
		facts, err := o.Start(b.run, p)
		if err != nil {
			return err
		}
		for _, f := range facts {
			if err := outputFact(f); err != nil {
				return err
			}
			b.apply(f)
		}
	}
	return nil
}

// outputFact refuses an output's fact that names a variant (its index would be the plan's, the
// record's differ once unmeasured variants are dropped) or that begins, ends or resumes the run,
// which only Run does.
func outputFact(c results.Change) error {
	if c.Type == results.ChangeWarning || c.Type == results.ChangeMetrics {
		return nil
	}
	return fmt.Errorf("runner: an output's fact of type %q: only warnings and metrics", c.Type)
}

// apply makes change c to the record; the runner's changes always apply.
func (b *book) apply(c results.Change) {
	if err := b.run.Apply(c); err != nil {
		panic(err)
	}
}

// emit hands e to every output: a Load event's first error is returned,
// any other's is logged once loudly and kept for Run's error.
func (b *book) emit(ctx context.Context, e Event) error {
	for _, o := range b.outputs {
		err := o.Event(ctx, e)
		switch {
		case err == nil || e.Kind == EventReading:
		case e.Kind == EventLoad:
			return err
		default:
			if b.storeErr == nil {
				fmt.Fprintf(b.log, "ERROR: results could not be stored (the run goes on; its report is still printed): %v\n", err)
			}
			b.storeErr = errors.Join(b.storeErr, err)
		}
	}
	return nil
}

// publish is emit for an event that cannot fail the run.
func (b *book) publish(e Event) { _ = b.emit(context.Background(), e) }

// stop stops every output and makes and publishes the facts they add.
func (b *book) stop(ctx context.Context) {
	var facts []results.Change
	for _, o := range b.outputs {
		facts = append(facts, o.Stop(ctx)...)
	}
	for _, f := range facts {
		if err := outputFact(f); err != nil {
			b.storeErr = errors.Join(b.storeErr, err)
			continue
		}
		b.change(f)
	}
}

// change makes c to the record and hands it to every output.
func (b *book) change(c results.Change) {
	b.apply(c)
	b.publish(Event{Kind: EventChange, Change: &c})
}

// warn adds a warning about the run.
func (b *book) warn(w results.Warning) {
	fmt.Fprintf(b.log, "warning: %s\n", w.Message)
	b.change(results.Change{Type: results.ChangeWarning, Warning: &w})
}

// notMeasured records that the run gave up on variant, for reason.
func (b *book) notMeasured(variant int, reason string) {
	name := b.run.Variants[variant].Name
	fmt.Fprintf(b.log, "variant %s NOT MEASURED: %s (the run goes on with the other variants)\n", name, reason)
	b.change(results.Change{Type: results.ChangeNotMeasured, Variant: variant, Reason: reason})
}

// The display is an output: it shows a window from its eventShow to its end.
func (d *display) Start(*results.Run, *plans.Plan) ([]results.Change, error) { return nil, nil }
func (d *display) Stop(context.Context) []results.Change                     { return nil }

func (d *display) Event(_ context.Context, e Event) error {
	switch {
	case e.Kind == eventQuiet && time.Since(d.said) >= plainEvery: // a line at most every plainEvery
		d.said = time.Now()
		fmt.Fprintln(d.w, e.Text)
	case e.Kind == eventShow:
		d.show(*e.show, e.live)
	case e.Kind == EventWindowEnded && d.stopc != nil:
		rep := e.Rep
		if rep != nil && rep.PartialOf > 0 {
			rep = nil // cut short: shown as not complete
		}
		d.done(rep)
	}
	return nil
}
