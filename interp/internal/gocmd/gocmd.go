package gocmd

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/sievetool/sieve/interp/internal/owndir"
)

// Grace is how long a cancelled program has to end before it is killed.
const Grace = 5 * time.Second

// Command is exec.CommandContext(ctx, name, args...) whose cancellation
// sends SIGINT and kills only after Grace.
func Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = Grace
	return cmd
}

// Run runs cmd (made by Command) with a GOTMPDIR of its own, removed once
// it has ended: a go command stopped before it could remove its work
// directory leaves it there, not in the user's TMPDIR. (go list -export
// of a run cancelled by a control plane's death left one each time.) The
// directories of a sieve killed with SIGKILL go at the next one's first
// Run.
func Run(cmd *exec.Cmd) error {
	dir, err := owndir.MkdirTemp("", "sieve-go-")
	if err != nil {
		return fmt.Errorf("a GOTMPDIR of its own: %w", err)
	}
	defer os.RemoveAll(dir)
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, "GOTMPDIR="+dir)
	return cmd.Run()
}
