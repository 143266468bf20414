//go:build linux

// Package proctreetest helps tests check that a process tree ended: a
// shell command that leaves a daemon behind, and a look for it in /proc.
package proctreetest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Mark is a word unique to this test and process, for a daemon's command
// line; the test's cleanup kills what still runs with it.
func Mark(t testing.TB) string {
	mark := fmt.Sprintf("sieve-daemon-%d-%d", os.Getpid(), time.Now().UnixNano())
	t.Cleanup(func() { KillAll(mark) })
	return mark
}

// Daemon is a shell command that starts a daemon in a session of its own
// (setsid), out of its starter's process group, whose command line holds
// mark; it runs for 1000 s.
func Daemon(mark string) string {
	return fmt.Sprintf(`setsid sh -c 'sleep 1000; : %s' &`, mark)
}

// Running returns the processes that run (zombies left out) with mark in
// their command line.
func Running(mark string) []int {
	var pids []int
	for pid, st := range marked(mark) {
		if st[0] != "Z" {
			pids = append(pids, pid)
		}
	}
	return pids
}

// marked returns the processes with mark in their command line, each
// with the fields of its /proc/PID/stat from the third (the state) on.
func marked(mark string) map[int][]string {
	out := map[int][]string{}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmd, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil || !strings.Contains(string(cmd), mark) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(d, "stat"))
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if err != nil || i < 0 {
			continue // gone meanwhile
		}
		if f := strings.Fields(s[i+1:]); len(f) >= 4 {
			out[pid] = f
		}
	}
	return out
}

// AwaitRunning waits up to 10 s until a process with mark runs in a
// session of its own (the daemon, once setsid has made it one). It fails
// t if none does, since a check that it is gone later would prove nothing.
func AwaitRunning(t testing.TB, mark string) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		for pid, st := range marked(mark) {
			if st[0] != "Z" && st[3] == strconv.Itoa(pid) { // state ppid pgrp session
				return
			}
		}
	}
	t.Fatalf("the daemon %s never ran in a session of its own", mark)
}

// CheckGone fails t for each process with mark that runs, after waiting
// up to wait for them to end.
func CheckGone(t testing.TB, mark string, wait time.Duration) {
	t.Helper()
	end := time.Now().Add(wait)
	for len(Running(mark)) > 0 && time.Now().Before(end) {
		time.Sleep(20 * time.Millisecond)
	}
	for _, pid := range Running(mark) {
		t.Errorf("process %d, a daemon the program started (%s), still runs", pid, mark)
	}
}

// KillAll kills the processes with mark, so that a failing test leaves
// nothing to the machine.
func KillAll(mark string) {
	for _, pid := range Running(mark) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// Holding returns the processes whose namespace of kind ("net", "mnt",
// "pid") is ns, as /proc/PID/ns/KIND reads ("net:[4026532281]").
func Holding(kind, ns string) []int {
	var pids []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		if got, err := os.Readlink(filepath.Join(d, "ns", kind)); err == nil && got == ns {
			pids = append(pids, pid)
		}
	}
	return pids
}
