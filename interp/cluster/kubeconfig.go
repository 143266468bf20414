package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	clientcmdv1 "k8s.io/client-go/tools/clientcmd/api/v1"
	"sigs.k8s.io/yaml"

	"github.com/sievetool/sieve/interp/internal/runlabel"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/input"
)

// ExistingOptions selects an existing cluster. Path is required: sieve never
// touches a cluster that was not named explicitly.
type ExistingOptions struct {
	// Path of the kubeconfig file.
	Path string
	// Context in it; empty means its current context.
	Context string
	// RunID labels what sieve creates (runlabel.Key); default "sieve-"
	// and 8 random hex digits, so that runs from any host, in containers
	// that share a PID, never take each other's objects for their own.
	RunID string
}

// Existing is a backend on a cluster sieve did not create. It works only
// inside namespaces it creates and labels, and deletes only what it created.
type Existing struct {
	opts   ExistingOptions
	cfg    *rest.Config
	dir    string
	claims []string
}

// NewExisting returns a backend for the cluster opts names.
func NewExisting(opts ExistingOptions) *Existing {
	if opts.RunID == "" {
		opts.RunID = newRunID()
	}
	return &Existing{opts: opts}
}

// newRunID is "sieve-" and 8 random hex digits.
func newRunID() string {
	var b [4]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24)
	return "sieve-" + hex.EncodeToString(b[:])
}

// RunID is the value of runlabel.Key on what this run creates.
func (e *Existing) RunID() string { return e.opts.RunID }

// Start loads the kubeconfig, checks the cluster answers and writes a
// kubeconfig holding only the chosen context for the controller.
func (e *Existing) Start(ctx context.Context) error {
	if e.opts.Path == "" {
		return errors.New("kubeconfig: no kubeconfig given (hint: pass --kubeconfig FILE to test against an existing cluster)")
	}
	loader, err := LoadKubeconfig(e.opts.Path, e.opts.Context)
	if err != nil {
		return err
	}
	raw, err := loader.RawConfig()
	if err != nil {
		return fmt.Errorf("kubeconfig: %s: %w", e.opts.Path, err)
	}
	if e.cfg, err = loader.ClientConfig(); err != nil {
		return fmt.Errorf("kubeconfig: %s: %w", e.opts.Path, err)
	}
	cs, err := kubernetes.NewForConfig(e.cfg)
	if err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	if _, err := cs.Discovery().ServerVersion(); err != nil {
		return fmt.Errorf("kubeconfig: cluster does not answer: %w", err)
	}
	if e.opts.Context != "" {
		raw.CurrentContext = e.opts.Context
	}
	if err := clientcmdapi.MinifyConfig(&raw); err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	if err := clientcmdapi.FlattenConfig(&raw); err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	if e.dir, err = os.MkdirTemp("", "sieve-kubeconfig-"); err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	return clientcmd.WriteToFile(raw, e.Kubeconfig())
}

// LoadKubeconfig reads the kubeconfig file path (within
// input.KubeconfigLimit: a huge or endless file, /dev/zero say, is an
// error, where client-go would read it whole) and returns its context
// kctx (empty: its current context). Relative file names in it are
// resolved against the file's directory, as kubectl does.
func LoadKubeconfig(path, kctx string) (clientcmd.ClientConfig, error) {
	b, err := input.ReadFile(path, input.KubeconfigLimit)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	cfg, err := parseKubeconfig(b, path)
	if err != nil {
		return nil, err
	}
	return clientcmd.NewNonInteractiveClientConfig(*cfg, kctx, &clientcmd.ConfigOverrides{CurrentContext: kctx}, nil), nil
}

// parseKubeconfig reads the kubeconfig b of the file path.
func parseKubeconfig(b []byte, path string) (*clientcmdapi.Config, error) {
	if err := checkKubeconfig(b); err != nil {
		return nil, fmt.Errorf("kubeconfig: %s: %w", path, err)
	}
	cfg, err := clientcmd.Load(b)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %s: %w", path, err)
	}
	for _, c := range cfg.Clusters {
		c.LocationOfOrigin = path
	}
	for _, a := range cfg.AuthInfos {
		a.LocationOfOrigin = path
	}
	for _, c := range cfg.Contexts {
		c.LocationOfOrigin = path
	}
	if err := clientcmd.ResolveLocalPaths(cfg); err != nil {
		return nil, fmt.Errorf("kubeconfig: %s: %w", path, err)
	}
	if err := checkFiles(cfg); err != nil {
		return nil, fmt.Errorf("kubeconfig: %s: %w", path, err)
	}
	return cfg, nil
}

