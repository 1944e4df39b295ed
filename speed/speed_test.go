package speed

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// want is one expected result; Parse's output must contain it.
type want struct {
	label string
	value float64
	unit  string
}

// find returns the result whose Label is label.
func find(rs []Result, label string) (Result, bool) {
	for _, r := range rs {
		if r.Label() == label {
			return r, true
		}
	}
	return Result{}, false
}

// near reports whether got equals want to 1e-9 relative.
func near(got, want float64) bool {
	return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))
}

func TestParseFiles(t *testing.T) {
	tests := []struct {
		file  string
		count int
		wants []want
	}{
		{"bssl-speed-rsa.txt", 12, []want{
			{"RSA 2048 signing", 801.2, OpsPerSec},
			{"RSA 4096 verify (fresh key)", 8264.4, OpsPerSec},
			{"RSA 3072 private key parse", 2347.5, OpsPerSec},
		}},
		{"gmssl-speed-evp-sms4.txt", 6, []want{
			{"sms4-cbc 16 bytes", 26448180, BytesPerSec},
			{"sms4-cbc 1024 bytes", 36487850, BytesPerSec},
			{"sms4-cbc 16384 bytes", 35662510, BytesPerSec},
		}},
		{"openssl3-pk.txt", 5, []want{
			{"rsa 2048 bits sign", 3377.0, OpsPerSec},
			{"rsa 2048 bits verify", 53951.5, OpsPerSec},
			{"256 bits ecdsa (nistp256) sign", 43724.2, OpsPerSec},
			{"256 bits ecdsa (nistp256) verify", 14904.0, OpsPerSec},
			{"253 bits ecdh (X25519) op", 25386.0, OpsPerSec},
		}},
		{"openssl3-evp-aes-128-gcm.txt", 6, []want{
			{"AES-128-GCM 16 bytes", 36878290, BytesPerSec},
			{"AES-128-GCM 16384 bytes", 3003006980, BytesPerSec},
		}},
		{"openssl3-mr-pk.txt", 5, []want{
			{"rsa 2048 bits sign", 3310, OpsPerSec},
			{"rsa 2048 bits verify", 43069.696970, OpsPerSec},
			{"256 bits ecdsa sign", 39073.737374, OpsPerSec},
			{"256 bits ecdsa verify", 11969, OpsPerSec},
			{"253 bits ecdh op", 24548, OpsPerSec},
		}},
		{"openssl3-mr-evp.txt", 1, []want{
			{"AES-128-GCM 16 bytes", 34116304, BytesPerSec},
		}},
		// Recorded on the development machine (OpenSSL 3.0.19, -seconds 1).
		{"openssl3-ecdsap256.txt", 2, []want{
			{"256 bits ecdsa (nistp256) sign", 32102.4, OpsPerSec},
			{"256 bits ecdsa (nistp256) verify", 11199.0, OpsPerSec},
		}},
		{"openssl3-mr-ecdsap256.txt", 2, []want{
			{"256 bits ecdsa sign", 30545.744681, OpsPerSec},
			{"256 bits ecdsa verify", 10895.789474, OpsPerSec},
		}},
		// -async_jobs 4: the same table as without.
		{"openssl3-async4-rsa2048.txt", 2, []want{
			{"rsa 2048 bits sign", 1085.4, OpsPerSec},
			{"rsa 2048 bits verify", 37680.9, OpsPerSec},
		}},
		{"openssl3-mr-async4-rsa2048.txt", 2, []want{
			{"rsa 2048 bits sign", 1157.692308, OpsPerSec},
			{"rsa 2048 bits verify", 38625.373134, OpsPerSec},
		}},
		// -multi 2: the children's "Got: +F2…" lines are not results; the
		// summed table is.
		{"openssl3-multi2-rsa2048.txt", 2, []want{
			{"rsa 2048 bits sign", 1371.6, OpsPerSec},
			{"rsa 2048 bits verify", 42480.0, OpsPerSec},
		}},
		{"openssl3-mr-multi2-ecdsap256.txt", 2, []want{
			{"256 bits ecdsa sign", 64510, OpsPerSec},
			{"256 bits ecdsa verify", 21678, OpsPerSec},
		}},
		// -multi 2 ciphers: summed rows without a "type" header, their
		// block sizes from the children's "Got: +H…" lines.
		{"openssl3-multi2-evp-aes-128-gcm.txt", 1, []want{
			{"AES-128-GCM 1024 bytes", 1670232060, BytesPerSec},
		}},
		{"openssl3-multi2-evp-aes-128-gcm-all.txt", 6, []want{
			{"AES-128-GCM 16 bytes", 13024420, BytesPerSec},
			{"AES-128-GCM 16384 bytes", 1567879370, BytesPerSec},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			rs, err := Parse(string(data))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got, want := len(rs), tt.count; got != want {
				t.Errorf("got %d results, want %d: %+v", got, want, rs)
			}
			for _, w := range tt.wants {
				r, ok := find(rs, w.label)
				if !ok {
					t.Errorf("no result %q in %+v", w.label, rs)
					continue
				}
				if !near(r.Value, w.value) || r.Unit != w.unit {
					t.Errorf("%s: got %v %s, want %v %s", w.label, r.Value, r.Unit, w.value, w.unit)
				}
			}
		})
	}
}

