package mailtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// CA is a certificate authority made up for one test: it signs server
// certificates for the test's servers, and a client trusts them through
// Pool (or the PEM file at File, for a configuration's ca_file).
type CA struct {
	Cert *x509.Certificate
	PEM  []byte         // the CA certificate, PEM encoded
	Pool *x509.CertPool // holding only the CA certificate
	File string         // a file holding PEM, in the test's temporary directory

	key    *ecdsa.PrivateKey
	serial int64
}

// NewCA makes a CA valid from an hour ago for a day.
func NewCA(t testing.TB) *CA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "umpire test CA"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	ca := &CA{Cert: cert, key: key, serial: 1, Pool: x509.NewCertPool()}
	ca.Pool.AddCert(cert)
	ca.PEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	ca.File = filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca.File, ca.PEM, 0o600); err != nil {
		t.Fatal(err)
	}
	return ca
}

// Issue signs a server certificate for hosts (names or IP addresses).
func (ca *CA) Issue(t testing.TB, hosts ...string) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ca.serial++
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(ca.serial),
		Subject:      pkix.Name{CommonName: hosts[0]},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}
}

// TLS is how a test server speaks TLS.
type TLS struct {
	// Mode is config.TLSImplicit (TLS from the first byte) or
	// config.TLSStartTLS (the server offers STARTTLS and refuses to log in
	// before it).
	Mode string
	// Server holds the server's certificate.
	Server *tls.Config
	// Client is how the test's own helper connections (Deliver, Folder,
	// Client) check the server; the code under test brings its own.
	Client *tls.Config
}

// TLS returns a server configuration with a certificate for hosts signed by
// ca, and a client configuration trusting ca and expecting hosts[0].
func (ca *CA) TLS(t testing.TB, mode string, hosts ...string) TLS {
	t.Helper()
	cert := ca.Issue(t, hosts...)
	return TLS{
		Mode:   mode,
		Server: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		Client: &tls.Config{RootCAs: ca.Pool, ServerName: hosts[0]},
	}
}
