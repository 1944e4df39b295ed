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
// listening on TCP port now (as FindListener climbs); holders it cannot
// see are left out.
func PortHolders(port int) ([]Holder, error) {
	l := Listener{Port: port}
	inodes, err := l.listening()
	if err != nil || len(inodes) == 0 {
		return nil, err
	}
	pids, err := socketHolders(inodes)
	if err != nil {
		return nil, err
	}
	var out []Holder
	for _, root := range familyRoots(pids) {
		h := Holder{PID: root, Name: "?"}
		if p, err := process.NewProcess(int32(root)); err == nil {
			if n, err := p.Name(); err == nil {
				h.Name = n
			}
		}
		out = append(out, h)
	}
	return out, nil
}
