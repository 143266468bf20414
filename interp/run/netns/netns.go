package netns

import (
	"context"
	"errors"
	"net"
	"os/exec"
)

// ErrUnsupported is wrapped by New's error where private network
// namespaces are not available (not Linux, not root).
var ErrUnsupported = errors.ErrUnsupported

// Listen listens on addr (tcp) inside n.
func (n *NS) Listen(addr string) (net.Listener, error) {
	var l net.Listener
	err := n.Do(func() (err error) {
		l, err = net.Listen("tcp", addr)
		return err
	})
	return l, err
}

// ListenPacket listens on addr (udp) inside n.
func (n *NS) ListenPacket(addr string) (net.PacketConn, error) {
	var c net.PacketConn
	err := n.Do(func() (err error) {
		c, err = net.ListenPacket("udp", addr)
		return err
	})
	return c, err
}

// Dial connects to addr inside n; it has net.Dialer.DialContext's
// signature, for an http.Transport.
func (n *NS) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var c net.Conn
	err := n.Do(func() (err error) {
		var d net.Dialer
		c, err = d.DialContext(ctx, network, addr)
		return err
	})
	return c, err
}

// Start starts cmd inside n: the child inherits the namespace of the
// thread that forks it.
func (n *NS) Start(cmd *exec.Cmd) error {
	return n.Do(cmd.Start)
}

// Check reports whether private networks can be made here: nil, or the
// error of New, which wraps ErrUnsupported when they cannot.
func Check() error {
	n, err := New()
	if err != nil {
		return err
	}
	return n.Close()
}
