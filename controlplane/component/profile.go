package component

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"runtime/trace"
	"strconv"
	"time"
)

// Environment variables that make a component record its start:
// ProfileDirEnv names a directory, where the component writes NAME.pprof,
// a CPU profile of its first ProfileSecondsEnv seconds (default 10), and,
// when ProfileTraceEnv is set, NAME.trace, an execution trace of the same
// span (go tool trace): which goroutine ran, waited or sat runnable when,
// with the profile's samples. The monotonic clock stamps the trace, so the
// traces of one cluster's components line up.
const (
	ProfileDirEnv     = "SIEVE_CPUPROFILE_DIR"
	ProfileSecondsEnv = "SIEVE_CPUPROFILE_SECONDS"
	ProfileTraceEnv   = "SIEVE_CPUPROFILE_TRACE"
)

// startProfile starts the recording ProfileDirEnv asks for, if any; it
// stops and is written after the span, in the background.
func startProfile(name string, stderr io.Writer) error {
	dir := os.Getenv(ProfileDirEnv)
	if dir == "" {
		return nil
	}
	span := 10 * time.Second
	if s := os.Getenv(ProfileSecondsEnv); s != "" {
		secs, err := strconv.ParseFloat(s, 64)
		if err != nil || secs <= 0 {
			return fmt.Errorf("%s=%q: want a positive number of seconds", ProfileSecondsEnv, s)
		}
		span = time.Duration(secs * float64(time.Second))
	}
	f, err := os.Create(filepath.Join(dir, name+".pprof"))
	if err != nil {
		return fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("cpu profile: %w", err)
	}
	var tf *os.File
	if os.Getenv(ProfileTraceEnv) != "" {
		if tf, err = os.Create(filepath.Join(dir, name+".trace")); err == nil {
			err = trace.Start(tf)
		}
		if err != nil {
			pprof.StopCPUProfile()
			return errors.Join(fmt.Errorf("execution trace: %w", err), f.Close(), closeFile(tf))
		}
	}
	time.AfterFunc(span, func() {
		if tf != nil {
			trace.Stop()
		}
		pprof.StopCPUProfile()
		if err := errors.Join(f.Close(), closeFile(tf)); err != nil {
			fmt.Fprintf(stderr, "cpu profile: %v\n", err)
		}
	})
	return nil
}

// closeFile closes f unless it is nil.
func closeFile(f *os.File) error {
	if f == nil {
		return nil
	}
	return f.Close()
}
