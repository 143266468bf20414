package session

import (
	"fmt"
	"io"
	"sync"

	"github.com/sievetool/sieve/interp/run/podexec"
	"github.com/sievetool/sieve/interp/run/proxy"
)

// podSimulator is a backend whose pods run no containers (the embedded
// one): an exec into them cannot be served by the API server.
type podSimulator interface {
	SimulatesPods() bool
}

// execAnswers is the proxy's Exec option for the run: the controller's
// exec stand-ins, and, with simulated pods, the refusal of any other
// exec. It is nil (every exec forwarded) when neither applies.
func (s *session) execAnswers() func(*proxy.Exec) (proxy.ExecFunc, error) {
	sim, ok := s.w.Backend.(podSimulator)
	simulated := ok && sim.SimulatesPods()
	c := s.r.Test.Controller
	if len(c.Exec) == 0 && !simulated {
		return nil
	}
	return podexec.Answer(podexec.Options{StandIns: c.Exec, BaseDir: s.r.BaseDir, Simulated: simulated, Warn: s.w.Notes.warn})
}

// Notes prints each warning once for all the runs of the workers that
// share it (the progress output). The zero value prints nothing until
// SetOutput.
type Notes struct {
	mu   sync.Mutex
	out  io.Writer
	seen map[string]bool
}

// SetOutput makes n print to out from now on; it keeps what was printed.
func (n *Notes) SetOutput(out io.Writer) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.out = out
}

// warn prints msg unless a warning of the same key was printed; a nil
// Notes prints nothing.
func (n *Notes) warn(key, msg string) {
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.seen[key] || n.out == nil {
		return
	}
	if n.seen == nil {
		n.seen = map[string]bool{}
	}
	n.seen[key] = true
	fmt.Fprintf(n.out, "warning: %s\n", msg)
}
