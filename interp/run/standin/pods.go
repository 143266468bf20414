package standin

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/interp/run/netns"
	"github.com/sievetool/sieve/interp/run/relay"
	"github.com/sievetool/sieve/lang/ir"
)

// podStandin is a stand-in for the pods its selector matches.
type podStandin struct {
	i    int // its index in Options.Standins, so its address is Addr(i)
	s    *ir.Standin
	sel  labels.Selector
	file string // its pod map, STANDIN_PODS
	log  io.Writer
}

// pods serves the pod stand-ins of a run. Every pod's IP is local to the
// private network, so a call to a pod nothing serves is refused. For
// every pod a stand-in's selector matches, sieve listens on the pod's IP
// and the stand-in's ports. It relays each connection to the stand-in's
// program, from the pod's IP.
type pods struct {
	net      *netns.NS
	rec      *relay.Recorder
	standins []*podStandin
	factory  informers.SharedInformerFactory
	stop     chan struct{}

	mu     sync.Mutex
	local  map[netip.Addr]bool
	served map[servedKey]*served
	closed bool
}

// servedKey is one pod (NAMESPACE/NAME) served by pod stand-in i.
type servedKey struct {
	i   int
	pod string
}

// PodsFile is the name of a pod stand-in's pod map in the run's
// directory: a line "IP NAMESPACE/NAME UID" per pod it serves (the UID
// tells a pod from its same-named successor).
func PodsFile(s *ir.Standin) string { return "standin-" + slug(s) + ".pods" }

// slug is a stand-in's name as part of a file name.
func slug(s *ir.Standin) string {
	if s.Pods == "" {
		return s.Service
	}
	return "pods-" + strings.Map(func(r rune) rune {
		if strings.ContainsRune(".-=,_", r) || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, s.Pods)
}

// startPods watches every pod of the cluster through client and serves
// the pod stand-ins among the started ones until Stop. It returns once
// the pods that exist are served.
func (set *Set) startPods(ctx context.Context, opts Options) error {
	p := &pods{net: opts.Net, rec: set.rec, local: map[netip.Addr]bool{}, served: map[servedKey]*served{}, stop: make(chan struct{})}
	for i, s := range opts.Standins {
		if s.Pods == "" {
			continue
		}
		sel, err := labels.Parse(s.Pods)
		if err != nil {
			return fmt.Errorf("%s: standin %s: %w", s.Src, s.Name(), err)
		}
		p.standins = append(p.standins, &podStandin{i: i, s: s, sel: sel, file: filepath.Join(opts.Dir, PodsFile(s)), log: set.logs[i]})
	}
	if len(p.standins) == 0 {
		return nil
	}
	if opts.Client == nil {
		return fmt.Errorf("%s: standin %s: pod stand-ins need a client of the cluster", p.standins[0].s.Src, p.standins[0].s.Name())
	}
	for _, ps := range p.standins {
		if err := p.writeMap(ps); err != nil {
			return err
		}
	}
	set.pods = p
	p.factory = informers.NewSharedInformerFactory(opts.Client, 0)
	reg, err := p.factory.Core().V1().Pods().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(o any) { p.update(o) },
		UpdateFunc: func(_, o any) { p.update(o) },
		DeleteFunc: p.remove,
	})
	if err != nil {
		return err
	}
	p.factory.Start(p.stop)
	if !cache.WaitForCacheSync(ctx.Done(), reg.HasSynced) {
		return fmt.Errorf("watching pods for the pod stand-ins: %w", context.Cause(ctx))
	}
	return nil
}

// update serves a pod that appeared or changed for every stand-in that
// matches it, and stops serving it where it no longer does.
func (p *pods) update(o any) {
	pod, ok := o.(*corev1.Pod)
	if !ok {
		return
	}
	ip := podAddr(pod)
	name := pod.Namespace + "/" + pod.Name
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	if ip.IsValid() && !p.local[ip] {
		if err := p.net.AddLocal(ip); err != nil {
			p.logAll("sieve: pod %s: %v", name, err)
			return
		}
		p.local[ip] = true
	}
	for _, ps := range p.standins {
		k := servedKey{ps.i, name}
		cur := p.served[k]
		want := ip.IsValid() && ps.sel.Matches(labels.Set(pod.Labels))
		if cur != nil && (!want || cur.ip != ip) {
			p.unserve(ps, k, "no longer matches or has no IP")
			cur = nil
		}
		if want && cur == nil {
			p.serve(ps, k, ip, string(pod.UID))
		}
	}
}

