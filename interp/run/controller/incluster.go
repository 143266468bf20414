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

// podEnv is what a pod's controller finds in its environment.
func (r *Runner) podEnv() []string {
	c, a := r.opts.Controller, r.opts.Access
	watch := strings.Join(c.Namespaces, ",")
	env := []string{
		"KUBERNETES_SERVICE_HOST=" + a.Host,
		"KUBERNETES_SERVICE_PORT=" + a.Port,
		"KUBERNETES_SERVICE_PORT_HTTPS=" + a.Port,
		"POD_NAME=" + r.pod.Name,
		"POD_NAMESPACE=" + r.pod.Namespace,
		"WATCH_NAMESPACE=" + watch,
		"OPERATOR_NAME=" + c.Name,
	}
	if c.Pod != nil && r.podObj != nil {
		for _, e := range c.Pod.FieldEnv {
			env = append(env, e.Name+"="+fieldValue(r.podObj, e.Value))
		}
	}
	return env
}

func (r *Runner) saDir() string { return filepath.Join(r.opts.RunDir, "serviceaccount") }

// preparePod writes the service-account files and asks the caller to
// create the Pod object, afresh at every start.
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
	if r.opts.Pod != nil {
		pod, err := r.opts.Pod(ctx, r.pod)
		if err != nil {
			return fmt.Errorf("in-cluster emulation: creating the pod object: %w", err)
		}
		r.podObj = pod
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

// Mounts are the files the helper bind-mounts over the host's before it
// runs the controller; an empty field mounts nothing.
type Mounts struct {
	// ServiceAccount is a directory mounted read-only on
	// ServiceAccountDir.
	ServiceAccount string
	// ResolvConf is a file mounted on /etc/resolv.conf.
	ResolvConf string
}

// HelperMain is the helper that runs the controller. The runner starts it
// in a fresh private mount namespace. When it is PID 1 of a PID namespace
// of its own, it mounts a fresh /proc, so the controller sees its own
// processes there, as in a pod. It bind-mounts m and replaces itself with
// argv. It refuses to mount when its mount namespace is its parent's, so
// it never changes the host's mounts. It returns only on failure.
func HelperMain(m Mounts, argv []string) error {
	if len(argv) == 0 {
		return errors.New("incluster: no command")
	}
	for _, p := range []*string{&m.ServiceAccount, &m.ResolvConf} {
		if *p == "" {
			continue
		}
		abs, err := filepath.Abs(*p)
		if err != nil {
			return fmt.Errorf("incluster: %w", err)
		}
		*p = abs
	}
	return helperExec(m, argv)
}

// helperArgs are the helper's arguments before the controller's.
func (r *Runner) helperArgs() []string {
	var args []string
	if r.opts.Controller.Kubeconfig.InCluster {
		args = append(args, "--dir", r.saDir())
	}
	if r.opts.ResolvConf != "" {
		args = append(args, "--resolv", r.opts.ResolvConf)
	}
	return append(args, "--")
}
