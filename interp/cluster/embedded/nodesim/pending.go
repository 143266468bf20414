package nodesim

import (
	"sync"

	"k8s.io/client-go/util/workqueue"
)

// pending counts what the simulator has yet to do (Options.Pending): the
// keys queued or being synced, and the timers it set for a key (a pod in
// its termination grace, a Job's pod running, a retry after an error),
// until the key is synced again.
type pending struct {
	report func(int) // Options.Pending; nil: nobody asks
	queues []workqueue.TypedRateLimitingInterface[string]

	mu     sync.Mutex
	timers map[timer]bool
	busy   int // keys being synced
	last   int // the count last reported
}

// timer is a key of a queue that a timer will add again.
type timer struct {
	q   workqueue.TypedRateLimitingInterface[string]
	key string
}

// begin notes that key of q is being synced: its timer, if any, is due.
func (p *pending) begin(q workqueue.TypedRateLimitingInterface[string], key string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.busy++
	delete(p.timers, timer{q, key})
}

// end notes that a sync of a key of q is over, and whether it set a timer
// for the key (later).
func (p *pending) end(q workqueue.TypedRateLimitingInterface[string], key string, later bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.busy--
	if later {
		if p.timers == nil {
			p.timers = map[timer]bool{}
		}
		p.timers[timer{q, key}] = true
	}
	p.changedLocked()
}

// changed reports the count if it changed (a key was queued).
func (p *pending) changed() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.changedLocked()
}

func (p *pending) changedLocked() {
	if p.report == nil {
		return
	}
	n := len(p.timers) + p.busy
	for _, q := range p.queues {
		n += q.Len()
	}
	if n != p.last {
		p.last = n
		p.report(n)
	}
}
