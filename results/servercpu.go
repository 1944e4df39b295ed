package results

import (
	"slices"
	"strconv"
	"strings"
)

// ServerCPUs is what ran on the CPUs the server may run on during a
// repetition's window: the server itself (Rep.ServerCPU holds its own
// time), kaeload, and other processes. Rep.ServerCPUUse turns it into
// shares and verdicts.
type ServerCPUs struct {
	// CPUs is the server's CPUs in taskset form: the union of its
	// processes' affinity masks (sched_getaffinity here,
	// Cpus_allowed_list over ssh), or the host's CPUs when no mask could
	// be read.
	CPUs string `json:"cpus"`
	// Host is the ssh host the server runs on, as Group.Host names hosts
	// ("" = the controller's machine).
	Host string `json:"host,omitempty"`
	// Builtin is set when the server is kaeload's built-in target, which
	// runs in the controller: it shares the client's CPUs by design (a
	// way to try kaeload, not a server under evaluation), so no group is
	// flagged as sharing them (ServerCPUUse.Shared), while their busy time
	// still judges saturation and other processes there are still named.
	Builtin bool `json:"builtin,omitempty"`
	// Name is the command of PIDs' root: with no server control, the
	// listener's processes are the server, and the report names them.
	Name string `json:"name,omitempty"`
	// PIDs are the server's processes (the listener's process tree) at
	// the window's end, root first.
	PIDs []int `json:"pids,omitempty"`
	// Busy is the busy time of the server's CPUs over the window, by
	// anything that ran there, CPU by CPU (/proc/stat); nil when not read.
	Busy *CPUUsage `json:"busy,omitempty"`
	// Controller is the controller's own CPU time over the window (user +
	// system) when it runs on the server's host: part of kaeload's share
	// of those CPUs besides its workers'.
	Controller float64 `json:"controller_seconds,omitempty"`
	// Others lists the busiest processes other than the server's and
	// kaeload's among those that may run on the server's CPUs (at most
	// OthersListed, as cpustat ranks them for a group's CPUs).
	Others []ProcessCPU `json:"others,omitempty"`
}

// ServerOtherLoadShare is the share of the server's CPU time that other
// processes must take for a report to say the server did not have its
// CPUs to itself (ServerCPUUse.OtherLoad). It is lower than the client's
// OtherLoadShare: every CPU-second taken there is one the server being
// measured could have used, and a nice 10 busy loop beside a saturated
// nice 0 server gets only about a tenth of the CPU (weights 110 against
// 1024), yet takes all the server leaves idle.
const ServerOtherLoadShare = 0.10

// ServerSaturatedBusy is the share of its CPUs the server must use, or
// anything must keep them busy, for a repetition to count as having
// loaded the server (analysis.RepSaturation).
const ServerSaturatedBusy = 0.80

// SharedCPU is a pinned client group that runs on some of the server's
// CPUs, on the server's host.
type SharedCPU struct {
	// Group is the group's Group.Index and CPUs its CPU list.
	Group int
	CPUs  string
	// Common are the CPUs it shares with the server, in taskset form.
	Common string
}

// ServerCPUUse is how the server's CPUs were used during a repetition's
// window, as shares of their time (window × CPUs), with the verdicts that
// follow (Rep.ServerCPUUse).
type ServerCPUUse struct {
	// CPUs and Host are the server's (ServerCPUs).
	CPUs, Host string
	// Measured says whether the CPUs' busy time was read; the shares
	// below are 0 when not.
	Measured bool
	// Busy is the share of the CPUs' time anything ran on them.
	Busy float64
	// Server is the share the server's process tree used (Rep.ServerCPU);
	// HasServer says whether it was measured.
	Server    float64
	HasServer bool
	// Kaeload is the share kaeload used there: the controller's time and
	// that of its workers on the server's host, each worker's in
	// proportion to the share of its CPUs that are the server's.
	Kaeload float64
	// Interrupts is the share the CPUs spent handling interrupts: the
	// kernel's network work for the connections, which no process's time
	// includes. It counts on the server's side.
	Interrupts float64
	// Others is Busy − Server − Kaeload − Interrupts (at least 0): the
	// share other processes took.
	Others float64
	// Top names the busiest other processes that may run on the server's
	// CPUs (ServerCPUs.Others).
	Top []ProcessCPU
	// OtherLoad: other processes took at least ServerOtherLoadShare of
	// the server's CPUs (and the server's own time was measured, so that
	// they are told apart from it).
	OtherLoad bool
	// Shared are the pinned client groups on the server's host that run
	// on some of its CPUs: client and server then share those CPUs, and
	// the figure measures both together.
	Shared []SharedCPU
}

