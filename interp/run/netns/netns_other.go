//go:build !linux

package netns

import (
	"fmt"
	"net/netip"
)

// NS is a private network namespace; there is none on this system.
type NS struct{}

// New fails: private network namespaces need Linux.
func New() (*NS, error) {
	return nil, fmt.Errorf("netns: a private network needs Linux: %w", ErrUnsupported)
}

// Close does nothing.
func (n *NS) Close() error { return nil }

// Do runs f.
func (n *NS) Do(f func() error) error { return f() }

// AddLocal fails: private network namespaces need Linux.
func (n *NS) AddLocal(a netip.Addr) error {
	return fmt.Errorf("netns: local address %s: %w", a, ErrUnsupported)
}