func TestParseSplitsBssl(t *testing.T) {
	out := "Did 4823 RSA 2048 signing operations in 6019561us (801.2 ops/sec)\n" +
		"Did 7403000 AES-128-GCM (16 bytes) seal operations in 1000006us (7402955.6 ops/sec): 118.4 MB/s\n" +
		"Did 1000 ECDH P-256 operations in 1000000us (1000.0 ops/sec)\n"
	rs, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	want := []Result{
		{Algorithm: "RSA 2048", Operation: "signing", Value: 801.2, Unit: OpsPerSec},
		{Algorithm: "AES-128-GCM", Operation: "seal", Block: 16, Value: 7402955.6 * 16, Unit: BytesPerSec},
		{Algorithm: "ECDH P-256", Value: 1000, Unit: OpsPerSec},
	}
	if len(rs) != len(want) {
		t.Fatalf("got %+v, want %+v", rs, want)
	}
	for i := range want {
		if got := rs[i]; got.Algorithm != want[i].Algorithm || got.Operation != want[i].Operation || got.Block != want[i].Block || !near(got.Value, want[i].Value) || got.Unit != want[i].Unit {
			t.Errorf("result %d: got %+v, want %+v", i, got, want[i])
		}
	}
}

func TestParseTables(t *testing.T) {
	tests := []struct {
		name, out string
		wants     []want
	}{
		{"small figures have no k", "type 16 bytes 64 bytes\nslow 9000.00 12.50k\n",
			[]want{{"slow 16 bytes", 9000, BytesPerSec}, {"slow 64 bytes", 12500, BytesPerSec}}},
		{"names with spaces", "type             16 bytes     64 bytes\ndes ede3         26448.18k    32853.50k\n",
			[]want{{"des ede3 16 bytes", 26448180, BytesPerSec}, {"des ede3 64 bytes", 32853500, BytesPerSec}}},
		{"openssl 3.2 rsa with encrypt and decrypt",
			"                  sign    verify    encrypt   decrypt   sign/s verify/s  encr./s  decr./s\n" +
				"rsa  2048 bits 0.000487s 0.000014s 0.000015s 0.000486s   2052.5  71428.6  66061.9   2057.4\n",
			[]want{{"rsa 2048 bits sign", 2052.5, OpsPerSec}, {"rsa 2048 bits decr.", 2057.4, OpsPerSec}}},
		{"two tables in a row",
			"                  sign    verify    sign/s verify/s\nrsa 2048 bits 0.000296s 0.000019s   3377.0  53951.5\n" +
				"                              op      op/s\n 253 bits ecdh (X25519)   0.0000s  25386.0\n",
			[]want{{"rsa 2048 bits verify", 53951.5, OpsPerSec}, {"253 bits ecdh (X25519) op", 25386, OpsPerSec}}},
		{"CRLF line ends", "Did 10 RSA 2048 signing operations in 1000000us (10.0 ops/sec)\r\n",
			[]want{{"RSA 2048 signing", 10, OpsPerSec}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := Parse(tt.out)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := len(rs), countWanted(tt.out); got < len(tt.wants) || got > want {
				t.Errorf("got %d results %+v, want between %d and %d", got, rs, len(tt.wants), want)
			}
			for _, w := range tt.wants {
				r, ok := find(rs, w.label)
				if !ok {
					t.Errorf("no result %q in %+v", w.label, rs)
				} else if !near(r.Value, w.value) || r.Unit != w.unit {
					t.Errorf("%s: got %v %s, want %v %s", w.label, r.Value, r.Unit, w.value, w.unit)
				}
			}
		})
	}
}

