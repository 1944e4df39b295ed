package runner

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/kaeload/kaeload/results"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// Message types of the controller↔worker protocol (see the package doc).
const (
	msgSpec     = "spec"
	msgReady    = "ready"
	msgStart    = "start"
	msgSnapshot = "snapshot"
	msgFinal    = "final"
	msgError    = "error"
	msgClock    = "clock"
	// msgIntervals carries the timeline's intervals a worker has closed.
	msgIntervals = "intervals"
	// msgStop ends the window now (the run was interrupted): the worker
	// stops its load and sends its final record for the shortened window.
	msgStop = "stop"
)

// maxLine bounds one protocol line. A final record carries four compressed
// histograms (a few KB each); 64 MiB leaves room for anything sane and still
// stops a runaway stream from eating memory.
const maxLine = 64 << 20

// specMsg is the controller's first line: the worker's slice of the plan.
type specMsg struct {
	Type      string       `json:"type"`
	Group     int          `json:"group"`
	Target    plans.Target `json:"target"`
	Load      plans.Load   `json:"load"`
	GroupSpec plans.Group  `json:"group_spec"`
}

// readyMsg says the worker is pinned, configured and waiting for start.
type readyMsg struct {
	Type       string `json:"type"`
	PID        int    `json:"pid"`
	CPUs       string `json:"cpus"`
	GOMAXPROCS int    `json:"gomaxprocs"`
}

// startMsg carries the window, the same for every group. Load begins when
// the worker reads it; traffic before WarmupEnd is warm-up.
type startMsg struct {
	Type      string    `json:"type"`
	WarmupEnd time.Time `json:"warmup_end"`
	End       time.Time `json:"end"`
	// WarmupIn and EndIn, when EndIn is set, give the window relative to
	// the worker's receipt of this message instead (a remote worker,
	// whose clock may differ): it opens WarmupIn after receipt and ends
	// EndIn after receipt. The controller subtracts the one-way delay.
	WarmupIn time.Duration `json:"warmup_in,omitempty"`
	EndIn    time.Duration `json:"end_in,omitempty"`
	// Workers holds the PIDs of the run's workers on the worker's host
	// (their ready messages' PID): kaeload's own load, which the worker
	// does not count among the other processes on its CPUs.
	Workers []int `json:"workers,omitempty"`
}

// stopMsg is the controller's stop: the window ends when the worker reads
// it, and what it measured until then comes back as the final record.
type stopMsg struct {
	Type string `json:"type"`
}

// snapshotMsg is a running count, sent every snapshotEvery; it doubles as
// the heartbeat.
type snapshotMsg struct {
	Type     string `json:"type"`
	Requests uint64 `json:"requests"`
	Errors   uint64 `json:"errors"`
	Bytes    uint64 `json:"bytes"`
	// Missed counts the open-loop starts missed so far (the live
	// display shows them); absent in a closed loop.
	Missed uint64 `json:"missed,omitempty"`
}

// intervalsMsg carries intervals of the group's timeline, each complete
// and sent once, in order: those that have ended and whose CPU readings
// are in, sent with the snapshots while the load runs, and the rest just
// before the final record.
type intervalsMsg struct {
	Type      string                   `json:"type"`
	Intervals []results.IntervalSample `json:"intervals"`
}

// finalMsg is the worker's result, histograms included.
type finalMsg struct {
	Type  string        `json:"type"`
	Group results.Group `json:"group"`
}

// errorMsg reports a failure; the worker exits after sending it.
type errorMsg struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// message is one decoded line: Type plus the raw line for the typed decode.
type message struct {
	Type string `json:"type"`
	raw  []byte
}

// lineReader reads newline-delimited JSON messages.
type lineReader struct {
	r *bufio.Reader
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next message. io.EOF means the stream ended cleanly
// between lines; anything that is not one JSON object with a "type" on one
// line is an error quoting (the start of) the line.
func (lr *lineReader) next() (message, error) {
	var line []byte
	for {
		chunk, err := lr.r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxLine {
			return message{}, fmt.Errorf("protocol line longer than %d bytes", maxLine)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if errors.Is(err, io.EOF) && len(line) > 0 {
				return message{}, fmt.Errorf("stream ended inside a line: %s", quoteLine(line))
			}
			return message{}, err
		}
		break
	}
	var m message
	if err := json.Unmarshal(line, &m); err != nil || m.Type == "" {
		return message{}, fmt.Errorf("not a protocol message: %s", quoteLine(line))
	}
	m.raw = line
	return m, nil
}

// decode decodes the message into v, which must match its type.
func (m message) decode(v any) error {
	if err := json.Unmarshal(m.raw, v); err != nil {
		return fmt.Errorf("bad %q message: %w", m.Type, err)
	}
	return nil
}

// quoteLine quotes a line for an error message, cut to 120 bytes.
func quoteLine(b []byte) string {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	if len(b) > 120 {
		return fmt.Sprintf("%q…", b[:120])
	}
	return fmt.Sprintf("%q", b)
}

// writeMsg writes v as one JSON line.
func writeMsg(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}
