package scenarios

import (
	"crypto/tls"
	"encoding/pem"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/scenarios/plans"
)

// handshake dials srv with the plan's TLS config and returns the state.
func handshake(t *testing.T, p *plans.Plan, addr string) (tls.ConnectionState, error) {
	t.Helper()
	cfg, err := p.Target.TLS.Config()
	if err != nil {
		t.Fatalf("Config: %v", err)
	}
	if cfg.ClientSessionCache != nil {
		t.Errorf("Config set ClientSessionCache; the engine owns it")
	}
	d := &net.Dialer{Timeout: 5 * time.Second}
	conn, err := tls.DialWithDialer(d, "tcp", addr, cfg)
	if err != nil {
		return tls.ConnectionState{}, err
	}
	defer conn.Close()
	return conn.ConnectionState(), nil
}

// TestTLSConfigHandshakes checks the compiled TLS settings against a real
// TLS server on loopback: versions, suite, curve and verification.
func TestTLSConfigHandshakes(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	// Go's server default includes X25519MLKEM768 and prefers it, so the
	// default case proves the client does not offer it.
	srv.TLS = &tls.Config{}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the failing cases make the server log
	srv.StartTLS()
	defer srv.Close()
	addr := srv.Listener.Addr().String()
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(caFile, certPEM, 0o600); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name        string
		tls         string
		wantVersion uint16
		wantSuite   uint16
		wantCurve   tls.CurveID
		wantErr     string
	}{
		{"defaults: TLS 1.3, X25519 not the hybrid", "{}", tls.VersionTLS13, 0, tls.X25519, ""},
		{"TLS 1.2 with one OpenSSL-named suite", `{max_version: "1.2", ciphers: [ECDHE-RSA-AES256-GCM-SHA384]}`,
			tls.VersionTLS12, tls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, tls.X25519, ""},
		{"hybrid offered when listed", `{curves: [X25519MLKEM768, X25519]}`, tls.VersionTLS13, 0, tls.X25519MLKEM768, ""},
		{"curve restricted to P-256", `{curves: [P-256]}`, tls.VersionTLS13, 0, tls.CurveP256, ""},
		{"verify against the scenario CA", "{verify: true, ca: " + caFile + "}", tls.VersionTLS13, 0, tls.X25519, ""},
		{"verify against system roots fails", "{verify: true}", 0, 0, 0, "certificate signed by unknown authority"},
		{"verify with a wrong server name fails", "{verify: true, ca: " + caFile + ", server_name: other.test}", 0, 0, 0, "other.test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustCompile(t, "target: {url: 'https://"+addr+"/', tls: "+tt.tls+"}\n", eightCPUs)
			st, err := handshake(t, p, addr)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("handshake error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("handshake: %v", err)
			}
			if got, want := st.Version, tt.wantVersion; got != want {
				t.Errorf("version %s, want %s", plans.VersionName(got), plans.VersionName(want))
			}
			if tt.wantSuite != 0 {
				if got, want := st.CipherSuite, tt.wantSuite; got != want {
					t.Errorf("suite %s, want %s", tls.CipherSuiteName(got), tls.CipherSuiteName(want))
				}
			}
			if got, want := st.CurveID, tt.wantCurve; got != want {
				t.Errorf("curve %s, want %s", got, want)
			}
			if st.DidResume {
				t.Errorf("handshake resumed a session")
			}
		})
	}
}

// TestTLSConfigBadCA checks Config refuses a CA bundle without certificates.
func TestTLSConfigBadCA(t *testing.T) {
	_, err := (&plans.TLS{Verify: true, CAPEM: []byte("not pem")}).Config()
	if got, want := errString(err), "tls config: no PEM certificate in the CA bundle"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestCAFileRelativeToScenario checks tls.ca is read next to the scenario.
func TestCAFileRelativeToScenario(t *testing.T) {
	dir := t.TempDir()
	srv := httptest.NewTLSServer(http.NotFoundHandler())
	srv.Close()
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "ca.pem"), certPEM, 0o600))
	must(os.WriteFile(filepath.Join(dir, "junk.pem"), []byte("junk"), 0o600))
	must(os.WriteFile(filepath.Join(dir, "ok.yaml"), []byte("target: {url: https://127.0.0.1/, tls: {verify: true, ca: ca.pem}}\n"), 0o600))
	must(os.WriteFile(filepath.Join(dir, "bad.yaml"), []byte("target: {url: https://127.0.0.1/, tls: {verify: true, ca: junk.pem}}\n"), 0o600))
	s, err := LoadFile(filepath.Join(dir, "ok.yaml"))
	must(err)
	p, err := s.Compile(eightCPUs)
	must(err)
	mustCheck(t, p)
	if got, want := string(p.Target.TLS.CAPEM), string(certPEM); got != want {
		t.Errorf("CAPEM = %q, want %q", got, want)
	}
	s, err = LoadFile(filepath.Join(dir, "bad.yaml"))
	must(err)
	_, err = s.Compile(eightCPUs)
	want := filepath.Join(dir, "bad.yaml") + ":1:59: target.tls.ca: " + filepath.Join(dir, "junk.pem") + " holds no PEM certificate"
	if got := errString(err); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestLoadFileErrors checks unreadable files are reported with context.
func TestLoadFileErrors(t *testing.T) {
	_, err := LoadFile("testdata/does-not-exist.yaml")
	if got, want := errString(err), "read scenario: open testdata/does-not-exist.yaml: no such file or directory"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	_, err = LoadFile("testdata")
	if got, want := errString(err), "read scenario: testdata is not a regular file"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestCurveNamesArePlanCurves: every curve name the compiler accepts
// resolves to a curve a plan may hold (plans.Curves, what Check accepts),
// and every such curve has a name, so that no compiled plan fails Check
// and no curve a plan may hold is out of a scenario's reach.
func TestCurveNamesArePlanCurves(t *testing.T) {
	named := map[tls.CurveID]bool{}
	for name, id := range curveNames {
		if !slices.Contains(plans.Curves, id) {
			t.Errorf("curve name %s resolves to %v, which is not in plans.Curves", name, id)
		}
		named[id] = true
	}
	for _, id := range plans.Curves {
		if !named[id] {
			t.Errorf("plans.Curves holds %v, which no curve name resolves to", id)
		}
	}
}
