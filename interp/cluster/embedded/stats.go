package embedded

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Usage is the resource use of a cluster's running components.
type Usage struct {
	// CPU is the processor time the components have used so far, user
	// and system.
	CPU time.Duration
	// PeakRSS sums each component's peak resident set size (VmHWM). Pages
	// of the sieve binary that the components share count once per
	// component, so this is an upper bound.
	PeakRSS int64
	// PSS sums the components' current proportional set sizes: shared
	// pages are divided among the processes that share them, so this is
	// what the cluster really takes now.
	PSS int64
}

// Usage reports the resource use of the running components. It reads
// /proc and so works on Linux only.
func (c *Cluster) Usage() (Usage, error) {
	var m Usage
	for _, p := range c.Processes() {
		cpu, err := procCPU(p.PID)
		if err != nil {
			return Usage{}, err
		}
		m.CPU += cpu
		hwm, err := procKB(fmt.Sprintf("/proc/%d/status", p.PID), "VmHWM:")
		if err != nil {
			return Usage{}, err
		}
		pss, err := procKB(fmt.Sprintf("/proc/%d/smaps_rollup", p.PID), "Pss:")
		if err != nil {
			return Usage{}, err
		}
		m.PeakRSS += hwm * 1024
		m.PSS += pss * 1024
	}
	return m, nil
}

// clockTick is the unit of the times in /proc/PID/stat (USER_HZ, 100 on
// every Linux platform Go supports).
const clockTick = 10 * time.Millisecond

// procCPU reads the user and system time of a process.
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("cpu time: %w", err)
	}
	// Fields after the command name: state(0) ppid ... utime(11) stime(12).
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("cpu time: short /proc/%d/stat", pid)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("cpu time: malformed /proc/%d/stat", pid)
	}
	return time.Duration(utime+stime) * clockTick, nil
}

// procKB reads the first "Field: N kB" line of a /proc file.
func procKB(path, field string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("memory: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		}
	}
	return 0, fmt.Errorf("memory: no %s in %s", field, path)
}