// countWanted bounds the results a test output can hold: its number count.
func countWanted(out string) int {
	n := 0
	for _, f := range strings.Fields(out) {
		if numRE.MatchString(strings.TrimSuffix(f, "k")) {
			n++
		}
	}
	return n + 1
}

func TestParseErrors(t *testing.T) {
	for _, out := range []string{
		"",
		"openssl: command not found\n",
		"Doing 2048 bits private rsa's for 1s: 3377 2048 bits private RSA's in 1.00s\nversion: 3.0.19\n",
		"                  sign    verify    sign/s verify/s\nrsa 2048 bits 0.000296s 0.000019s   inf  nan\n",
		"type 16 bytes\naes -5.00k\n",
	} {
		rs, err := Parse(out)
		if err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", out, rs)
			continue
		}
		if got, want := err.Error(), "no speed results found: want bssl lines such as"; !strings.HasPrefix(got, want) {
			t.Errorf("Parse(%q): got error %q, want it to start with %q", out, got, want)
		}
	}
}

// TestParseMultiHeaderless: after -multi's "Got: +H" lines only rows whose
// every cell carries the k suffix are summed rows; banner lines are not.
func TestParseMultiHeaderless(t *testing.T) {
	out := "Got: +H:16:64 from 0\nGot: +F:25:aes:1.00:2.00 from 0\nversion: 3.0.19\noptions: 12 34\n" +
		"aes 1.50k 2.50k\nslow 12 13\n"
	rs, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].Label() != "aes 16 bytes" || rs[0].Value != 1500 || rs[1].Label() != "aes 64 bytes" || rs[1].Value != 2500 {
		t.Errorf("got %+v, want aes 16 and 64 bytes only", rs)
	}
}

