package component

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"time"
)

// Environment variables that make a component write a CPU profile of its
// start: ProfileDirEnv names a directory, where the component writes
// NAME.pprof covering its first ProfileSecondsEnv seconds (default 10).
const (
	ProfileDirEnv     = "SIEVE_CPUPROFILE_DIR"
	ProfileSecondsEnv = "SIEVE_CPUPROFILE_SECONDS"
)

// startProfile starts the CPU profile ProfileDirEnv asks for, if any; it
// stops and is written after the profiled span, in the background.
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
	time.AfterFunc(span, func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(stderr, "cpu profile: %v\n", err)
		}
	})
	return nil
}
