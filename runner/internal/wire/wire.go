// Package wire is the protocol between kaeload's controller and its workers:
// newline-delimited JSON, one typed message a line. It is the runner's alone;
// the stored record (package results) is another contract.
package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// Message types.
const (
	TypeSpec      = "spec"
	TypeReady     = "ready"
	TypeStart     = "start"
	TypeSnapshot  = "snapshot"
	TypeFinal     = "final"
	TypeError     = "error"
	TypeClock     = "clock"
	TypeIntervals = "intervals"
	// TypeStop ends the window now (an interrupt): the worker sends its
	// final record for the shortened window.
	TypeStop = "stop"
)

// MaxLine bounds one line: a final record's histograms take a few KB;
// this stops a runaway stream.
const MaxLine = 64 << 20

// Spec is the controller's first line: the worker's slice of the plan.
type Spec struct {
	Type      string       `json:"type"`
	Group     int          `json:"group"`
	Target    plans.Target `json:"target"`
	Load      plans.Load   `json:"load"`
	GroupSpec plans.Group  `json:"group_spec"`
}

// Ready says the worker is pinned, configured and waiting for start.
type Ready struct {
	Type       string `json:"type"`
	PID        int    `json:"pid"`
	CPUs       string `json:"cpus"`
	GOMAXPROCS int    `json:"gomaxprocs"`
}

// Start carries every group's window on the controller's clock: load from
// Begin, measured from WarmupEnd to End. Offset is the worker's clock minus
// the controller's (0 here); Local converts.
type Start struct {
	Type      string        `json:"type"`
	Begin     time.Time     `json:"begin"`
	WarmupEnd time.Time     `json:"warmup_end"`
	End       time.Time     `json:"end"`
	Offset    time.Duration `json:"offset,omitempty"`
	// Workers are the PIDs of the run's workers on the worker's host:
	// kaeload's own load, not other processes on its CPUs.
	Workers []int `json:"workers,omitempty"`
}

// Local is the controller's instant t on the worker's clock.
func (s Start) Local(t time.Time) time.Time { return t.Add(s.Offset) }

// Stop ends the window when the worker reads it.
type Stop struct {
	Type string `json:"type"`
}

// Snapshot is a running count, sent periodically; it is also the heartbeat.
type Snapshot struct {
	Type     string `json:"type"`
	Requests uint64 `json:"requests"`
	Errors   uint64 `json:"errors"`
	Bytes    uint64 `json:"bytes"`
	// Missed counts the open-loop starts missed so far.
	Missed uint64 `json:"missed,omitempty"`
}

// Intervals carries closed intervals of the group's timeline, once, in order.
type Intervals struct {
	Type      string                   `json:"type"`
	Intervals []results.IntervalSample `json:"intervals"`
}

// Final is the worker's result, histograms included.
type Final struct {
	Type  string        `json:"type"`
	Group results.Group `json:"group"`
}

// Error reports a failure; the worker exits after sending it.
type Error struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// Clock is a timestamp exchange: sent without Time, answered with it.
type Clock struct {
	Type string    `json:"type"`
	Time time.Time `json:"time,omitzero"`
}

// Message is one line: its type, and the line for Decode.
type Message struct {
	Type string `json:"type"`
	raw  []byte
}

// Parse reads one line as a message: one JSON object with a type.
func Parse(line []byte) (Message, error) {
	var m Message
	if err := json.Unmarshal(line, &m); err != nil || m.Type == "" {
		return Message{}, fmt.Errorf("not a protocol message: %s", quote(line))
	}
	m.raw = line
	return m, nil
}

// Decode decodes the message into v, which must match its type.
func (m Message) Decode(v any) error {
	if err := json.Unmarshal(m.raw, v); err != nil {
		return fmt.Errorf("bad %q message: %w", m.Type, err)
	}
	return nil
}

// Reader reads messages, one a line.
type Reader struct {
	r *bufio.Reader
}

// NewReader reads messages from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 64<<10)}
}

// Next returns the next message. io.EOF is a stream that ended between
// lines; anything else that is not a message is an error quoting it.
func (lr *Reader) Next() (Message, error) {
	var line []byte
	for {
		chunk, err := lr.r.ReadSlice('\n')
		line = append(line, chunk...)
		switch {
		case len(line) > MaxLine:
			return Message{}, fmt.Errorf("protocol line longer than %d bytes", MaxLine)
		case err == bufio.ErrBufferFull:
		case errors.Is(err, io.EOF) && len(line) > 0:
			return Message{}, fmt.Errorf("stream ended inside a line: %s", quote(line))
		case err != nil:
			return Message{}, err
		default:
			return Parse(line)
		}
	}
}

// quote quotes a line for an error, cut to 120 bytes.
func quote(b []byte) string {
	if b = bytes.TrimSuffix(b, []byte("\n")); len(b) > 120 {
		return fmt.Sprintf("%q…", b[:120])
	}
	return fmt.Sprintf("%q", b)
}

// Write writes v as one line.
func Write(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Rest is what follows the last message read, buffered data first.
func (lr *Reader) Rest() io.Reader { return lr.r }