// ServerCPUUse returns how the server's CPUs were used in r's window;
// false when they were not recorded (Rep.ServerCPUs nil).
func (r *Rep) ServerCPUUse() (ServerCPUUse, bool) {
	s := r.ServerCPUs
	if s == nil {
		return ServerCPUUse{}, false
	}
	cpus := cpuList(s.CPUs)
	u := ServerCPUUse{CPUs: s.CPUs, Host: s.Host, Top: s.Others}
	for i := range r.Groups {
		g := &r.Groups[i]
		if s.Builtin || g.Host != s.Host || g.CPUs == "" {
			continue
		}
		if common := intersect(cpuList(g.CPUs), cpus); len(common) > 0 {
			u.Shared = append(u.Shared, SharedCPU{Group: g.Index, CPUs: g.CPUs, Common: cpuString(common)})
		}
	}
	window := r.Total.Window.Length().Seconds()
	if s.Busy == nil || len(cpus) == 0 || window <= 0 {
		return u, true
	}
	capacity := window * float64(len(cpus))
	u.Measured = true
	u.Busy = s.Busy.Busy
	u.Interrupts = min(s.Busy.IRQ/capacity, 1)
	if c := r.ServerCPU; c != nil {
		u.Server, u.HasServer = min(c.Seconds/capacity, 1), true
	}
	kaeload := s.Controller
	for i := range r.Groups {
		g := &r.Groups[i]
		if g.Host != s.Host || g.Process == nil {
			continue
		}
		mine := cpuList(g.CPUs)
		if len(mine) == 0 && g.CPU != nil { // unpinned: the CPUs it measured itself on
			mine = cpuList(g.CPU.CPUs)
		}
		if len(mine) > 0 {
			kaeload += g.Process.Seconds * float64(len(intersect(mine, cpus))) / float64(len(mine))
		}
	}
	u.Kaeload = min(kaeload/capacity, 1)
	u.Others = max(u.Busy-u.Server-u.Kaeload-u.Interrupts, 0)
	u.OtherLoad = u.HasServer && u.Others >= ServerOtherLoadShare
	return u, true
}

// serverOnGroup is the share of group g's CPU time that the server's
// processes took when g runs on some of the server's CPUs on its host:
// the server's time spread evenly over its CPUs, the part on g's CPUs.
// It returns the server's PIDs too, so that g's busiest others can leave
// them out; 0 and nil when g shares no CPU with the server.
func (r *Rep) serverOnGroup(g *Group) (float64, []int) {
	s, c := r.ServerCPUs, r.ServerCPU
	if s == nil || g.CPUs == "" || g.Host != s.Host || g.CPU == nil {
		return 0, nil
	}
	server, mine := cpuList(s.CPUs), cpuList(g.CPUs)
	common := intersect(mine, server)
	if len(common) == 0 {
		return 0, nil
	}
	window := r.Total.Window.Length().Seconds()
	if c == nil || window <= 0 {
		return 0, s.PIDs
	}
	on := c.Seconds * float64(len(common)) / float64(len(server))
	return min(on/(window*float64(len(mine))), 1), s.PIDs
}

// cpuList parses a CPU list in taskset form ("0-3,8"), ascending and
// without duplicates; what does not parse is left out (the record's
// lists are written by pinning.Set.String).
func cpuList(s string) []int {
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			continue
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a || b-a > 1<<16 {
				continue
			}
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// intersect returns the CPUs of a that are in b (both ascending).
func intersect(a, b []int) []int {
	var out []int
	for _, c := range a {
		if _, ok := slices.BinarySearch(b, c); ok {
			out = append(out, c)
		}
	}
	return out
}

// cpuString writes ascending CPUs in taskset form ("0-3,8").
func cpuString(cpus []int) string {
	var b strings.Builder
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(cpus[i]))
		if j > i {
			b.WriteString("-" + strconv.Itoa(cpus[j]))
		}
		i = j + 1
	}
	return b.String()
}
