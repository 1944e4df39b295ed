package results

// ServerCPUs is what ran on the CPUs the server may run on during a
// window: the server (Rep.ServerCPU holds its own time), kaeload and
// other processes. analysis.RepServerCPUUse turns it into shares.
type ServerCPUs struct {
	// CPUs is the server's CPUs in taskset form: the union of its
	// processes' affinity masks, or the host's CPUs when none was read.
	CPUs string `json:"cpus"`
	// Host is the ssh host the server runs on ("" = the controller's).
	Host string `json:"host,omitempty"`
	// Builtin is set for kaeload's built-in target, which runs in the
	// controller and shares the client's CPUs by design: no group is
	// flagged as sharing them.
	Builtin bool `json:"builtin,omitempty"`
	// Name is the command of PIDs' root: with no server control, the
	// listener's processes are the server, and the report names them.
	Name string `json:"name,omitempty"`
	// PIDs are the server's processes at the window's end, root first.
	PIDs []int `json:"pids,omitempty"`
	// Busy is the busy time of the server's CPUs over the window, by
	// anything, CPU by CPU (/proc/stat); nil when not read.
	Busy *CPUUsage `json:"busy,omitempty"`
	// Controller is the controller's own CPU time over the window when
	// it runs on the server's host.
	Controller float64 `json:"controller_seconds,omitempty"`
	// Others lists the busiest other processes that may run on the
	// server's CPUs (at most OthersListed).
	Others []ProcessCPU `json:"others,omitempty"`
}

// ServerOtherLoadShare is the share of the server's CPU time other
// processes must take for a report to say the server did not have its
// CPUs to itself. Lower than OtherLoadShare: a nice 10 loop beside a
// saturated server gets only a tenth of a CPU, yet takes all it leaves.
const ServerOtherLoadShare = 0.10

// ServerSaturatedBusy is the share of its CPUs the server must use, or
// anything must keep busy, for a window to have loaded the server.
const ServerSaturatedBusy = 0.80

// OtherLoadShare is the share of a group's CPU time that processes other
// than kaeload's workers must take for a report to warn about it.
const OtherLoadShare = 0.25