// TestParseBsslOperationList: every kind of line in bssl speed's full
// operation list (the formats of BoringSSL's tool/speed.cc: key
// generation, AEADs with a block size and a MB/s suffix, hashes, point
// multiplications, post-quantum KEMs, scrypt with its parameters in
// parentheses) gives one figure.
func TestParseBsslOperationList(t *testing.T) {
	lines := []string{
		"Did 21000 RSA 2048 signing operations in 1042157us (20150.5 ops/sec)",
		"Did 441000 RSA 2048 verify (same key) operations in 1001185us (440478.0 ops/sec)",
		"Did 3498000 AES-128-GCM (16 bytes) seal operations in 1000118us (3497587.3 ops/sec): 56.0 MB/s",
		"Did 44000 AES-128-GCM (16384 bytes) open operations in 1011640us (43493.7 ops/sec): 712.6 MB/s",
		"Did 5000000 SHA-256 (16 bytes) operations in 1000109us (4999455.0 ops/sec): 80.0 MB/s",
		"Did 29000 ECDH P-256 operations in 1027651us (28219.7 ops/sec)",
		"Did 61000 ECDSA P-256 signing operations in 1011543us (60303.9 ops/sec)",
		"Did 22000 ECDSA P-256 verify operations in 1033290us (21291.2 ops/sec)",
		"Did 83000 Ed25519 key generation operations in 1006418us (82470.7 ops/sec)",
		"Did 34000 Curve25519 arbitrary point multiplication operations in 1009877us (33667.5 ops/sec)",
		"Did 2907 HRSS generate operations in 1035014us (2808.7 ops/sec)",
		"Did 48000 Kyber generate + decap operations in 1009174us (47563.7 ops/sec)",
		"Did 12 scrypt (N = 16384, r = 8, p = 1) operations in 1077560us (11.1 ops/sec)",
		"Did 130000 EC POINT P-256 mul_base operations in 1002418us (129686.4 ops/sec)",
		"Did 2000 hash-to-curve P384_XMD:SHA-384_SSWU_RO_ operations in 1046587us (1911.0 ops/sec)",
	}
	rs, err := Parse(strings.Join(lines, "\n") + "\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != len(lines) {
		t.Fatalf("%d figures from %d lines: %+v", len(rs), len(lines), rs)
	}
	for _, w := range []want{
		{"RSA 2048 verify (same key)", 440478.0, OpsPerSec},
		{"AES-128-GCM seal 16 bytes", 3497587.3 * 16, BytesPerSec},
		{"AES-128-GCM open 16384 bytes", 43493.7 * 16384, BytesPerSec},
		{"SHA-256 16 bytes", 4999455.0 * 16, BytesPerSec},
		{"ECDSA P-256 signing", 60303.9, OpsPerSec},
		{"Kyber generate + decap", 47563.7, OpsPerSec},
	} {
		r, ok := find(rs, w.label)
		if !ok || !near(r.Value, w.value) || r.Unit != w.unit {
			t.Errorf("%s: got %+v (found %v), want %v %s", w.label, r, ok, w.value, w.unit)
		}
	}
}

// TestParseEngineTables: an engine run of openssl speed or GmSSL prints
// the engine line first and, in OpenSSL 1.1.0-based GmSSL, "bit" tables
// for ecdsap256 and sm2: they parse like any other table.
func TestParseEngineTables(t *testing.T) {
	out := `engine "kae" set.
Doing 256 bit sign ecdsa's for 10s: 158633 256-bit ECDSA signs in 10.00s
Doing 256 bit verify ecdsa's for 10s: 61335 256-bit ECDSA verify in 10.00s
GmSSL 2.4.2 - OpenSSL 1.1.0d  3 Sep 2019
built on: reproducible build, date unspecified
options:bn(64,64) rc4(char) des(int) aes(partial) idea(int) blowfish(ptr)
compiler: gcc -DDSO_DLFCN -DHAVE_DLFCN_H
                              sign    verify    sign/s verify/s
 256 bit ecdsa (nistp256)   0.0001s   0.0002s  15863.3   6133.5
                              sign    verify    sign/s verify/s
 256 bit sm2 (sm2p256v1)   0.0001s   0.0003s  11712.9   3641.2
`
	rs, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 4 {
		t.Fatalf("got %+v, want 4 figures", rs)
	}
	for _, w := range []want{
		{"256 bit ecdsa (nistp256) sign", 15863.3, OpsPerSec},
		{"256 bit ecdsa (nistp256) verify", 6133.5, OpsPerSec},
		{"256 bit sm2 (sm2p256v1) verify", 3641.2, OpsPerSec},
	} {
		r, ok := find(rs, w.label)
		if !ok || !near(r.Value, w.value) {
			t.Errorf("%s: got %+v (found %v), want %v", w.label, r, ok, w.value)
		}
	}
}
