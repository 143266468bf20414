package proxy

import (
	"fmt"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// WriteKubeconfig writes a kubeconfig file (mode 0600) that points at the
// proxy with its CA and token, for the controller under test.
func (p *Proxy) WriteKubeconfig(path string) error {
	return p.WriteKubeconfigFor(path, p.Host())
}

// WriteKubeconfigFor writes a kubeconfig file (mode 0600) like
// WriteKubeconfig, pointing at host (HOST:PORT) instead of Host: the
// address Serve listens on.
func (p *Proxy) WriteKubeconfigFor(path, host string) error {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["sieve"] = &clientcmdapi.Cluster{Server: "https://" + host, CertificateAuthorityData: p.CA()}
	cfg.AuthInfos["sieve"] = &clientcmdapi.AuthInfo{Token: p.token}
	cfg.Contexts["sieve"] = &clientcmdapi.Context{Cluster: "sieve", AuthInfo: "sieve", Namespace: "default"}
	cfg.CurrentContext = "sieve"
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		return fmt.Errorf("proxy: kubeconfig: %w", err)
	}
	return nil
}
