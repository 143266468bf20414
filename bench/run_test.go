// Package bench holds the tests of the benchmark script run.sh. The other
// measuring tools live beside it: load.sh, planload.sh, comments and
// testtimes.
package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeGo is a go command whose `go test -c -o OUT PKG` writes, as OUT, a
// test binary that prints fixed benchmark lines: the embedded package's,
// or the proxy's. The cold start it reports is slower while the script's
// load runs.
const fakeGo = `#!/bin/sh
out=
while [ $# -gt 0 ]; do
	if [ "$1" = -o ]; then out=$2; fi
	pkg=$1
	shift
done
case $pkg in
*embedded*) cat > "$out" <<'EOF'
#!/bin/sh
s=1.700
if pgrep -f sieve-bench-load >/dev/null; then s=2.400; fi
echo "BenchmarkColdStart-2 5 1800000000 ns/op 2.800 cpu-s/op $s median-s 700 peak-rss-MB 380 pss-MB"
echo "BenchmarkReset-2 5 160000000 ns/op"
EOF
;;
*) cat > "$out" <<'EOF'
#!/bin/sh
echo "BenchmarkOverhead/http1-2 300 9000000 ns/op 4000000 direct-ns/workload 4160000 proxy-ns/workload 1.040 proxy/direct"
EOF
;;
esac
chmod +x "$out"
`

// TestRunScript runs run.sh with a fake go command and checks the medians
// and ratios it prints, and that its load does not outlive it.
func TestRunScript(t *testing.T) {
	if _, err := exec.LookPath("pgrep"); err != nil {
		t.Skip("pgrep is not installed")
	}
	if load() != 0 {
		t.Skip("another run.sh is running")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte(fakeGo), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "run.sh", "2")
	cmd.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"), "LOAD=1")
	cmd.WaitDelay = time.Second // a busy process left behind holds the output open
	t.Cleanup(func() { _ = exec.Command("pkill", "-f", "sieve-bench-load").Run() })
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("run.sh: %v\n%s", err, out)
	}
	for _, want := range []string{
		"2 rounds; load: 1 busy processes",
		"cold start, median s      1.700    2.400         1.41",
		"cold start, CPU-s         2.800    2.800         1.00",
		"reset, ms                   160      160         1.00",
		"proxy/direct              1.040    1.040         1.00",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := load(); n != 0 {
		t.Errorf("%d busy processes of the script remain", n)
	}
}

// load counts the busy processes of run.sh.
func load() int {
	out, _ := exec.Command("pgrep", "-f", "sieve-bench-load").Output()
	return len(strings.Fields(string(out)))
}
