package cluster

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sievetool/sieve/internal/hostile"
	"github.com/sievetool/sieve/lang/input"
)

// TestLoadKubeconfigBounded checks that a kubeconfig past its limit (a
// sparse file, as /dev/zero or a FIFO would be endless) is an error that
// says so, where client-go would read it whole.
func TestLoadKubeconfigBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kubeconfig")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(input.KubeconfigLimit + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = LoadKubeconfig(path, "")
	if !errors.Is(err, input.ErrTooLarge) {
		t.Fatalf("got %v, want a file too large error", err)
	}
	err = NewExisting(ExistingOptions{Path: path}).Start(t.Context())
	if !errors.Is(err, input.ErrTooLarge) {
		t.Fatalf("Start: got %v, want a file too large error", err)
	}
}

// TestLoadKubeconfigPaths checks that the chosen context is the one
// loaded, and that file names in the kubeconfig are resolved against its
// directory, as kubectl does.
func TestLoadKubeconfigPaths(t *testing.T) {
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	cc, err := LoadKubeconfig("testdata/kubeconfig.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := cc.RawConfig()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := raw.Clusters["theirs"].CertificateAuthority, filepath.Join(dir, "ca.crt"); got != want {
		t.Errorf("certificate authority %q, want %q", got, want)
	}
	if got, want := raw.AuthInfos["files"].ClientKey, filepath.Join(dir, "admin.key"); got != want {
		t.Errorf("client key %q, want %q", got, want)
	}
	cc, err = LoadKubeconfig("testdata/kubeconfig.yaml", "other")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := cc.ClientConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Host != "https://10.0.0.1:443" || cfg.BearerToken != "abc" {
		t.Errorf("context other: host %q, token %q", cfg.Host, cfg.BearerToken)
	}
}

// FuzzKubeconfig feeds arbitrary bytes to the kubeconfig reader, seeded
// with testdata/kubeconfig.yaml: reading it and its current context's
// client configuration must never panic, and errors are clear.
func FuzzKubeconfig(f *testing.F) {
	hostile.Seeds(f, 4<<10, "testdata/kubeconfig.yaml")
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "kubeconfig")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		cc, err := LoadKubeconfig(path, "")
		if err != nil {
			hostile.CheckError(t, err, b)
			return
		}
		if _, err := cc.RawConfig(); err != nil {
			hostile.CheckError(t, err, b)
		}
		if _, err := cc.ClientConfig(); err != nil {
			hostile.CheckError(t, err, b)
		}
	})
}

// TestLoadKubeconfigFiles refuses a kubeconfig whose certificate or token
// file is not a regular file (a device client-go would read without end)
// or is too large, naming the file.
func TestLoadKubeconfigFiles(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.crt")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(input.KubeconfigLimit + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for file, want := range map[string]string{"/dev/zero": "/dev/zero: not a regular file", big: "big.crt: file too large"} {
		path := filepath.Join(dir, "kubeconfig")
		conf := "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]\n" +
			"users: [{name: u, user: {tokenFile: '" + file + "'}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n"
		if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := LoadKubeconfig(path, "")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("token file %s: got %v, want an error saying %q", file, err, want)
		}
	}
}
