package embedded

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"os"
	"path/filepath"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/sievetool/sieve/interp/internal/pki"
)

// adminUser is the user the bearer token authenticates as; it is in the
// system:masters group.
const adminUser = "sieve-admin"

// credentials are the secrets a cluster is started with.
type credentials struct {
	ca, serving, signing *pki.KeyPair
	etcd                 *pki.KeyPair // etcd's server, peer and client certificate
	scheduler            *pki.KeyPair // the scheduler's serving certificate
	token                string
}

func newCredentials() (*credentials, error) {
	ca, err := newCA()
	if err != nil {
		return nil, err
	}
	serving, err := newServingCert(ca, net.ParseIP(kubernetesServiceIP))
	if err != nil {
		return nil, err
	}
	signing, err := pki.NewSigningKey()
	if err != nil {
		return nil, err
	}
	etcd, err := newEtcdCert(ca)
	if err != nil {
		return nil, err
	}
	// Given its certificate, the scheduler does not generate a
	// self-signed RSA key at start, which costs CPU.
	scheduler, err := newLoopbackCert(ca, "kube-scheduler")
	if err != nil {
		return nil, err
	}
	token, err := pki.Token(24)
	if err != nil {
		return nil, err
	}
	return &credentials{ca: ca, serving: serving, signing: signing, etcd: etcd, scheduler: scheduler, token: token}, nil
}

// write puts the credentials and the admin kubeconfig into the layout.
func (cr *credentials) write(l layout) error {
	if err := os.MkdirAll(l.path("pki"), 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", l.path("pki"), err)
	}
	files := map[string][]byte{
		"ca.crt":        cr.ca.Cert,
		"apiserver.crt": cr.serving.Cert,
		"apiserver.key": cr.serving.Key,
		"sa.pub":        cr.signing.Cert,
		"sa.key":        cr.signing.Key,
		"etcd.crt":      cr.etcd.Cert,
		"etcd.key":      cr.etcd.Key,
		"scheduler.crt": cr.scheduler.Cert,
		"scheduler.key": cr.scheduler.Key,
		"tokens.csv":    fmt.Appendf(nil, "%s,%s,%s,\"system:masters\"\n", cr.token, adminUser, adminUser),
	}
	for name, data := range files {
		if err := os.WriteFile(l.path("pki", name), data, 0o600); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	return WriteKubeconfig(l.kubeconfig(), cr.restConfig(l))
}

// restConfig is the admin client configuration.
func (cr *credentials) restConfig(l layout) *rest.Config {
	return &rest.Config{
		Host:            l.apiURL(),
		BearerToken:     cr.token,
		TLSClientConfig: rest.TLSClientConfig{CAData: cr.ca.Cert},
		QPS:             500,
		Burst:           1000,
	}
}

// WriteKubeconfig writes a kubeconfig file for a bearer-token client
// configuration such as Cluster.RESTConfig.
func WriteKubeconfig(path string, cfg *rest.Config) error {
	kc := clientcmdapi.NewConfig()
	kc.Clusters["sieve"] = &clientcmdapi.Cluster{Server: cfg.Host, CertificateAuthorityData: cfg.CAData}
	kc.AuthInfos["sieve"] = &clientcmdapi.AuthInfo{Token: cfg.BearerToken}
	kc.Contexts["sieve"] = &clientcmdapi.Context{Cluster: "sieve", AuthInfo: "sieve"}
	kc.CurrentContext = "sieve"
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("writing kubeconfig: %w", err)
	}
	if err := clientcmd.WriteToFile(*kc, path); err != nil {
		return fmt.Errorf("writing kubeconfig: %w", err)
	}
	return nil
}

// etcdTLS is the TLS configuration of sieve's own etcd client: etcd's
// certificate, and the CA that signed etcd's.
func (cr *credentials) etcdTLS() (*tls.Config, error) {
	cert, err := tls.X509KeyPair(cr.etcd.Cert, cr.etcd.Key)
	if err != nil {
		return nil, fmt.Errorf("etcd client certificate: %w", err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cr.ca.X509)
	return &tls.Config{Certificates: []tls.Certificate{cert}, RootCAs: pool, MinVersion: tls.VersionTLS12}, nil
}
