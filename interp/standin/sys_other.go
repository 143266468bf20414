//go:build !linux

package standin

import (
	"os/exec"
	"syscall"
)

// sysProcAttr is nil: stand-ins need Linux's private networks anyway.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// kill kills the stand-in's process.
func kill(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
