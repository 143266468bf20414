package embedded

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// dirPrefix starts the name of every cluster's temporary directory.
const dirPrefix = "sieve-cluster-"

// owner is the process that made a cluster directory: its PID and its
// start time (clock ticks since boot on Linux, 0 where unknown), so that
// another process that later gets the same PID is not taken for it.
type owner struct {
	pid   int
	start uint64
}

// self is this process as the owner of the directories it makes.
func self() owner {
	pid := os.Getpid()
	start, _ := processStart(pid)
	return owner{pid: pid, start: start}
}

// pattern is the os.MkdirTemp pattern of o's directories:
// sieve-cluster-PID-START-RANDOM.
func (o owner) pattern() string {
	return fmt.Sprintf("%s%d-%d-", dirPrefix, o.pid, o.start)
}

// dirOwner reads the owner from a directory's name; ok is false for a
// name sieve did not make this way (an older sieve's), which is left alone.
func dirOwner(name string) (o owner, ok bool) {
	parts := strings.Split(strings.TrimPrefix(name, dirPrefix), "-")
	if !strings.HasPrefix(name, dirPrefix) || len(parts) != 3 {
		return owner{}, false
	}
	pid, err1 := strconv.Atoi(parts[0])
	start, err2 := strconv.ParseUint(parts[1], 10, 64)
	if err1 != nil || err2 != nil || pid <= 0 {
		return owner{}, false
	}
	return owner{pid: pid, start: start}, true
}

// alive reports whether o still runs: a process with its PID exists and,
// where start times are known, started when o did. When it cannot tell,
// it says alive.
func (o owner) alive() bool {
	start, exists := processStart(o.pid)
	return exists && (o.start == 0 || start == 0 || start == o.start)
}

// reclaim removes the cluster directories in dir whose owner no longer
// runs: a sieve killed with SIGKILL cannot remove its own. It is best
// effort: a directory it cannot remove is left for the next start.
func reclaim(dir string) {
	if dir == "" {
		dir = os.TempDir()
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		o, ok := dirOwner(e.Name())
		if ok && e.IsDir() && !o.alive() {
			_ = os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}
