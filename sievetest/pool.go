package sievetest

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sievetool/sieve/interp/pipeline"
	"github.com/sievetool/sieve/interp/run/controller"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/lang/ir"
)

// pool holds the control planes of a test binary's Runs. Without Main, a
// Run stops the control planes it started when it ends. With Main, the
// tests of the package share them. A Run takes idle ones that fit its
// controller, starts what it lacks, and gives them back when it ends.
// Main stops them all after the last test.
type pool struct {
	mu     sync.Mutex
	shared bool
	idle   map[string][]*session.Worker
}

// planes is the test binary's pool. Package state is the point here, as
// for flags: the tests of one binary share its control planes.
var planes = &pool{idle: map[string][]*session.Worker{}}

// poolKey says which control planes can run a controller's tests: those
// of the same backend (and Kubernetes line), with the same built-in
// controllers left out and
// (since a control plane keeps the CRDs its first run installed) the
// same CRDs.
func poolKey(b pipeline.Backend, c *ir.Controller, baseDir string) string {
	disabled := pipeline.Disabled(c)
	slices.Sort(disabled)
	return strings.Join([]string{b.Name, b.Kubeconfig, b.Context, b.Kubernetes, strings.Join(disabled, ","), baseDir, strings.Join(c.CRDs, ",")}, "\x00")
}

// acquire returns n workers for controller c: idle ones of the same key
// first (shared says how many), then new ones.
func (p *pool) acquire(ctx context.Context, key string, b pipeline.Backend, c *ir.Controller, n int) (ws []*session.Worker, shared int, err error) {
	p.mu.Lock()
	idle := p.idle[key]
	k := min(n, len(idle))
	ws = slices.Clone(idle[len(idle)-k:])
	p.idle[key] = idle[:len(idle)-k]
	p.mu.Unlock()
	if k == n {
		return ws, k, nil
	}
	more, stop, err := pipeline.StartWorkers(ctx, b, c, n-k)
	if err != nil {
		_ = stop()
		_ = p.release(key, ws)
		return nil, 0, err
	}
	return append(ws, more...), k, nil
}

// release gives workers back: to the idle ones with Main, else stopped.
func (p *pool) release(key string, ws []*session.Worker) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shared {
		p.idle[key] = append(p.idle[key], ws...)
		return nil
	}
	return stopAll(ws)
}

// stopIdle stops every idle worker.
func (p *pool) stopIdle() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for key, ws := range p.idle {
		errs = append(errs, stopAll(ws))
		delete(p.idle, key)
	}
	return errors.Join(errs...)
}

func stopAll(ws []*session.Worker) error {
	var errs []error
	for _, w := range ws {
		errs = append(errs, w.Backend.Stop())
	}
	return errors.Join(errs...)
}

// inClusterFlag is the first argument with which Main runs the in-cluster
// helper instead of the tests (see controller.HelperMain).
const inClusterFlag = "-sievetest.incluster"

// Main runs the tests of a package whose TestMain calls it, and exits:
//
//	func TestMain(m *testing.M) { sievetest.Main(m) }
//
// With it, the tests share their control planes, which are started when
// a test first needs them and stopped after the last test; without it,
// each Run starts its own and stops them when it ends. Main also runs the
// helper that a controller is started through to run in-cluster
// (kubeconfig incluster: such specs need it) or in a private network;
// without Main, controllers share the host's network.
func Main(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == inClusterFlag {
		os.Exit(inClusterMain(os.Args[2:]))
	}
	planes.mu.Lock()
	planes.shared = true
	planes.mu.Unlock()
	code := m.Run()
	if err := planes.stopIdle(); err != nil {
		fmt.Fprintf(os.Stderr, "sievetest: stopping the control planes: %v\n", err)
		code = max(code, 1)
	}
	os.Exit(code)
}

// sharing says whether Main runs the tests.
func (p *pool) sharing() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.shared
}

// helper is the in-cluster helper's command prefix: this test binary,
// which Main turns into the helper.
func helper() ([]string, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the test binary: %w", err)
	}
	return []string{self, inClusterFlag}, nil
}

// inClusterMain is the in-cluster helper: [--dir DIR] [--resolv FILE] --
// COMMAND [ARGS...].
func inClusterMain(args []string) int {
	fs := flag.NewFlagSet("sievetest incluster", flag.ContinueOnError)
	var m controller.Mounts
	fs.StringVar(&m.ServiceAccount, "dir", "", "directory holding token, ca.crt and namespace")
	fs.StringVar(&m.ResolvConf, "resolv", "", "file to mount on /etc/resolv.conf")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := controller.HelperMain(m, fs.Args()); err != nil {
		fmt.Fprintf(os.Stderr, "sievetest: %v\n", err)
		return 3
	}
	return 0
}
