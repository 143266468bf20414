package netns

import (
	"context"
	"errors"
	"io"
	"net"
	"net/netip"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

func newNS(t *testing.T) *NS {
	t.Helper()
	n, err := New()
	if errors.Is(err, ErrUnsupported) {
		t.Skipf("no private network here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

// TestSamePortTwice listens on one fixed address in two namespaces and
// on the host, and checks that each dial reaches its own namespace's
// listener.
func TestSamePortTwice(t *testing.T) {
	a, b := newNS(t), newNS(t)
	const addr = "127.0.0.1:18080"
	host, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("the host's %s is taken: %v", addr, err)
	}
	defer host.Close()
	for name, n := range map[string]*NS{"a": a, "b": b} {
		l, err := n.Listen(addr)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		defer l.Close()
		go serveName(l, name)
	}
	for name, n := range map[string]*NS{"a": a, "b": b} {
		c, err := n.Dial(context.Background(), "tcp", addr)
		if err != nil {
			t.Fatalf("dial in %s: %v", name, err)
		}
		got, _ := io.ReadAll(c)
		c.Close()
		if string(got) != name {
			t.Errorf("dial in %s reached %q", name, got)
		}
	}
}

func serveName(l net.Listener, name string) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		_, _ = io.WriteString(c, name)
		c.Close()
	}
}

// TestStartInside starts a process in a namespace: it sees only the
// namespace's loopback.
func TestStartInside(t *testing.T) {
	n := newNS(t)
	cmd := exec.Command("cat", "/proc/net/dev")
	var out strings.Builder
	cmd.Stdout = &out
	if err := n.Start(cmd); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	var ifaces []string
	for _, line := range strings.Split(out.String(), "\n")[2:] {
		if name, _, ok := strings.Cut(line, ":"); ok {
			ifaces = append(ifaces, strings.TrimSpace(name))
		}
	}
	if len(ifaces) != 1 || ifaces[0] != "lo" {
		t.Errorf("interfaces inside: %v, want [lo]", ifaces)
	}
}

// BenchmarkNew measures what a run's private network costs: a namespace,
// a TCP and a UDP listener inside.
func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		n, err := New()
		if err != nil {
			b.Skip(err)
		}
		l, err := n.Listen("127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		pc, err := n.ListenPacket("127.0.0.1:53")
		if err != nil {
			b.Fatal(err)
		}
		l.Close()
		pc.Close()
		n.Close()
	}
}

// TestAddLocal makes a pod-range address local in a namespace: sieve
// listens on it and reaches it there, a port nothing listens on is
// refused, and an address never added is unreachable.
func TestAddLocal(t *testing.T) {
	n := newNS(t)
	a := netip.MustParseAddr("10.130.7.9")
	if err := n.AddLocal(a); err != nil {
		t.Fatal(err)
	}
	if err := n.AddLocal(a); err != nil {
		t.Fatalf("adding it again: %v", err)
	}
	l, err := n.Listen("10.130.7.9:9090")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go serveName(l, "pod")
	c, err := n.Dial(context.Background(), "tcp", "10.130.7.9:9090")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(c)
	c.Close()
	if string(got) != "pod" {
		t.Errorf("dial reached %q", got)
	}
	if _, err := n.Dial(context.Background(), "tcp", "10.130.7.9:9091"); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("dial to a port nothing listens on: %v, want connection refused", err)
	}
	if _, err := n.Dial(context.Background(), "tcp", "10.130.7.10:9090"); err == nil || errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("dial to an address never added: %v, want unreachable", err)
	}
}
