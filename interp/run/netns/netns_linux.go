package netns

import (
	"encoding/binary"
	"fmt"
	"net"
	"net/netip"
	"os"
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// NS is a private network namespace whose loopback is up.
type NS struct {
	f *os.File // holds the namespace open
}

// New creates a network namespace and brings its loopback up.
func New() (*NS, error) {
	if os.Geteuid() != 0 {
		return nil, fmt.Errorf("netns: a private network needs root: %w", ErrUnsupported)
	}
	var n *NS
	err := onThread(func() error {
		if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
			return fmt.Errorf("netns: unshare: %w (%w)", err, ErrUnsupported)
		}
		f, err := os.Open("/proc/thread-self/ns/net")
		if err != nil {
			return fmt.Errorf("netns: %w", err)
		}
		n = &NS{f: f}
		return loopbackUp()
	})
	if err != nil && n != nil {
		n.Close()
	}
	if err != nil {
		return nil, err
	}
	return n, nil
}

// Close releases the namespace; it ends with the last process and socket
// in it.
func (n *NS) Close() error { return n.f.Close() }

// Do runs f on an OS thread that has entered n, and returns its error.
func (n *NS) Do(f func() error) error {
	return onThread(func() error {
		if err := unix.Setns(int(n.f.Fd()), unix.CLONE_NEWNET); err != nil {
			return fmt.Errorf("netns: entering: %w", err)
		}
		return f()
	})
}

// onThread runs f on a locked OS thread of its own and puts the thread
// back into the process's network namespace after; a thread that cannot
// go back is left locked, so Go ends it.
func onThread(f func() error) error {
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		home, err := os.Open("/proc/thread-self/ns/net")
		if err != nil {
			runtime.UnlockOSThread()
			done <- fmt.Errorf("netns: %w", err)
			return
		}
		defer home.Close()
		ferr := f()
		if err := unix.Setns(int(home.Fd()), unix.CLONE_NEWNET); err != nil {
			done <- fmt.Errorf("netns: leaving: %w", err)
			return // the thread stays locked and dies with this goroutine
		}
		runtime.UnlockOSThread()
		done <- ferr
	}()
	return <-done
}

// loopbackUp sets the IFF_UP flag of lo in the current thread's namespace.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("netns: loopback: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return fmt.Errorf("netns: loopback: %w", err)
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("netns: loopback: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("netns: loopback up: %w", err)
	}
	return nil
}

// AddLocal makes a local to n, as 127.0.0.0/8 is: a host route of
// type local on lo in the local table, so sieve can listen on a and a
// connection to it where nothing listens is refused. Adding it twice is
// no error.
func (n *NS) AddLocal(a netip.Addr) error {
	if !a.Is4() {
		return fmt.Errorf("netns: local address %s: only IPv4", a)
	}
	err := n.Do(func() error { return routeLocal(a) })
	if err != nil {
		return fmt.Errorf("netns: local address %s: %w", a, err)
	}
	return nil
}

// routeLocal sends RTM_NEWROUTE for a/32, local, on lo, to the current
// thread's namespace, and reads the kernel's answer.
func routeLocal(a netip.Addr) error {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_ROUTE)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	lo, err := net.InterfaceByName("lo")
	if err != nil {
		return err
	}
	msg := routeMsg(a, uint32(lo.Index))
	if err := unix.Sendto(fd, msg, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return err
	}
	buf := make([]byte, 4096)
	m, _, err := unix.Recvfrom(fd, buf, 0)
	if err != nil {
		return err
	}
	msgs, err := syscall.ParseNetlinkMessage(buf[:m])
	if err != nil {
		return err
	}
	for _, r := range msgs {
		if r.Header.Type == unix.NLMSG_ERROR && len(r.Data) >= 4 {
			if e := int32(binary.NativeEndian.Uint32(r.Data)); e != 0 {
				return unix.Errno(-e)
			}
		}
	}
	return nil
}

// routeMsg is the netlink request for routeLocal: a header, an rtmsg,
// then RTA_DST and RTA_OIF.
func routeMsg(a netip.Addr, lo uint32) []byte {
	dst := a.As4()
	b := make([]byte, unix.SizeofNlMsghdr+unix.SizeofRtMsg)
	b = appendAttr(b, unix.RTA_DST, dst[:])
	b = appendAttr(b, unix.RTA_OIF, binary.NativeEndian.AppendUint32(nil, lo))
	h := (*unix.NlMsghdr)(unsafe.Pointer(&b[0]))
	*h = unix.NlMsghdr{Len: uint32(len(b)), Type: unix.RTM_NEWROUTE, Seq: 1,
		Flags: unix.NLM_F_REQUEST | unix.NLM_F_ACK | unix.NLM_F_CREATE | unix.NLM_F_REPLACE}
	rt := (*unix.RtMsg)(unsafe.Pointer(&b[unix.SizeofNlMsghdr]))
	*rt = unix.RtMsg{Family: unix.AF_INET, Dst_len: 32, Table: unix.RT_TABLE_LOCAL,
		Protocol: unix.RTPROT_STATIC, Scope: unix.RT_SCOPE_HOST, Type: unix.RTN_LOCAL}
	return b
}

// appendAttr appends a route attribute, padded to 4 bytes.
func appendAttr(b []byte, typ uint16, data []byte) []byte {
	n := unix.SizeofRtAttr + len(data)
	b = binary.NativeEndian.AppendUint16(b, uint16(n))
	b = binary.NativeEndian.AppendUint16(b, typ)
	b = append(b, data...)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	return b
}
