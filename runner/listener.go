package runner

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/kaeload/kaeload/cpustat"
)

// listenSource is where the target's listening socket is read for the
// timeline: here (sock_diag), on the server host over ssh (ss), or
// nowhere, for why.
type listenSource struct {
	host string
	port int
	read func(ctx context.Context) (cpustat.ListenQueue, error) // nil: not read, for why
	why  string
}

// listenSource finds where the target's listener can be read: here for
// the built-in target and a local server in this namespace, over ssh for
// the server host's.
func (c *controller) listenSource() listenSource {
	host, portText, err := net.SplitHostPort(c.plan.Target.Addr)
	port, _ := strconv.Atoi(portText)
	src := listenSource{host: localHost, port: port}
	if err != nil || port <= 0 {
		src.why = fmt.Sprintf("the target's address %q has no port", c.plan.Target.Addr)
		return src
	}
	local := func(context.Context) (cpustat.ListenQueue, error) { return cpustat.ReadListenQueue(port) }
	switch hc := c.serverHost(); {
	case c.builtin:
		src.read = local
	case hc != nil:
		src.host = hc.name
		src.read = func(ctx context.Context) (cpustat.ListenQueue, error) {
			out, err := hc.read(ctx, "read the listen queue", cpustat.RemoteListenQueueCommand(port))
			if err != nil {
				return cpustat.ListenQueue{}, err
			}
			return cpustat.ParseListenQueue(out)
		}
	case c.serverPID > 0:
		theirs, err1 := cpustat.ProcessNetNS(c.serverPID)
		ours, err2 := cpustat.LocalNetNS()
		if err1 == nil && err2 == nil && !theirs.Same(ours) {
			src.why = fmt.Sprintf("the server runs in another network namespace (%s) than kaeload (%s)", theirs, ours)
			return src
		}
		src.read = local
	case isLocal(net.ParseIP(host)):
		src.read = local
	default:
		src.host = host
		src.why = fmt.Sprintf("the server (%s) is on a machine kaeload does not reach", c.plan.Target.Addr)
	}
	return src
}

// errNoListener is a reading that found nothing listening on the port.
var errNoListener = errors.New("nothing listens on the target's port")

// firstListen takes the listener's first reading now.
func firstListen(ctx context.Context, src listenSource) firstSample[cpustat.ListenQueueDelta] {
	if src.read == nil {
		return sampleNow[cpustat.ListenQueueDelta](nil)
	}
	read := func() (cpustat.ListenQueue, error) {
		q, err := src.read(ctx)
		if err == nil && q.Sockets == 0 {
			err = errNoListener
		}
		return q, err
	}
	f := sampleNow(sampledMeter(read, func(a, b cpustat.ListenQueue, _ time.Duration) cpustat.ListenQueueDelta { return a.Delta(b) }))
	if f.err != nil {
		f.err = fmt.Errorf("the target's listener: %w", f.err)
	}
	return f
}
