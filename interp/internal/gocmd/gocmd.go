package gocmd

import (
	"context"
	"os"
	"os/exec"
	"time"
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
