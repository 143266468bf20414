// Package owndir makes temporary directories that name the process that
// made them (its PID and start time), and removes those of processes that
// no longer run: a sieve killed with SIGKILL cannot remove its own, so the
// next one does. The embedded control plane's directories and the
// TMPDIRs of the programs sieve runs (package proctree) are made here.
package owndir
