package target

import (
	"cmp"
	"context"
	"crypto"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/kaeload/kaeload/accel"
	"github.com/kaeload/kaeload/scenarios/plans"
)

// DefaultBody is the response body the server sends when Options.Body is empty.
var DefaultBody = []byte("kaeload target\n")

// DefaultCert is the certificate kind generated when Options names none.
const DefaultCert = "rsa2048"

// Options configure the built-in target.
type Options struct {
	Addr              string // "127.0.0.1:0" picks a free port
	Cert              string // a CertKinds; "" is DefaultCert unless CertFile is set
	CertFile, KeyFile string // a PEM certificate and key to serve instead; both or neither
	Resumption        bool   // session tickets; without them every handshake is full
	Body              []byte // "" is DefaultBody
	// HandshakeWork is that many SHA-256 hashes in every handshake: CPU
	// work, not sleep, for tests of what a run measures.
	HandshakeWork int
	// Accel puts a simulated accelerator under Getenv's environment (nil:
	// this process's) behind every signature; the certificate is then
	// ecdsa-p256 unless named. GET AccelPath answers its counters.
	Accel  *plans.Accel
	Getenv func(string) string
}

// AccelPath is where a server with an accelerator answers its counters.
const AccelPath = "/.kaeload/accel"

// Stats are the server's counters since Listen.
type Stats struct {
	Connections uint64
	Handshakes  uint64 // that reached connection verification (only the client's Finished left)
	Resumed     uint64
	Requests    uint64
}

// Server is the built-in HTTPS target: HTTP/1.1 answering every request
// with a fixed 200, keeping connections alive unless asked to close.
type Server struct {
	ln   net.Listener
	srv  *http.Server
	body []byte

	connections atomic.Uint64
	handshakes  atomic.Uint64
	resumed     atomic.Uint64
	requests    atomic.Uint64

	accelCfg *plans.Accel
	accel    atomic.Pointer[accel.Accel]
}

// Listen loads or generates the certificate and listens on o.Addr; see Serve.
func Listen(o Options) (*Server, error) {
	cert, err := loadCert(o)
	if err != nil {
		return nil, err
	}
	s := &Server{body: o.Body, accelCfg: o.Accel}
	if len(s.body) == 0 {
		s.body = DefaultBody
	}
	if o.Accel != nil {
		key, ok := cert.PrivateKey.(crypto.Signer)
		if !ok {
			return nil, fmt.Errorf("target: accel: a %T key cannot sign", cert.PrivateKey)
		}
		if _, err := s.SetAccel(o.Getenv); err != nil {
			return nil, err
		}
		cert.PrivateKey = accel.Signer(key, s.accel.Load)
	}
	cfg := &tls.Config{
		Certificates:           []tls.Certificate{cert},
		MinVersion:             tls.VersionTLS12,
		SessionTicketsDisabled: !o.Resumption,
		NextProtos:             []string{"http/1.1"},
		VerifyConnection: func(cs tls.ConnectionState) error {
			// Called once per completed handshake, full or resumed.
			accel.Burn(o.HandshakeWork)
			s.handshakes.Add(1)
			if cs.DidResume {
				s.resumed.Add(1)
			}
			return nil
		},
	}
	tcp, err := net.Listen("tcp", cmp.Or(o.Addr, "127.0.0.1:0"))
	if err != nil {
		return nil, fmt.Errorf("target: listen: %w", err)
	}
	s.ln = tls.NewListener(tcp, cfg)
	length := []string{strconv.Itoa(len(s.body))}
	contentType := []string{"text/plain; charset=utf-8"}
	s.srv = &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if a := s.accel.Load(); a != nil && r.URL.Path == AccelPath {
				_, _ = io.WriteString(w, a.Counters().Text())
				return
			}
			h := w.Header()
			h["Content-Length"] = length
			h["Content-Type"] = contentType
			_, _ = w.Write(s.body)
			s.requests.Add(1)
		}),
		TLSConfig:         cfg,
		TLSNextProto:      map[string]func(*http.Server, *tls.Conn, http.Handler){}, // HTTP/1.1 only
		ReadHeaderTimeout: 30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		// Failed handshakes are normal under load (clients abandon
		// connections at the end of a window); don't log each one.
		ErrorLog: log.New(io.Discard, "", 0),
		ConnState: func(_ net.Conn, st http.ConnState) {
			if st == http.StateNew {
				s.connections.Add(1)
			}
		},
	}
	return s, nil
}

func loadCert(o Options) (c tls.Certificate, err error) {
	switch {
	case o.CertFile == "" && o.KeyFile == "":
		kind := cmp.Or(o.Cert, DefaultCert)
		if o.Cert == "" && o.Accel != nil {
			kind = "ecdsa-p256"
		}
		if c, err = LoadCert(kind); err != nil {
			err = fmt.Errorf("target: %w", err)
		}
	case o.CertFile == "" || o.KeyFile == "":
		err = errors.New("target: cert file and key file go together")
	case o.Cert != "":
		err = fmt.Errorf("target: certificate kind %q and certificate file are exclusive", o.Cert)
	default:
		if c, err = tls.LoadX509KeyPair(o.CertFile, o.KeyFile); err != nil {
			err = fmt.Errorf("target: load certificate: %w", err)
		}
	}
	return c, err
}

// Addr is the address the server listens on, e.g. "127.0.0.1:8443".
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Serve answers connections until ctx is done, then closes them all; once.
func (s *Server) Serve(ctx context.Context) error {
	done := make(chan error, 1)
	go func() { done <- s.srv.Serve(s.ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("target: serve: %w", err)
	case <-ctx.Done():
		_ = s.srv.Close()
		if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("target: serve: %w", err)
		}
		return nil
	}
}

// Close closes the listener of a server whose Serve was never called.
func (s *Server) Close() error { return s.ln.Close() }

// Stats returns the server's counters.
func (s *Server) Stats() Stats {
	return Stats{s.connections.Load(), s.handshakes.Load(), s.resumed.Load(), s.requests.Load()}
}

// SetAccel gives the server a fresh accelerator under getenv, as a restart would.
func (s *Server) SetAccel(getenv func(string) string) (*accel.Accel, error) {
	if s.accelCfg == nil {
		return nil, nil
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	a, err := accel.New(*s.accelCfg, getenv)
	if err != nil {
		return nil, fmt.Errorf("target: %w", err)
	}
	s.accel.Store(a)
	return a, nil
}

// Accel is the server's accelerator now; nil without one.
func (s *Server) Accel() *accel.Accel { return s.accel.Load() }

// AccelProbeNames name the accelerator's counters as probes.
var AccelProbeNames = accel.ProbeNames

// AccelProbe is the accelerator's counter name now; 0 without one.
func (s *Server) AccelProbe(name string) float64 {
	if a := s.accel.Load(); a != nil {
		return a.Counters().Value(name)
	}
	return 0
}
