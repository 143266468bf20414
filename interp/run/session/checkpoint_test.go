package session

import (
	"context"
	"errors"
	"strings"
	"testing"

	"k8s.io/client-go/rest"

	"github.com/sievetool/sieve/interp/cluster"
)

// rewinder is a backend that records the resets asked of it.
type rewinder struct{ resets []string }

func (b *rewinder) Start(context.Context) error { return nil }
func (b *rewinder) RESTConfig() *rest.Config    { return nil }
func (b *rewinder) Kubeconfig() string          { return "" }
func (b *rewinder) Stop() error                 { return nil }
func (b *rewinder) Reset(context.Context) error {
	b.resets = append(b.resets, "start")
	return nil
}
func (b *rewinder) Snapshot(context.Context) (cluster.Checkpoint, error) {
	return checkpoint("cp"), nil
}
func (b *rewinder) ResetTo(_ context.Context, cp cluster.Checkpoint) error {
	b.resets = append(b.resets, cp.Cluster())
	return nil
}

type checkpoint string

func (c checkpoint) Cluster() string { return string(c) }

// TestResetFrom holds where a worker resets its backend before a run: to
// nothing on a backend not used since it started, to the start, or to the
// run's checkpoint; a run from a checkpoint on a backend not used since
// it started (replaced after a failure) is ErrCheckpointLost, and one on
// a backend that cannot return to a checkpoint is refused.
func TestResetFrom(t *testing.T) {
	ctx := context.Background()
	b := &rewinder{}
	w := &Worker{Backend: b}
	if err := w.reset(ctx, checkpoint("cp")); !errors.Is(err, ErrCheckpointLost) {
		t.Errorf("from a checkpoint on an unused backend: %v, want ErrCheckpointLost", err)
	}
	if err := w.reset(ctx, nil); err != nil || len(b.resets) != 0 {
		t.Errorf("from the start on an unused backend: %v, resets %q, want none", err, b.resets)
	}
	w.used = true
	for _, from := range []cluster.Checkpoint{nil, checkpoint("cp")} {
		if err := w.reset(ctx, from); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(b.resets, " "); got != "start cp" {
		t.Errorf("resets %q, want to the start, then to the checkpoint", got)
	}
	plain := &Worker{Backend: struct{ cluster.Backend }{b}, used: true}
	if err := plain.reset(ctx, checkpoint("cp")); err == nil || !strings.Contains(err.Error(), "cannot return to a checkpoint") {
		t.Errorf("a backend that cannot rewind: %v, want refused", err)
	}
}
