package nginxtest

import (
	"crypto/tls"
	"io"
	"net/http"
	"testing"
)

func get(t *testing.T, c *http.Client, url string) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d, want 200", resp.StatusCode)
	}
}

// TestSessionReuse checks the helper's two modes against a client that
// always offers resumption: off means every logged handshake is full.
func TestSessionReuse(t *testing.T) {
	for _, reuse := range []bool{false, true} {
		s := Start(t, Config{SessionReuse: reuse, Protocols: "TLSv1.2"})
		cache := tls.NewLRUClientSessionCache(4)
		for i := 0; i < 3; i++ {
			tr := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true, ClientSessionCache: cache}, DisableKeepAlives: true}
			get(t, &http.Client{Transport: tr}, "https://"+s.Addr+"/index.html")
		}
		lines := s.Log(t)
		if got, want := len(lines), 3; got != want {
			t.Fatalf("reuse=%v: %d log lines, want %d", reuse, got, want)
		}
		reused := 0
		for _, l := range lines {
			if l.Reused {
				reused++
			}
			if l.Protocol != "TLSv1.2" {
				t.Errorf("protocol %q, want TLSv1.2", l.Protocol)
			}
		}
		if reuse && reused != 2 || !reuse && reused != 0 {
			t.Errorf("reuse=%v: %d of 3 handshakes resumed", reuse, reused)
		}
	}
}

func TestParseLine(t *testing.T) {
	l, err := ParseLine("1764680000.123 200 . TLSv1.3 TLS_AES_256_GCM_SHA384 853 7 1")
	if err != nil {
		t.Fatal(err)
	}
	if l.Time.UnixMilli() != 1764680000123 || l.Status != 200 || l.Reused || l.Protocol != "TLSv1.3" ||
		l.Cipher != "TLS_AES_256_GCM_SHA384" || l.Bytes != 853 || l.Conn != 7 || l.ConnReqs != 1 {
		t.Errorf("got %+v", l)
	}
	if _, err := ParseLine("garbage"); err == nil {
		t.Error("garbage parsed without error")
	}
}
