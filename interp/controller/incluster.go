package controller

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ServiceAccountDir is where a pod's service-account files are mounted.
const ServiceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount"

// podInfo names the emulated pod after the controller, in its namespace.
func (r *Runner) podInfo() PodInfo {
	c := r.opts.Controller
	ns := "default"
	if len(c.Namespaces) > 0 && c.Namespaces[0] != "" {
		ns = c.Namespaces[0]
	}
	return PodInfo{Name: c.Name + "-sieve", Namespace: ns}
}

// podEnv is what a pod's controller finds in its environment.
func (r *Runner) podEnv() []string {
	c, a := r.opts.Controller, r.opts.Access
	watch := strings.Join(c.Namespaces, ",")
	return []string{
		"KUBERNETES_SERVICE_HOST=" + a.Host,
		"KUBERNETES_SERVICE_PORT=" + a.Port,
		"KUBERNETES_SERVICE_PORT_HTTPS=" + a.Port,
		"POD_NAME=" + r.pod.Name,
		"POD_NAMESPACE=" + r.pod.Namespace,
		"WATCH_NAMESPACE=" + watch,
		"OPERATOR_NAME=" + c.Name,
	}
}

func (r *Runner) saDir() string { return filepath.Join(r.opts.RunDir, "serviceaccount") }

// preparePod writes the service-account files and, once, asks the caller
// to create the Pod object.
func (r *Runner) preparePod(ctx context.Context) error {
	if !r.opts.Controller.Kubeconfig.InCluster {
		return nil
	}
	a := r.opts.Access
	if a.Host == "" || a.Port == "" || a.Token == "" || len(a.CA) == 0 {
		return errors.New("in-cluster emulation: the proxy's host, port, token and CA are needed")
	}
	dir := r.saDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("in-cluster emulation: %w", err)
	}
	files := map[string][]byte{"token": []byte(a.Token), "ca.crt": a.CA, "namespace": []byte(r.pod.Namespace)}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return fmt.Errorf("in-cluster emulation: %w", err)
		}
	}
	if r.opts.Pod != nil && !r.podDone {
		if err := r.opts.Pod(ctx, r.pod); err != nil {
			return fmt.Errorf("in-cluster emulation: creating the pod object: %w", err)
		}
		r.podDone = true
	}
	return nil
}

// helper is the command prefix of the in-cluster helper.
func (r *Runner) helper() ([]string, error) {
	if len(r.opts.Helper) > 0 {
		return append([]string(nil), r.opts.Helper...), nil
	}
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("in-cluster emulation: finding the sieve binary: %w", err)
	}
	return []string{self, "internal", "incluster"}, nil
}

// HelperMain is the in-cluster helper: run in a fresh private mount
// namespace (the runner starts it so), it bind-mounts dir read-only on
// ServiceAccountDir and replaces itself with argv. It refuses to mount
// when its mount namespace is its parent's, so it never changes the
// host's mounts. It returns only on failure.
func HelperMain(dir string, argv []string) error {
	if len(argv) == 0 {
		return errors.New("incluster: no command")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("incluster: %w", err)
	}
	return helperExec(abs, argv)
}
