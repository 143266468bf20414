package standin

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// served is what sieve listens on for a Service stand-in, or for one pod
// of a pod stand-in, and the connections it relays for it.
type served struct {
	ip  netip.Addr // the pod's IP (pods only)
	uid string     // the pod's UID (pods only)
	ls  []net.Listener

	mu     sync.Mutex
	conns  map[net.Conn]bool
	closed bool
}

// accept hands each connection that l accepts to relay, which closes it,
// until l or sv is closed.
func (sv *served) accept(l net.Listener, relay func(net.Conn)) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		sv.mu.Lock()
		if sv.closed { // it stopped being served while this one arrived
			sv.mu.Unlock()
			c.Close()
			return
		}
		if sv.conns == nil {
			sv.conns = map[net.Conn]bool{}
		}
		sv.conns[c] = true
		sv.mu.Unlock()
		go func() {
			relay(c)
			sv.mu.Lock()
			delete(sv.conns, c)
			sv.mu.Unlock()
		}()
	}
}

// close closes what sieve listens on and the connections it relays, as
// the served end would go.
func (sv *served) close() {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	sv.closed = true
	for _, l := range sv.ls {
		l.Close()
	}
	for c := range sv.conns {
		c.Close()
	}
}

// serviceAddr is the address that Service stand-in i's names resolve to:
// 127.2.0.i+1, where sieve listens on its ports and relays to its
// program at Addr(i).
func serviceAddr(i int) netip.Addr {
	return netip.AddrFrom4([4]byte{127, 2, byte((i + 1) / 256), byte((i + 1) % 256)})
}

// serveServices listens on each Service stand-in's Service address and
// ports, and relays every connection to its program. A port it cannot
// listen on (the program took it at every address) is reached directly,
// unrecorded; the stand-in's log says so.
func (set *Set) serveServices(opts Options) {
	for i, s := range opts.Standins {
		if s.Service == "" {
			continue
		}
		sv := &served{}
		var ports []int
		for _, port := range s.Ports {
			addr := netip.AddrPortFrom(serviceAddr(i), uint16(port)).String()
			l, err := opts.Net.Listen(addr)
			if err != nil {
				fmt.Fprintf(set.logs[i], "sieve: calls to %s reach the stand-in directly and are not recorded (it should listen on $STANDIN_ADDR, not on its port at every address): %v\n", addr, err)
				continue
			}
			sv.ls, ports = append(sv.ls, l), append(ports, port)
		}
		for j, l := range sv.ls {
			port := ports[j]
			go sv.accept(l, func(c net.Conn) { set.relayService(opts, i, s, c, port) })
		}
		set.services = append(set.services, sv)
	}
}

// relayService relays the controller's connection c to Service stand-in
// i's program, and records it.
func (set *Set) relayService(opts Options, i int, s *ir.Standin, c net.Conn, port int) {
	rc := set.rec.Open(trace.Conn{Standin: s.Name(), Addr: c.LocalAddr().String()})
	fmt.Fprintf(set.logs[i], "sieve: connection %d to %s at %s\n", rc.ID(), s.Service, c.LocalAddr())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	up, err := opts.Net.Dial(ctx, "tcp", net.JoinHostPort(Addr(i).String(), strconv.Itoa(port)))
	cancel()
	if err != nil {
		fmt.Fprintf(set.logs[i], "sieve: %s: reaching the stand-in: %v\n", c.LocalAddr(), err)
		rc.Fail(c, err)
		return
	}
	rc.Relay(c, up)
}
