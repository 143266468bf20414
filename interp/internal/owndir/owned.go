package owndir

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Owner is the process that made a directory: its PID and its start time
// (clock ticks since boot on Linux, 0 where unknown), so that another
// process that later gets the same PID is not taken for it.
type Owner struct {
	PID   int
	Start uint64
}

// Self is this process as the owner of the directories it makes.
func Self() Owner {
	pid := os.Getpid()
	start, _ := processStart(pid)
	return Owner{PID: pid, Start: start}
}

// Pattern is the os.MkdirTemp pattern of o's directories named by
// prefix: PREFIXPID-START-RANDOM.
func (o Owner) Pattern(prefix string) string {
	return fmt.Sprintf("%s%d-%d-", prefix, o.PID, o.Start)
}

// DirOwner reads the owner from a directory's name made with prefix; ok
// is false for a name not made this way (an older sieve's), which is left
// alone.
func DirOwner(name, prefix string) (o Owner, ok bool) {
	parts := strings.Split(strings.TrimPrefix(name, prefix), "-")
	if !strings.HasPrefix(name, prefix) || len(parts) != 3 {
		return Owner{}, false
	}
	pid, err1 := strconv.Atoi(parts[0])
	start, err2 := strconv.ParseUint(parts[1], 10, 64)
	if err1 != nil || err2 != nil || pid <= 0 {
		return Owner{}, false
	}
	return Owner{PID: pid, Start: start}, true
}

// Alive reports whether o still runs: a process with its PID exists and,
// where start times are known, started when o did. When it cannot tell,
// it says alive.
func (o Owner) Alive() bool {
	start, exists := processStart(o.PID)
	return exists && (o.Start == 0 || start == 0 || start == o.Start)
}

// MkdirTemp reclaims the directories of prefix in dir (TMPDIR when "")
// and makes one of this process's.
func MkdirTemp(dir, prefix string) (string, error) {
	Reclaim(dir, prefix)
	return os.MkdirTemp(dir, Self().Pattern(prefix))
}

// Reclaim removes the directories of prefix in dir (TMPDIR when "")
// whose owner no longer runs: a sieve killed with SIGKILL cannot remove
// its own. It is best effort: a directory it cannot remove is left for
// the next start.
func Reclaim(dir, prefix string) {
	if dir == "" {
		dir = os.TempDir()
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		o, ok := DirOwner(e.Name(), prefix)
		if ok && e.IsDir() && !o.Alive() {
			_ = os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}
