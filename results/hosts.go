package results

import "time"

// RemoteHost is what a run records about one ssh host.
type RemoteHost struct {
	Name     string `json:"name"`               // as in the scenario
	Roles    string `json:"roles,omitempty"`    // "groups 1, 2", "the server"
	Platform string `json:"platform,omitempty"` // GOOS/GOARCH
	Binary   string `json:"binary_sha256,omitempty"`
	Uploaded bool   `json:"uploaded,omitempty"` // by this run, else found
	// RTT and ClockOffset as last measured (per window: Group.ClockOffset).
	RTT         time.Duration `json:"rtt,omitempty"`
	ClockOffset time.Duration `json:"clock_offset,omitempty"`
	Uncertain   bool          `json:"clock_uncertain,omitempty"` // half the RTT exceeded 1 % of the window
	Facts       *RemoteFacts  `json:"facts,omitempty"`
}

// RemoteFacts are facts about a remote machine, read over ssh.
type RemoteFacts struct {
	Kernel   string `json:"kernel,omitempty"` // uname -srm
	CPUs     int    `json:"cpus,omitempty"`   // nproc
	CPUModel string `json:"cpu_model,omitempty"`
}
