package standin

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/internal/nofollow"
	"github.com/sievetool/sieve/interp/internal/proctree"
	"github.com/sievetool/sieve/interp/run/logcap"
	"github.com/sievetool/sieve/interp/run/netns"
	"github.com/sievetool/sieve/interp/run/relay"
	"github.com/sievetool/sieve/lang/ir"
)

// Options say which stand-ins to run and where.
type Options struct {
	Standins []*ir.Standin
	// Net is the controller's private network; required.
	Net *netns.NS
	// Client watches the cluster's pods for the pod stand-ins (Pods);
	// required when there is one.
	Client kubernetes.Interface
	// Dir is the run's directory, for the logs.
	Dir string
	// BaseDir is what relative commands are resolved against (the spec's
	// directory) and where they run.
	BaseDir string
	// Ready bounds the wait for every port to accept (default 30s).
	Ready time.Duration
	// LogLimit bounds each stand-in's log in bytes (see logcap.Writer).
	// If 0, logcap.Limit's default: 64 MiB, or $SIEVE_LOG_LIMIT.
	LogLimit int64
	// Sink receives the trace entries of the connections sieve relays to
	// the stand-ins (package relay), from many goroutines; if nil, they
	// are relayed unrecorded.
	Sink func(trace.Entry)
	// Fault, if not nil, is the relay's Fault hook (relay.Recorder.Fault):
	// asked about each HTTP request of the controller, it may have the
	// relay answer it wrongly in the stand-in's place.
	Fault func(c trace.Conn, method, target string) (relay.Answer, bool)
	// Answered, if not nil, is the relay's Answered hook
	// (relay.Recorder.Answered): told each response of a stand-in before
	// the controller has it, it may have the relay give another instead.
	Answered func(c trace.Conn, method, target string, got relay.Reply) (*relay.Reply, bool)
}

// Set is the running stand-ins of one run.
type Set struct {
	cmds     []*exec.Cmd
	done     []chan struct{}
	logs     []*logcap.Writer
	rec      *relay.Recorder
	services []*served
	pods     *pods // nil without pod stand-ins
}

// Addr is the loopback address stand-in i listens on: 127.1.0.i+1.
func Addr(i int) netip.Addr {
	return netip.AddrFrom4([4]byte{127, 1, byte((i + 1) / 256), byte((i + 1) % 256)})
}

// Names maps SERVICE.NS of each Service stand-in to the address where
// sieve relays its calls, for the DNS responder's Fixed.
func Names(ss []*ir.Standin, ns string) map[string]netip.Addr {
	m := map[string]netip.Addr{}
	for i, s := range ss {
		if s.Service != "" {
			m[s.Service+"."+ns] = serviceAddr(i)
		}
	}
	return m
}

// LogFile is the name of a stand-in's log in the run's directory:
// standin-SERVICE.log, or standin-pods-SELECTOR.log with the characters
// of the selector other than letters, digits and ".-_=," as "_".
func LogFile(s *ir.Standin) string { return "standin-" + slug(s) + ".log" }

// Start starts every stand-in and waits until each accepts on all its
// ports. On failure, what started is stopped.
func Start(ctx context.Context, opts Options) (*Set, error) {
	if len(opts.Standins) > 0 && opts.Net == nil {
		return nil, fmt.Errorf("%s: standin %s: stand-ins need a private network (root on Linux)", opts.Standins[0].Src, opts.Standins[0].Name())
	}
	set := &Set{rec: &relay.Recorder{Sink: opts.Sink, Fault: opts.Fault, Answered: opts.Answered}}
	for i, s := range opts.Standins {
		if err := set.start(opts, i, s); err != nil {
			set.Stop()
			return nil, fmt.Errorf("%s: standin %s: %w", s.Src, s.Name(), err)
		}
	}
	for i, s := range opts.Standins {
		if err := set.wait(ctx, opts, i, s); err != nil {
			set.Stop()
			return nil, fmt.Errorf("%s: standin %s: %w", s.Src, s.Name(), err)
		}
	}
	set.serveServices(opts)
	if err := set.startPods(ctx, opts); err != nil {
		set.Stop()
		return nil, err
	}
	return set, nil
}

