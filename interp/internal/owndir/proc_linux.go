package owndir

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// processStart returns the start time of process pid (field 22 of
// /proc/PID/stat: clock ticks since boot) and whether the process runs; a
// zombie does not. When /proc cannot tell, the process runs, start unknown.
func processStart(pid int) (start uint64, runs bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if errors.Is(err, fs.ErrNotExist) {
		return 0, false
	}
	i := bytes.LastIndexByte(b, ')') // the command name, in parentheses, may hold anything
	if err != nil || i < 0 {
		return 0, true
	}
	fields := strings.Fields(string(b[i+1:])) // from field 3, the state
	if len(fields) < 20 {
		return 0, true
	}
	if fields[0] == "Z" {
		return 0, false
	}
	start, err = strconv.ParseUint(fields[22-3], 10, 64)
	if err != nil {
		return 0, true
	}
	return start, true
}
