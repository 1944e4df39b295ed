package results

// ServerCPUs is what ran on the CPUs the server may run on during a
// window (Rep.ServerCPU holds the server's own time).
type ServerCPUs struct {
	// CPUs is the union of the server's affinities, or the host's CPUs.
	CPUs string `json:"cpus"`
	Host string `json:"host,omitempty"` // "" = the controller's
	// Builtin is the built-in target, sharing the client's CPUs by design.
	Builtin bool `json:"builtin,omitempty"`
	// Name is the command of PIDs' root, named when there is no server
	// control; PIDs are the server's processes, root first.
	Name string `json:"name,omitempty"`
	PIDs []int  `json:"pids,omitempty"`
	// Busy is the CPUs' busy time by anything, CPU by CPU.
	Busy *CPUUsage `json:"busy,omitempty"`
	// Controller is its own CPU time when it runs on the server's host.
	Controller float64      `json:"controller_seconds,omitempty"`
	Others     []ProcessCPU `json:"others,omitempty"` // at most OthersListed
}

// ServerOtherLoadShare is the share of the server's CPU time others must
// take to be reported. Lower than OtherLoadShare: a nice 10 loop beside a
// saturated server gets a tenth of a CPU, yet takes all it leaves.
const ServerOtherLoadShare = 0.10

// ServerSaturatedBusy is the share of its CPUs the server must use, or
// anything must keep busy, for a window to have loaded the server.
const ServerSaturatedBusy = 0.80

// OtherLoadShare is the share of a group's CPU time that processes other
// than kaeload's workers must take for a report to warn about it.
const OtherLoadShare = 0.25
