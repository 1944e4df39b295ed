package results

// ServerCPUs is what ran on the server's CPUs during a window (Builtin: on the client's by design).
type ServerCPUs struct {
	CPUs       string       `json:"cpus"`           // the server's affinities, or the host's CPUs
	Host       string       `json:"host,omitempty"` // "" = the controller's
	Builtin    bool         `json:"builtin,omitempty"`
	Name       string       `json:"name,omitempty"`               // the PIDs' root's, without server control
	PIDs       []int        `json:"pids,omitempty"`               // root first
	Busy       *CPUUsage    `json:"busy,omitempty"`               // by anything, CPU by CPU
	Controller float64      `json:"controller_seconds,omitempty"` // when on the server's host
	Others     []ProcessCPU `json:"others,omitempty"`             // at most OthersListed
}

// ServerOtherLoadShare is the share of the server's CPU time others must take to be reported: a
// nice 10 loop beside a saturated server gets a tenth of a CPU, yet takes all it leaves.
const ServerOtherLoadShare = 0.10

// ServerSaturatedBusy is how busy the server's CPUs must be for a window to have loaded it.
const ServerSaturatedBusy = 0.80

// OtherLoadShare is the share of a group's CPU time others must take for a warning.
const OtherLoadShare = 0.25