// checkFiles holds the files a kubeconfig names (certificates, keys,
// token files), which client-go reads, and reads again as they rotate,
// to regular files within input.KubeconfigLimit: a device or a FIFO
// there would be read without end.
func checkFiles(cfg *clientcmdapi.Config) error {
	var names []string
	for _, c := range cfg.Clusters {
		names = append(names, c.CertificateAuthority)
	}
	for _, a := range cfg.AuthInfos {
		names = append(names, a.ClientCertificate, a.ClientKey, a.TokenFile)
	}
	for _, name := range names {
		if name == "" {
			continue
		}
		st, err := os.Stat(name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // client-go says so when it needs the file
		case err != nil:
			return err
		case !st.Mode().IsRegular():
			return fmt.Errorf("%s: not a regular file (%s)", name, st.Mode().Type())
		case st.Size() > input.KubeconfigLimit:
			return &input.TooLargeError{Name: name, Limit: input.KubeconfigLimit}
		}
	}
	return nil
}

// checkKubeconfig reads b as a kubeconfig (version v1) for its errors in
// the file's terms, which client-go gives in Go's ("json: cannot
// unmarshal number into Go value of type struct { APIVersion string ...").
func checkKubeconfig(b []byte) error {
	j, err := yaml.YAMLToJSON(b)
	if err != nil {
		return fmt.Errorf("not YAML: %w", input.JSONError(nil, err))
	}
	var cfg clientcmdv1.Config
	if err := json.Unmarshal(j, &cfg); err != nil {
		return input.JSONError(nil, err)
	}
	return uniqueNames(&cfg)
}

// uniqueNames says which name of cfg's clusters, users or contexts is
// used twice, which client-go tells with the whole list as a Go value.
func uniqueNames(cfg *clientcmdv1.Config) error {
	var names []string
	for _, c := range cfg.Clusters {
		names = append(names, "clusters: "+c.Name)
	}
	for _, u := range cfg.AuthInfos {
		names = append(names, "users: "+u.Name)
	}
	for _, c := range cfg.Contexts {
		names = append(names, "contexts: "+c.Name)
	}
	slices.Sort(names)
	for i := 1; i < len(names); i++ {
		if names[i] == names[i-1] {
			return fmt.Errorf("%s: a name used twice", diag.Quote(names[i]))
		}
	}
	return nil
}

// RESTConfig is the configuration of the chosen context.
func (e *Existing) RESTConfig() *rest.Config { return e.cfg }

// Kubeconfig is a kubeconfig holding only the chosen context.
func (e *Existing) Kubeconfig() string { return filepath.Join(e.dir, "kubeconfig") }

// Labels are the labels this run puts on the namespaces and
// cluster-scoped objects it creates, so that Reset and Stop delete them and
// nothing else.
func (e *Existing) Labels() map[string]string { return map[string]string{runlabel.Key: e.opts.RunID} }

// Claim creates and labels the given namespaces. A namespace that exists
// without sieve's label is refused: sieve will not run in, or later delete,
// something it did not create.
func (e *Existing) Claim(ctx context.Context, namespaces []string) error {
	cs, err := kubernetes.NewForConfig(e.cfg)
	if err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	for _, name := range namespaces {
		ns, err := cs.CoreV1().Namespaces().Get(ctx, name, metav1.GetOptions{})
		switch {
		case err == nil && ns.Labels[runlabel.Key] != e.opts.RunID:
			return fmt.Errorf("kubeconfig: namespace %q already exists and sieve did not create it (hint: on an existing cluster, give the controller namespaces that do not exist yet)", name)
		case err == nil:
			continue
		case !apierrors.IsNotFound(err):
			return fmt.Errorf("kubeconfig: namespace %q: %w", name, err)
		}
		ns = &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: e.Labels()}}
		if _, err := cs.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("kubeconfig: create namespace %q: %w", name, err)
		}
		e.claims = append(e.claims, name)
	}
	return nil
}

// Reset deletes the namespaces and cluster-scoped objects this run
// created: those that carry its label. It ends the run's use of the CRDs
// it created or found created by another run, and deletes those no other
// run uses (package crduse).
func (e *Existing) Reset(ctx context.Context) error {
	if e.cfg == nil {
		return errors.New("kubeconfig: reset before start")
	}
	e.claims = nil
	return wipe(ctx, e.cfg, scope{selector: runlabel.Key + "=" + e.opts.RunID, run: e.opts.RunID})
}

// Stop deletes what this run created and its temporary kubeconfig.
func (e *Existing) Stop() error {
	var errs []error
	if e.cfg != nil {
		errs = append(errs, e.Reset(context.Background()))
	}
	if e.dir != "" {
		errs = append(errs, os.RemoveAll(e.dir))
	}
	return errors.Join(errs...)
}
