package results

import (
	"time"
)

// RemoteHost is what a run records about one ssh host.
type RemoteHost struct {
	// Name is the host as written in the scenario.
	Name string `json:"name"`
	// Roles says what it did: "groups 1, 2", "the server".
	Roles string `json:"roles,omitempty"`
	// Platform is its GOOS/GOARCH ("" when it ran no group).
	Platform string `json:"platform,omitempty"`
	// Binary is the sha256 of the kaeload binary its groups ran.
	Binary string `json:"binary_sha256,omitempty"`
	// Uploaded says the binary was uploaded by this run (else found).
	Uploaded bool `json:"uploaded,omitempty"`
	// RTT and ClockOffset are the last measured round trip and clock
	// offset (the host's clock minus the controller's); per window they
	// are in the groups (Group.ClockOffset).
	RTT         time.Duration `json:"rtt,omitempty"`
	ClockOffset time.Duration `json:"clock_offset,omitempty"`
	// Uncertain is set when half the round trip exceeded 1 % of the window.
	Uncertain bool `json:"clock_uncertain,omitempty"`
	// Facts are a few facts about the machine; nil when not read.
	Facts *RemoteFacts `json:"facts,omitempty"`
}

// RemoteFacts are facts about a remote machine, read over ssh.
type RemoteFacts struct {
	// Kernel is `uname -srm`.
	Kernel string `json:"kernel,omitempty"`
	// CPUs is `nproc`.
	CPUs int `json:"cpus,omitempty"`
	// CPUModel is /proc/cpuinfo's model name.
	CPUModel string `json:"cpu_model,omitempty"`
}