// remove stops serving a deleted pod; its IP stays local, so calls to
// it are refused from now on.
func (p *pods) remove(o any) {
	if d, ok := o.(cache.DeletedFinalStateUnknown); ok {
		o = d.Obj
	}
	pod, ok := o.(*corev1.Pod)
	if !ok {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, ps := range p.standins {
		if k := (servedKey{ps.i, pod.Namespace + "/" + pod.Name}); p.served[k] != nil {
			p.unserve(ps, k, "deleted")
		}
	}
}

// podAddr is the pod's IPv4 address, or the zero Addr when it has none
// or a loopback one (the controller's emulated pod).
func podAddr(pod *corev1.Pod) netip.Addr {
	a, err := netip.ParseAddr(pod.Status.PodIP)
	if err != nil || !a.Is4() || a.IsLoopback() || a.IsUnspecified() {
		return netip.Addr{}
	}
	return a
}

// serve listens on the pod's IP and ps's ports, writes ps's pod map,
// then relays what arrives. The caller holds p.mu.
func (p *pods) serve(ps *podStandin, k servedKey, ip netip.Addr, uid string) {
	sv := &served{ip: ip, uid: uid}
	for _, port := range ps.s.Ports {
		addr := netip.AddrPortFrom(ip, uint16(port)).String()
		l, err := p.net.Listen(addr)
		if err != nil {
			fmt.Fprintf(ps.log, "sieve: pod %s: cannot serve %s: %v\n", k.pod, addr, err)
			continue
		}
		sv.ls = append(sv.ls, l)
	}
	p.served[k] = sv
	if err := p.writeMap(ps); err != nil {
		fmt.Fprintf(ps.log, "sieve: %v\n", err)
	}
	fmt.Fprintf(ps.log, "sieve: pod %s at %s: serving %s\n", k.pod, ip, portList(ps.s.Ports))
	for j, l := range sv.ls {
		port := ps.s.Ports[j]
		go sv.accept(l, func(c net.Conn) { p.relay(ps, k.pod, sv.ip, c, port) })
	}
}

// unserve closes what sieve listens on for the pod and the connections
// it relays for it, as the pod's end would go, and rewrites ps's pod
// map. The caller holds p.mu.
func (p *pods) unserve(ps *podStandin, k servedKey, why string) {
	sv := p.served[k]
	delete(p.served, k)
	sv.close()
	if err := p.writeMap(ps); err != nil {
		fmt.Fprintf(ps.log, "sieve: %v\n", err)
	}
	fmt.Fprintf(ps.log, "sieve: pod %s at %s: %s, no longer served\n", k.pod, sv.ip, why)
}

// relay relays the controller's connection c to a pod's port to ps's
// program, from the pod's IP, and records it.
func (p *pods) relay(ps *podStandin, pod string, ip netip.Addr, c net.Conn, port int) {
	rc := p.rec.Open(trace.Conn{Standin: ps.s.Name(), Addr: c.LocalAddr().String(), Pod: pod})
	fmt.Fprintf(ps.log, "sieve: connection %d to pod %s at %s:%d\n", rc.ID(), pod, ip, port)
	up, err := dialFrom(p.net, ip, net.JoinHostPort(Addr(ps.i).String(), strconv.Itoa(port)))
	if err != nil {
		fmt.Fprintf(ps.log, "sieve: pod %s:%d: reaching the stand-in: %v\n", ip, port, err)
		rc.Fail(c, err)
		return
	}
	rc.Relay(c, up)
}

// dialFrom connects to addr inside n from local address from.
func dialFrom(n *netns.NS, from netip.Addr, addr string) (net.Conn, error) {
	var c net.Conn
	err := n.Do(func() (err error) {
		d := net.Dialer{LocalAddr: net.TCPAddrFromAddrPort(netip.AddrPortFrom(from, 0)), Timeout: 10 * time.Second}
		c, err = d.Dial("tcp", addr)
		return err
	})
	return c, err
}

// writeMap writes ps's pod map, sorted by pod, through a rename so a
// reader never sees half of it. The caller holds p.mu or is the only
// one using p.
func (p *pods) writeMap(ps *podStandin) error {
	var lines []string
	for k, sv := range p.served {
		if k.i == ps.i {
			lines = append(lines, sv.ip.String()+" "+k.pod+" "+sv.uid+"\n")
		}
	}
	slices.Sort(lines)
	tmp := ps.file + ".tmp"
	if err := os.WriteFile(tmp, []byte(strings.Join(lines, "")), 0o644); err != nil {
		return fmt.Errorf("standin %s: pod map: %w", ps.s.Name(), err)
	}
	if err := os.Rename(tmp, ps.file); err != nil {
		return fmt.Errorf("standin %s: pod map: %w", ps.s.Name(), err)
	}
	return nil
}

// logAll writes a line to every pod stand-in's log. The caller holds
// p.mu.
func (p *pods) logAll(format string, args ...any) {
	for _, ps := range p.standins {
		fmt.Fprintf(ps.log, format+"\n", args...)
	}
}

// close stops watching, and closes every listener and relayed
// connection.
func (p *pods) close() {
	close(p.stop)
	p.factory.Shutdown()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for k, sv := range p.served {
		sv.close()
		delete(p.served, k)
	}
}

// portList is ports as "9090,9091".
func portList(ports []int) string {
	s := make([]string, len(ports))
	for i, p := range ports {
		s[i] = strconv.Itoa(p)
	}
	return strings.Join(s, ",")
}
