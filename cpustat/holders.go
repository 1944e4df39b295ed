package cpustat

import (
	"fmt"

	"github.com/shirou/gopsutil/v4/process"
)

// Holder is a process family listening on a port, named by its root.
type Holder struct {
	PID  int
	Name string
}

func (h Holder) String() string { return fmt.Sprintf("%s (pid %d)", h.Name, h.PID) }

// PortHolders returns, sorted by PID, the roots of the process families
// listening on TCP port now (as FindListener climbs) that it can see.
func PortHolders(port int) ([]Holder, error) {
	inodes, err := (&Listener{Port: port}).listening()
	if err != nil || len(inodes) == 0 {
		return nil, err
	}
	pids, err := socketHolders(inodes)
	if err != nil {
		return nil, err
	}
	var out []Holder
	for _, root := range familyRoots(pids) {
		name, err := (&process.Process{Pid: int32(root)}).Name()
		if err != nil {
			name = "?"
		}
		out = append(out, Holder{PID: root, Name: name})
	}
	return out, nil
}
