package plans

import (
	"fmt"
	"time"
)

// Duration is how long a plan's run takes: its windows with cooldowns, and
// its server restarts, bounded. Speed commands and worker start-up are not counted.
type Duration struct {
	Windows int           // steps, plus a search's budget or capacity's most steps
	Load    time.Duration // the windows' time, cooldowns between included
	// Restarts are the server starts; RestartBound allows each the ready timeout.
	Restarts                 int
	RestartBound             time.Duration
	Warmup, Window, Cooldown time.Duration // one window's parts
	// AtMost is set when Windows is a worst case (search, capacity, repeat: auto).
	AtMost bool
}

// Total is the longest the run should take: Load plus RestartBound.
func (d Duration) Total() time.Duration { return d.Load + d.RestartBound }

// String says it in one line: "27 windows of 5s warm-up + 1m0s, 2s
// cooldown between: 30m7s; 27 server restarts add at most …".
func (d Duration) String() string {
	at := ""
	if d.AtMost {
		at = "at most "
	}
	windows := "windows"
	if d.Windows == 1 {
		windows = "window"
	}
	s := fmt.Sprintf("%s%d %s of %s warm-up + %s", at, d.Windows, windows, d.Warmup, d.Window)
	if d.Cooldown > 0 && d.Windows > 1 {
		s += fmt.Sprintf(", %s cooldown between", d.Cooldown)
	}
	s += ": " + round(d.Load).String()
	if d.Restarts == 0 {
		return s
	}
	return fmt.Sprintf("%s; %d server restarts add at most %s (%s ready timeout each): at most %s in all",
		s, d.Restarts, round(d.RestartBound), round(d.RestartBound/time.Duration(d.Restarts)), round(d.Total()))
}

// round drops sub-second noise from a duration shown to people.
func round(d time.Duration) time.Duration {
	if d >= time.Minute {
		return d.Round(time.Second)
	}
	return d
}

// Duration computes how long p's run takes (see Duration).
func (p *Plan) Duration() Duration {
	steps := p.Steps()
	d := Duration{Windows: len(steps), Warmup: p.Load.Warmup, Window: p.Load.Duration, Cooldown: p.Cooldown}
	for _, st := range steps {
		if st.Restart {
			d.Restarts++
		}
	}
	if c := p.Load.Capacity; c != nil {
		d.Window = c.Window
		// Each variant's steps run on one start of its server.
		up, bisect := c.StepBound()
		d.Windows = len(p.Variants) * (up + bisect)
		d.Restarts = 0
		if p.Server != nil {
			d.Restarts = len(p.Variants)
		}
		d.AtMost = true
	}
	if s := p.Search; s != nil {
		d.Windows += s.Budget
		if p.Server != nil {
			d.Restarts += s.Budget // a window per start
		}
		d.AtMost = true
	}
	if p.Auto != nil {
		d.AtMost = true // Repeat is Auto.Max until the noise is known
	}
	d.Load = time.Duration(d.Windows) * (d.Warmup + d.Window)
	if d.Windows > 1 {
		d.Load += time.Duration(d.Windows-1) * p.Cooldown
	}
	if p.Server != nil {
		d.RestartBound = time.Duration(d.Restarts) * p.Server.Ready.Timeout
	}
	return d
}
