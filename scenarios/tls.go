package scenarios

import (
	"crypto/tls"
	"slices"
	"strings"

	"github.com/kaeload/kaeload/scenarios/plans"
)

// opensslSuites maps OpenSSL cipher names to the IANA names crypto/tls
// uses, for every TLS 1.0–1.2 suite Go implements. (TLS 1.3 suites have one
// name in both worlds, e.g. TLS_AES_128_GCM_SHA256.)
var opensslSuites = map[string]string{
	"ECDHE-ECDSA-AES128-GCM-SHA256": "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
	"ECDHE-RSA-AES128-GCM-SHA256":   "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
	"ECDHE-ECDSA-AES256-GCM-SHA384": "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
	"ECDHE-RSA-AES256-GCM-SHA384":   "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
	"ECDHE-ECDSA-CHACHA20-POLY1305": "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
	"ECDHE-RSA-CHACHA20-POLY1305":   "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
	"ECDHE-ECDSA-AES128-SHA":        "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA",
	"ECDHE-RSA-AES128-SHA":          "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
	"ECDHE-ECDSA-AES256-SHA":        "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA",
	"ECDHE-RSA-AES256-SHA":          "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
	"ECDHE-ECDSA-AES128-SHA256":     "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256",
	"ECDHE-RSA-AES128-SHA256":       "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256",
	"ECDHE-ECDSA-RC4-SHA":           "TLS_ECDHE_ECDSA_WITH_RC4_128_SHA",
	"ECDHE-RSA-RC4-SHA":             "TLS_ECDHE_RSA_WITH_RC4_128_SHA",
	"ECDHE-RSA-DES-CBC3-SHA":        "TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA",
	"AES128-GCM-SHA256":             "TLS_RSA_WITH_AES_128_GCM_SHA256",
	"AES256-GCM-SHA384":             "TLS_RSA_WITH_AES_256_GCM_SHA384",
	"AES128-SHA":                    "TLS_RSA_WITH_AES_128_CBC_SHA",
	"AES256-SHA":                    "TLS_RSA_WITH_AES_256_CBC_SHA",
	"AES128-SHA256":                 "TLS_RSA_WITH_AES_128_CBC_SHA256",
	"DES-CBC3-SHA":                  "TLS_RSA_WITH_3DES_EDE_CBC_SHA",
	"RC4-SHA":                       "TLS_RSA_WITH_RC4_128_SHA",
}

// suiteInfo is what Compile needs to know about one cipher suite.
type suiteInfo struct {
	id       uint16
	tls13    bool // a TLS 1.3 suite (not configurable in crypto/tls)
	insecure bool // from tls.InsecureCipherSuites
}

// lookupSuite finds a suite by OpenSSL or IANA name (case-insensitive).
func lookupSuite(name string) (suiteInfo, bool) {
	iana := strings.ToUpper(name)
	if n, ok := opensslSuites[iana]; ok {
		iana = n
	}
	for _, cs := range append(tls.CipherSuites(), tls.InsecureCipherSuites()...) {
		if cs.Name == iana {
			return suiteInfo{cs.ID, slices.Equal(cs.SupportedVersions, []uint16{tls.VersionTLS13}), cs.Insecure}, true
		}
	}
	return suiteInfo{}, false
}

// opensslName returns the OpenSSL spelling of a suite, or its IANA name.
func opensslName(id uint16) string {
	iana := tls.CipherSuiteName(id)
	for o, n := range opensslSuites {
		if n == iana {
			return o
		}
	}
	return iana
}

// curveNames maps accepted curve names (upper-cased) to their IDs: the
// names curveName shows plus the OpenSSL/IETF aliases.
var curveNames = func() map[string]tls.CurveID {
	m := map[string]tls.CurveID{"P256": tls.CurveP256, "PRIME256V1": tls.CurveP256, "SECP256R1": tls.CurveP256,
		"P384": tls.CurveP384, "SECP384R1": tls.CurveP384, "P521": tls.CurveP521, "SECP521R1": tls.CurveP521}
	for _, c := range plans.Curves {
		m[strings.ToUpper(curveName(uint16(c)))] = c
	}
	return m
}()

// curveList names the curves a plan may offer, for errors.
var curveList = joinMap(plans.Curves, ", ", func(c tls.CurveID) string { return curveName(uint16(c)) })

// isHybrid reports whether a group is a post-quantum hybrid (TLS 1.3 only).
func isHybrid(c tls.CurveID) bool { return strings.Contains(c.String(), "MLKEM") }

// curveName is the display name of a curve: P-256 for CurveP256.
func curveName(id uint16) string { return strings.Replace(tls.CurveID(id).String(), "CurveP", "P-", 1) }

// parseVersion accepts "1.2", "1.3", "TLS1.2", "TLSv1.3" (any case).
func parseVersion(s string) (uint16, bool) {
	v := strings.TrimPrefix(strings.TrimPrefix(strings.ToUpper(s), "TLS"), "V")
	n, ok := map[string]uint16{"1.2": tls.VersionTLS12, "1.3": tls.VersionTLS13}[v]
	return n, ok
}
