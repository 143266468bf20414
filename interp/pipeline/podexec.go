package pipeline

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
	return podexec.Answer(podexec.Options{StandIns: c.Exec, BaseDir: s.r.BaseDir, Simulated: simulated, Warn: s.w.notes.warn})
}

// notes prints each warning once for all the runs of a set of workers
// (the progress output).
type notes struct {
	mu   sync.Mutex
	out  io.Writer
	seen map[string]bool
}

// warn prints msg unless a warning of the same key was printed; a nil
// notes prints nothing.
func (n *notes) warn(key, msg string) {
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.seen[key] || n.out == nil {
		return
	}
	n.seen[key] = true
	fmt.Fprintf(n.out, "warning: %s\n", msg)
}

// shareNotes gives the env's workers one notes, kept from an earlier
// stage, printing to env's progress output.
func (e Env) shareNotes() {
	var n *notes
	for _, w := range e.Workers {
		if w.notes != nil {
			n = w.notes
			break
		}
	}
	if n == nil {
		n = &notes{seen: map[string]bool{}}
	}
	n.mu.Lock()
	n.out = e.Progress
	n.mu.Unlock()
	for _, w := range e.Workers {
		w.notes = n
	}
}
