package notes

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kaeload/kaeload/results/format"
)

// The diagnoses' codes (diagnosis.Diagnosis Cause, Consequence, Fix),
// their words in kernelMessages and rateMessages, part of the one table.
const (
	AcceptQueueCause       Code = "accept_queue_cause"       // probable
	AcceptQueueConsequence Code = "accept_queue_consequence" // slow: connects of 1 s or more (0: not timed)
	AcceptQueueFix         Code = "accept_queue_fix"
	SYNQueueCause          Code = "syn_queue_cause"
	SYNQueueConsequence    Code = "syn_queue_consequence"
	SYNQueueFix            Code = "syn_queue_fix"
	TimeWaitCause          Code = "time_wait_cause"       // host
	TimeWaitConsequence    Code = "time_wait_consequence" // skipped
	TimeWaitFix            Code = "time_wait_fix"         // host, per_s (absent: not known)
	ResetsCause            Code = "resets_cause"          // host, resets, conns
	ResetsConsequence      Code = "resets_consequence"    // failed
	ResetsFix              Code = "resets_fix"            // memory
	StallsCause            Code = "stalls_cause"          // median, spans ([][2]float64 seconds)
	StallsConsequence      Code = "stalls_consequence"    // all, rest
	StallsFix              Code = "stalls_fix"
	NotSteadyCause         Code = "not_steady_cause" // first, last, change
	NotSteadyConsequence   Code = "not_steady_consequence"
	NotSteadyFix           Code = "not_steady_fix" // rising, warmup_s
)

func fixed(s string) func(Note) string { return func(Note) string { return s } }

func kernelMessages(m map[Code]func(Note) string) {
	m[AcceptQueueCause] = func(n Note) string {
		if n.B("probable") {
			return "connects waited for SYN retransmits and the server's overflow counters are not available: probably its accept queue overflowed"
		}
		return "the server's accept queue overflowed: connections completed their handshake faster than the server accepted them, and the kernel dropped the excess"
	}
	m[AcceptQueueConsequence] = func(n Note) string {
		if slow := n.U("slow"); slow > 0 {
			return fmt.Sprintf("%s connects waited 1 s or more: a connect whose SYN or final ACK the full queue dropped waits for a retransmit, 1 s later, then 2 s more; those connects measured the kernel's back-off, not the server's TLS, so the rate is partly the queue's", format.Count(slow))
		}
		return "a connect whose SYN or final ACK the full queue dropped waits for a retransmit, 1 s later, then 2 s more: those connects measured the kernel's back-off, not the server's TLS, so the rate is partly the queue's and the connect percentiles jump to 1 s and 3 s"
	}
	m[AcceptQueueFix] = fixed("raise the server's listen backlog (nginx: listen … backlog=N), which the kernel caps at net.core.somaxconn (sysctl -w net.core.somaxconn=N), and net.ipv4.tcp_max_syn_backlog to match; or let the server accept faster (more workers) or open fewer connections (load.connections)")
	m[SYNQueueCause] = fixed("the server's SYN queue was full: the kernel took the load for a SYN flood and answered with SYN cookies (or dropped SYNs)")
	m[SYNQueueConsequence] = fixed("connections opened with a SYN cookie lose the TCP options a cookie cannot carry (window scaling and SACK, unless timestamps are on), and a dropped SYN (TCPReqQFullDrop) is retried after 1 s; the kernel logs \"possible SYN flooding on port …\"")
	m[SYNQueueFix] = fixed("the SYN queue is as long as the listen backlog: raise it (nginx: listen … backlog=N) and net.core.somaxconn, which caps it, and net.ipv4.tcp_max_syn_backlog, which bounds it when SYN cookies are off")
	m[TimeWaitCause] = func(n Note) string {
		return "the TIME_WAIT table on " + n.S("host") + " was full (net.ipv4.tcp_max_tw_buckets)"
	}
	m[TimeWaitConsequence] = func(n Note) string {
		return format.Count(n.U("skipped")) + " closing sockets skipped TIME_WAIT: a late segment of an old connection can reach a new one on the same ports, and the kernel logs \"TCP: time wait bucket table overflow\"; with short connections the side that closes first holds every connection in TIME_WAIT for 60 s"
	}
	m[TimeWaitFix] = func(n Note) string {
		s := "raise net.ipv4.tcp_max_tw_buckets on " + n.S("host") + " above the connections it closes in 60 s"
		if _, ok := n.Args["per_s"]; ok {
			s += fmt.Sprintf(" (at this window's %s connections/s, more than %s)", format.Rate(n.F("per_s")), format.Count(uint64(n.F("per_s")*60+0.5)))
		}
		return s
	}
	m[ResetsCause] = func(n Note) string {
		share := "more resets than connections"
		if rst, conns := n.U("resets"), n.U("conns"); conns > 0 && rst <= conns {
			share = fmt.Sprintf("as many resets as %s of its connections", Percent(float64(rst)/float64(conns)))
		}
		return fmt.Sprintf("%s sent %s: connections ended by a reset, not a close", n.S("host"), share)
	}
	m[ResetsConsequence] = func(n Note) string {
		if failed := n.U("failed"); failed > 0 {
			return fmt.Sprintf("%s requests failed in the window (connect, TLS, read or write errors): the rate counts only the connections the resets spared", format.Count(failed))
		}
		return "no request failed: the resets came after the responses, which costs both ends work but not the count; they were not closes with bytes unread (TCPAbortOnClose, TCPAbortOnData), so something between the ends or a peer that forgot its connections reset them"
	}
	m[ResetsFix] = func(n Note) string {
		s := "find which end resets (ss -tni, the server's error log): an end that closes with bytes unread resets (TCPAbortOnClose, TCPAbortOnData); net.ipv4.tcp_abort_on_overflow=1 resets on a full accept queue instead of dropping; a full conntrack table or a firewall resets too"
		if n.B("memory") {
			s = "the host ran out of TCP memory (TCPAbortOnMemory): raise net.ipv4.tcp_mem and net.ipv4.tcp_max_orphans; " + s
		}
		return s
	}
}

