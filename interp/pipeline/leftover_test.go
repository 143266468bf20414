package pipeline_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sievetool/sieve/interp/cluster/embedded"
)

// leftovers is what a test started (the processes and directories of its
// control planes, the ports they and the test listened on), to check that
// nothing of it is left once the test is done.
type leftovers struct {
	mu       sync.Mutex
	pids     map[int]string // component PIDs, each its own process group
	dirs     map[string]bool
	ports    map[int]string // port → its listening socket then ("" if none)
	children map[int]bool   // this process's children before the test
	sockets  map[string]bool
	tmpDirs  map[string]bool
}

// watchLeftovers starts watching; the check runs when the test is done,
// after every cleanup registered later (the control planes' stop).
func watchLeftovers(t *testing.T) *leftovers {
	l := &leftovers{pids: map[int]string{}, dirs: map[string]bool{}, ports: map[int]string{},
		children: children(), sockets: listeningSockets(), tmpDirs: clusterDirs()}
	t.Cleanup(func() { l.check(t) })
	return l
}

// plane records the processes, directory and ports of c as it is now.
func (l *leftovers) plane(c *embedded.Cluster) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, p := range c.Processes() {
		l.pids[p.PID] = p.Name
	}
	l.dirs[c.Dir()] = true
	listen := listeningPorts()
	for _, p := range c.Ports() {
		l.ports[p] = listen[p]
	}
}

// seen reports whether dir is the directory of a plane recorded before.
func (l *leftovers) seen(dir string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.dirs[dir]
}

func (l *leftovers) check(t *testing.T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for pid, st := range processes() {
		switch {
		case st.zombie:
		case l.pids[st.pgrp] != "":
			t.Errorf("process %d of %s's process group (pid %d) is left", pid, l.pids[st.pgrp], st.pgrp)
		case st.ppid == os.Getpid() && !l.children[pid]:
			t.Errorf("child process %d (%s) of the test is left", pid, st.comm)
		}
	}
	for dir := range l.dirs {
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("control plane directory %s is left", dir)
		}
	}
	for dir := range clusterDirs() {
		if !l.tmpDirs[dir] {
			t.Errorf("control plane directory %s, made during the test, is left", dir)
		}
	}
	// A port that listens on another socket than the plane's was taken
	// since by someone else: other packages' tests start control planes
	// at the same time.
	for port, socket := range listeningPorts() {
		if was, ok := l.ports[port]; ok && (was == "" || was == socket) {
			t.Errorf("port %d of a control plane still listens", port)
		}
	}
	for s := range listeningSockets() {
		if !l.sockets[s] {
			t.Errorf("the test still listens on %s", s)
		}
	}
}

// proc is what /proc/PID/stat says of a process.
type proc struct {
	comm       string
	ppid, pgrp int
	zombie     bool
}

// processes reads /proc/*/stat.
func processes() map[int]proc {
	out := map[int]proc{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		s := string(b)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		f := strings.Fields(s[end+1:]) // state ppid pgrp ...
		if open < 0 || len(f) < 3 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pgrp, _ := strconv.Atoi(f[2])
		out[pid] = proc{comm: s[open+1 : end], ppid: ppid, pgrp: pgrp, zombie: f[0] == "Z"}
	}
	return out
}

// children are this process's living children.
func children() map[int]bool {
	out := map[int]bool{}
	for pid, st := range processes() {
		if st.ppid == os.Getpid() && !st.zombie {
			out[pid] = true
		}
	}
	return out
}

// clusterDirs are this process's sieve-cluster-PID-* directories.
func clusterDirs() map[string]bool {
	out := map[string]bool{}
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "sieve-cluster-"+strconv.Itoa(os.Getpid())+"-*"))
	for _, d := range dirs {
		out[d] = true
	}
	return out
}

// listening reads /proc/net/tcp and tcp6: the sockets in state LISTEN
// ("socket:[INODE]"), and for each listening port, its socket.
func listening() (inodes map[string]bool, ports map[int]string) {
	inodes, ports = map[string]bool{}, map[int]string{}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, _ := os.ReadFile(f)
		for _, line := range strings.Split(string(b), "\n")[1:] {
			fs := strings.Fields(line)
			if len(fs) < 10 || fs[3] != "0A" {
				continue
			}
			_, hexPort, _ := strings.Cut(fs[1], ":")
			socket := "socket:[" + fs[9] + "]"
			if port, err := strconv.ParseInt(hexPort, 16, 32); err == nil {
				ports[int(port)] = socket
			}
			inodes[socket] = true
		}
	}
	return inodes, ports
}

func listeningPorts() map[int]string {
	_, ports := listening()
	return ports
}

// listeningSockets are the listening sockets this process holds open.
func listeningSockets() map[string]bool {
	inodes, _ := listening()
	out := map[string]bool{}
	fds, _ := os.ReadDir("/proc/self/fd")
	for _, fd := range fds {
		if target, err := os.Readlink("/proc/self/fd/" + fd.Name()); err == nil && inodes[target] {
			out[target] = true
		}
	}
	return out
}
