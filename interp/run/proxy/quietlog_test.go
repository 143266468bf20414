package proxy

import (
	"crypto/tls"
	"io"
	"log"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer is a strings.Builder safe for the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestHandshakeNoiseStaysOff: a client that aborts the TLS handshake
// (it does not trust the proxy's certificate) and one that sends no TLS at
// all leave nothing on the standard logger, which writes to the terminal.
func TestHandshakeNoiseStaysOff(t *testing.T) {
	var out lockedBuffer
	log.SetOutput(&out)
	t.Cleanup(func() { log.SetOutput(os.Stderr) })
	p := startProxy(t, newFakeAPI(t, nil), Hooks{}, nil)
	if _, err := tls.Dial("tcp", p.Host(), &tls.Config{ServerName: "127.0.0.1"}); err == nil {
		t.Fatal("a client that does not trust the proxy's certificate completed the handshake")
	}
	c, err := net.Dial("tcp", p.Host())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("\x00\x01 not a TLS record at all\x00\x00\x00\x00")); err != nil {
		t.Fatal(err)
	}
	// The server logs the failed handshake before it closes the
	// connection: once this read ends, whatever it logged is in out.
	_, _ = io.Copy(io.Discard, c)
	if s := out.String(); s != "" {
		t.Errorf("the proxy logged to the standard logger (the terminal):\n%s", s)
	}
}