func rateMessages(m map[Code]func(Note) string) {
	m[StallsCause] = func(n Note) string {
		spans, _ := n.Args["spans"].([][2]float64)
		words := make([]string, len(spans))
		for i, s := range spans {
			words[i] = Span(s[0], s[1])
		}
		return fmt.Sprintf("the rate fell below half the window's median (%s req/s) at %s", format.Rate(n.F("median")), strings.Join(words, ", "))
	}
	m[StallsConsequence] = func(n Note) string {
		all, rest := n.F("all"), n.F("rest")
		s := fmt.Sprintf("the window's rate, %s req/s, averages the stalls in", format.Rate(all))
		if rest > 0 {
			s += fmt.Sprintf(": it is %s below the rate outside them, %s req/s", Percent(1-all/rest), format.Rate(rest))
		}
		return s
	}
	m[StallsFix] = fixed("find what paused at those seconds: the server's CPU in the timeline, its log, other processes, a reload or log rotation, the client's own CPU; rerun to see whether the stalls recur")
	m[NotSteadyCause] = func(n Note) string {
		dir := "rose"
		if n.F("change") < 0 {
			dir = "fell"
		}
		return fmt.Sprintf("the rate %s from %s req/s in the window's first third to %s req/s in its last (%+.1f %%), more than the noise", dir, format.Rate(n.F("first")), format.Rate(n.F("last")), n.F("change")*100)
	}
	m[NotSteadyConsequence] = fixed("the window's rate depends on how long it runs and where it starts: another window or warm-up would give another figure, and a comparison of variants mixes the trend into their difference")
	m[NotSteadyFix] = func(n Note) string {
		if n.B("rising") {
			return fmt.Sprintf("the warm-up (%s) is probably too short: lengthen load.warmup until the timeline is flat from the window's start", Seconds(n.F("warmup_s")))
		}
		return "the server slows as the window goes on: look for what accumulates (TIME_WAIT sockets, memory, temperature and clock throttling, a growing log); the timeline shows when it begins"
	}
}

// Seconds writes a time relative to a window in seconds ("4.0 s").
func Seconds(s float64) string { return strconv.FormatFloat(s, 'f', 1, 64) + " s" }

// Span writes a stretch of a window: "3.0–5.0 s".
func Span(start, end float64) string {
	return strings.TrimSuffix(Seconds(start), " s") + "–" + Seconds(end)
}

// Percent writes a fraction as a percentage with one decimal ("4.5 %"),
// or two significant digits below 1 % ("0.026 %"), so that a small share
// does not read as none.
func Percent(f float64) string {
	if p := f * 100; p != 0 && p > -1 && p < 1 {
		return strconv.FormatFloat(p, 'g', 2, 64) + " %"
	}
	return strconv.FormatFloat(f*100, 'f', 1, 64) + " %"
}
