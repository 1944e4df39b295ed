package target

import (
	"crypto/tls"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kaeload/kaeload/accel"
)

// TestAccel: with an accelerator every handshake's signature is real (the
// client verifies it, in TLS 1.2 and 1.3), the counters answer at
// AccelPath, and SetAccel takes a new environment as a restart would.
func TestAccel(t *testing.T) {
	cfg := accel.Defaults()
	cfg.Capacity, cfg.SoftCPU, cfg.Latency = 10000, 100*time.Microsecond, 100*time.Microsecond
	s := start(t, Options{Cert: "", CertFile: "", Accel: &cfg, Getenv: func(k string) string { return map[string]string{accel.RatioEnv: "50"}[k] }})
	for _, v := range []uint16{tls.VersionTLS12, tls.VersionTLS13} {
		for range 2 {
			dialGet(t, s.Addr(), &tls.Config{InsecureSkipVerify: true, MaxVersion: v})
		}
	}
	if got, want := s.Accel().Counters(), (accel.Counters{Soft: 2, Offloaded: 2, Busy: 200 * time.Microsecond}); got != want {
		t.Errorf("counters %+v, want %+v", got, want)
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	defer client.CloseIdleConnections()
	resp, err := client.Get("https://" + s.Addr() + AccelPath)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if got, want := string(body), "accel_soft 2\naccel_offload 3\naccel_retry 0\naccel_busy_ms 0.3\n"; got != want { // this GET's handshake offloaded
		t.Errorf("GET %s:\n%s\nwant\n%s", AccelPath, got, want)
	}
	a, err := s.SetAccel(func(k string) string { return map[string]string{accel.SpecEnv: "off"}[k] })
	if err != nil {
		t.Fatal(err)
	}
	dialGet(t, s.Addr(), &tls.Config{InsecureSkipVerify: true})
	if got := a.Counters(); got.Soft != 1 || got.Offloaded != 0 {
		t.Errorf("after SetAccel off: %+v, want one signature in software", got)
	}
	if _, err := s.SetAccel(func(k string) string { return map[string]string{accel.RatioEnv: "x"}[k] }); err == nil || !strings.Contains(err.Error(), accel.RatioEnv) {
		t.Errorf("a bad ratio: got %v, want an error naming %s", err, accel.RatioEnv)
	}
}
