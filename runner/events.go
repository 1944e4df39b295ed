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
// output never writes the record: a fact it adds comes back as an Event,
// which Run keeps in the record and hands to every output.
type Output interface {
	// Start gets the header and plan before any load, in order: the facts one
	// returns are in the header the next get (list the journal last). An
	// error fails the run.
	Start(r *results.Run, p *plans.Plan) ([]Event, error)
	// Event gets each event. Readings may come from several goroutines and
	// must not block; their errors are ignored. A Load event's error fails
	// the run; any other's is logged and fails the storing.
	Event(ctx context.Context, e Event) error
	// Stop is called once every window ended; it may wait for a scrape of the
	// final values, and returns the facts it adds.
	Stop(ctx context.Context) []Event
}

// EventKind says what an Event reports.
type EventKind int

// The events of a run. Those up to WindowEnded are live (the metrics and
// the display); the others change the record, and the journal keeps them.
const (
	EventPlanned EventKind = iota + 1 // Windows will be measured (a search's or step's once picked)
	EventLoad                         // Live's window is about to send load
	EventReading                      // one Reading of an interval of Window
	// EventWindowEnded: Window ended with Rep, its Index set (nil: it
	// failed; PartialOf set: an interrupt or a lost worker cut it short).
	EventWindowEnded
	// EventRep, EventPartial, EventExcluded: Rep of Variants[Variant] was
	// measured, cut short (FAILED) or set aside by exclude_flagged.
	EventRep
	EventPartial
	EventExcluded
	EventInfo        // Info: the variant's server info runs
	EventSpeed       // Speed: the variant's speed runs
	EventWarning     // Warning is a warning about the run, Text its words
	EventNotMeasured // the run gave up on Variant, for Text
	EventMetrics     // a fact, Metrics, the live metrics endpoint's record
	eventShow        // the window's load began (the display's)
	eventQuiet       // Text says how the wait for a quiet machine stands
)

// Event is one thing that happened in a run; Kind says which fields are set.
type Event struct {
	Kind    EventKind
	Variant int
	Window  WindowID
	Windows []WindowID
	Live    *LiveWindow
	Reading *LiveReading
	Rep     *results.Rep
	Info    []results.InfoRun
	Speed   []results.SpeedRun
	Text    string
	Warning results.Warning
	Metrics *results.Metrics
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

// start hands the header to every output in order, keeping their facts.
func (b *book) start(p *plans.Plan) error {
	for _, o := range b.outputs {
		facts, err := o.Start(b.run, p)
		if err != nil {
			return err
		}
		for _, f := range facts {
			b.keep(f)
		}
	}
	return nil
}

// keep writes fact e into the record.
func (b *book) keep(e Event) {
	if e.Kind == EventMetrics {
		b.run.Metrics = e.Metrics
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

// stop stops every output and keeps and publishes the facts they add.
func (b *book) stop(ctx context.Context) {
	var facts []Event
	for _, o := range b.outputs {
		facts = append(facts, o.Stop(ctx)...)
	}
	for _, f := range facts {
		b.keep(f)
		b.publish(f)
	}
}

// warn adds a warning about the run.
func (b *book) warn(w results.Warning) {
	b.run.Warnings = append(b.run.Warnings, w)
	fmt.Fprintf(b.log, "warning: %s\n", w.Message)
	b.publish(Event{Kind: EventWarning, Text: w.Message, Warning: w})
}

// notMeasured records that the run gave up on variant, for reason.
func (b *book) notMeasured(variant int, reason string) {
	name := b.run.Variants[variant].Name
	b.run.NotMeasured = append(b.run.NotMeasured, results.NotMeasured{Variant: name, Reason: reason})
	fmt.Fprintf(b.log, "variant %s NOT MEASURED: %s (the run goes on with the other variants)\n", name, reason)
	b.publish(Event{Kind: EventNotMeasured, Variant: variant, Text: reason})
}

// add records rep of variant as kind says: measured, partial or excluded.
func (b *book) add(kind EventKind, variant int, rep results.Rep) {
	switch kind {
	case EventPartial:
		b.run.AddPartial(variant, rep)
	case EventExcluded:
		b.run.AddExcluded(variant, rep)
	default:
		b.run.AddRep(variant, rep) // withdraws an earlier try's warning that it was interrupted
	}
	b.publish(Event{Kind: kind, Variant: variant, Rep: &rep})
}

func (b *book) setInfo(variant int, runs []results.InfoRun) {
	b.run.Variants[variant].Info = runs
	b.publish(Event{Kind: EventInfo, Variant: variant, Info: runs})
}

func (b *book) setSpeed(variant int, runs []results.SpeedRun) {
	b.run.Variants[variant].Speed = runs
	b.publish(Event{Kind: EventSpeed, Variant: variant, Speed: runs})
}

// The display is an output: it shows a window from its eventShow to its end.
func (d *display) Start(*results.Run, *plans.Plan) ([]Event, error) { return nil, nil }
func (d *display) Stop(context.Context) []Event                     { return nil }

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
