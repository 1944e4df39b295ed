package cpustat

import (
	"fmt"
	"slices"
	"time"

	"github.com/shirou/gopsutil/v4/process"
)

// Holder is a process family listening on a port, named by its root.
type Holder struct {
	PID     int
	Name    string
	Started time.Time // the root's start; zero when unreadable
}

func (h Holder) String() string { return fmt.Sprintf("%s (pid %d)", h.Name, h.PID) }

// PortHolders returns the process families listening on TCP port of this
// machine now, each by its root as FindListener climbs to it, sorted by
// PID; none when nothing listens. Sockets whose holder cannot be seen
// (another user's, when not root) are left out.
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
	for _, pid := range pids {
		root := familyRoot(pid)
		if slices.ContainsFunc(out, func(h Holder) bool { return h.PID == root }) {
			continue
		}
		h := Holder{PID: root, Name: "?"}
		if p, err := process.NewProcess(int32(root)); err == nil {
			if n, err := p.Name(); err == nil {
				h.Name = n
			}
			if ms, err := p.CreateTime(); err == nil {
				h.Started = time.UnixMilli(ms)
			}
		}
		out = append(out, h)
	}
	slices.SortFunc(out, func(a, b Holder) int { return a.PID - b.PID })
	return out, nil
}
