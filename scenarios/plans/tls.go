package plans

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
)

// Curves are the key-exchange groups a plan may offer, as crypto/tls implements them.
var Curves = []tls.CurveID{
	tls.X25519, tls.CurveP256, tls.CurveP384, tls.CurveP521,
	tls.X25519MLKEM768, tls.SecP256r1MLKEM768, tls.SecP384r1MLKEM1024,
}

// VersionName is "1.2" or "1.3", or the hex value ("0x0301") for another version.
func VersionName(v uint16) string {
	switch v {
	case tls.VersionTLS12:
		return "1.2"
	case tls.VersionTLS13:
		return "1.3"
	}
	return fmt.Sprintf("0x%04x", v)
}

// Config builds a new crypto/tls client configuration. It leaves
// ClientSessionCache unset: the engine sets one per slot only with Resumption.
func (t *TLS) Config() (*tls.Config, error) {
	c := &tls.Config{
		MinVersion:         t.MinVersion,
		MaxVersion:         t.MaxVersion,
		InsecureSkipVerify: !t.Verify,
		ServerName:         t.ServerName,
	}
	if len(t.CipherSuites) > 0 {
		c.CipherSuites = append([]uint16(nil), t.CipherSuites...)
	}
	for _, id := range t.Curves {
		c.CurvePreferences = append(c.CurvePreferences, tls.CurveID(id))
	}
	if t.Verify && len(t.CAPEM) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(t.CAPEM) {
			return nil, fmt.Errorf("tls config: no PEM certificate in the CA bundle")
		}
		c.RootCAs = pool
	}
	return c, nil
}
