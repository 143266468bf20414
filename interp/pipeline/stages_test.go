package pipeline

import (
	"context"
	"errors"
	"testing"

	"github.com/sievetool/sieve/interp/formats/results"
	"github.com/sievetool/sieve/interp/run/session"
	"github.com/sievetool/sieve/lang/ir"
)

// TestReferencesInterrupted: reference runs interrupted before all of
// them started end with the context's error, not with a missing trace
// handed to the oracle (which panicked on it).
func TestReferencesInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	test := &ir.Test{Name: "t", Runs: 2, Controller: &ir.Controller{Name: "c", Namespaces: []string{"default"}}}
	env := Env{Workers: []*session.Worker{{}}}
	refs, err := References(ctx, env, test, results.Layout{Root: t.TempDir()}, RefOptions{})
	if !errors.Is(err, context.Canceled) || refs != nil {
		t.Errorf("References after an interrupt: %v, %v; want context.Canceled", refs, err)
	}
}