func (set *Set) start(opts Options, i int, s *ir.Standin) error {
	bin, err := lookPath(s.Command[0], opts.BaseDir)
	if err != nil {
		return err
	}
	f, err := nofollow.Append(filepath.Join(opts.Dir, LogFile(s)))
	if err != nil {
		return err
	}
	log := logcap.New(f, opts.LogLimit)
	set.logs = append(set.logs, log)
	tmp, err := proctree.TempDir()
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, s.Command[1:]...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = opts.BaseDir, log, log
	cmd.Env = append(append(os.Environ(), "TMPDIR="+tmp), env(i, s, opts.Dir)...)
	cmd.SysProcAttr = proctree.Attr()
	if err := opts.Net.Start(cmd); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("starting %s: %w", bin, err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); os.RemoveAll(tmp); close(done) }()
	set.cmds, set.done = append(set.cmds, cmd), append(set.done, done)
	return nil
}

// env tells stand-in i where to listen: STANDIN_HOST, STANDIN_PORT (the
// first port), STANDIN_PORTS (all, comma-separated), STANDIN_ADDR
// (HOST:PORT); what it stands in for: STANDIN_SERVICE, or
// STANDIN_SELECTOR and STANDIN_PODS (its pod map in the run's directory
// dir); then the spec's env.
func env(i int, s *ir.Standin, dir string) []string {
	host, port := Addr(i).String(), strconv.Itoa(s.Ports[0])
	out := []string{"STANDIN_HOST=" + host, "STANDIN_PORT=" + port,
		"STANDIN_PORTS=" + portList(s.Ports), "STANDIN_ADDR=" + net.JoinHostPort(host, port)}
	if s.Pods != "" {
		file, _ := filepath.Abs(filepath.Join(dir, PodsFile(s))) // it runs in the spec's directory
		out = append(out, "STANDIN_SELECTOR="+s.Pods, "STANDIN_PODS="+file)
	} else {
		out = append(out, "STANDIN_SERVICE="+s.Service)
	}
	for _, e := range s.Env {
		out = append(out, e.Name+"="+e.Value)
	}
	return out
}

// wait polls stand-in i's ports in the network until each accepts.
func (set *Set) wait(ctx context.Context, opts Options, i int, s *ir.Standin) error {
	limit := opts.Ready
	if limit == 0 {
		limit = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	for _, p := range s.Ports {
		addr := net.JoinHostPort(Addr(i).String(), strconv.Itoa(p))
		for {
			c, err := opts.Net.Dial(ctx, "tcp", addr)
			if err == nil {
				c.Close()
				break
			}
			select {
			case <-set.done[i]:
				return fmt.Errorf("exited before it listened on %s (see %s)", addr, filepath.Join(opts.Dir, LogFile(s)))
			case <-ctx.Done():
				return fmt.Errorf("not listening on %s within %s (it should listen on $STANDIN_ADDR, or on its port at any address; see %s)", addr, limit, filepath.Join(opts.Dir, LogFile(s)))
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	return nil
}

// Stop stops relaying to the Service stand-ins and serving pods, kills
// every stand-in (its process tree, see package proctree) and waits for
// it.
func (set *Set) Stop() {
	for _, sv := range set.services {
		sv.close()
	}
	if set.pods != nil {
		set.pods.close()
	}
	for i, cmd := range set.cmds {
		_ = proctree.Kill(cmd.Process.Pid)
		<-set.done[i]
	}
	for _, l := range set.logs {
		_ = l.Close()
	}
}

// lookPath resolves a command: a name with a slash relative to dir, one
// without on PATH.
func lookPath(name, dir string) (string, error) {
	if strings.ContainsRune(name, '/') && !filepath.IsAbs(name) {
		name = filepath.Join(dir, name)
	}
	bin, err := exec.LookPath(name)
	if err != nil {
		return "", errors.New("command not found: " + name)
	}
	return filepath.Abs(bin)
}
