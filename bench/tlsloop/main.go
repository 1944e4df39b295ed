// Command tlsloop is the floor bench/peers.sh sets every HTTPS load
// generator against: the least a Go client can do per request (dial, TLS
// handshake, one GET, read, close), with no histograms and no HTTP library.
//
//	tlsloop -addr 127.0.0.1:8443 -c 32 -d 3s            # close
//	tlsloop -addr 127.0.0.1:8443 -c 32 -d 3s -keepalive
package main

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8443", "server host:port")
	conns := flag.Int("c", 32, "concurrent connections")
	dur := flag.Duration("d", 3*time.Second, "how long to run")
	keepAlive := flag.Bool("keepalive", false, "keep connections open (default: a new connection and handshake per request)")
	maxVersion := flag.String("max-version", "1.3", "highest TLS version offered: 1.2 or 1.3")
	flag.Parse()

	maxV, ok := map[string]uint16{"1.2": tls.VersionTLS12, "1.3": tls.VersionTLS13}[*maxVersion]
	if !ok {
		fmt.Fprintf(os.Stderr, "tlsloop: -max-version %q: want 1.2 or 1.3\n", *maxVersion)
		os.Exit(2)
	}
	cfg := &tls.Config{
		InsecureSkipVerify: true,
		ServerName:         "localhost",
		MinVersion:         tls.VersionTLS12,
		MaxVersion:         maxV,
		// The same groups kaeload offers by default: no hybrid
		// post-quantum key share.
		CurvePreferences:       []tls.CurveID{tls.X25519, tls.CurveP256},
		SessionTicketsDisabled: true,
	}
	req := []byte("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
	if *keepAlive {
		req = []byte("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
	}
	end := time.Now().Add(*dur)
	var requests, failures atomic.Uint64
	var firstErr error
	var once sync.Once
	failed := func(err error) {
		failures.Add(1)
		once.Do(func() { firstErr = err })
	}
	var wg sync.WaitGroup
	for range *conns {
		wg.Go(func() {
			br := bufio.NewReaderSize(nil, 16<<10)
			for time.Now().Before(end) {
				raw, err := net.DialTimeout("tcp", *addr, 5*time.Second)
				if err != nil {
					failed(err)
					continue
				}
				c := tls.Client(raw, cfg) // closed through raw: no close_notify to send
				br.Reset(c)
				for again := true; again && time.Now().Before(end); again = *keepAlive {
					_ = raw.SetDeadline(time.Now().Add(5 * time.Second))
					if err := exchange(c, br, req); err != nil {
						failed(err)
						break
					}
					requests.Add(1)
				}
				_ = raw.Close()
			}
		})
	}
	wg.Wait()
	fmt.Printf("requests %d errors %d\n", requests.Load(), failures.Load())
	if firstErr != nil {
		fmt.Printf("first error: %v\n", firstErr)
	}
}

// exchange writes req on c (handshaking first if needed) and reads one
// response from br: the header block, then a Content-Length body.
func exchange(c *tls.Conn, br *bufio.Reader, req []byte) error {
	if _, err := c.Write(req); err != nil {
		return err
	}
	length := -1
	for first := true; ; first = false {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return err
		}
		if first {
			if !bytes.HasPrefix(line, []byte("HTTP/1.")) {
				return fmt.Errorf("bad status line %q", line)
			}
			continue
		}
		if len(line) <= 2 { // the blank line ending the headers
			break
		}
		if k, v, ok := bytes.Cut(line, []byte(":")); ok && bytes.EqualFold(k, []byte("Content-Length")) {
			n, err := strconv.Atoi(string(bytes.TrimSpace(v)))
			if err != nil {
				return fmt.Errorf("bad Content-Length %q", v)
			}
			length = n
		}
	}
	if length < 0 {
		return errors.New("response without Content-Length")
	}
	_, err := br.Discard(length)
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return err
}
