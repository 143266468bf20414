package ci

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeSieve is a sieve that logs its arguments and, for run, writes a
// results directory, so that the script's commands can be checked without
// control planes (TestWorkflowRuns runs the real ones). Its run exits
// $FAKE_RUN_EXIT.
const fakeSieve = `#!/bin/sh
echo "sieve $*" >> "$FAKE_LOG"
if [ "$1" = run ]; then
	while [ $# -gt 1 ]; do
		if [ "$1" = -o ]; then mkdir -p "$2" && echo '{}' > "$2/summary.json"; fi
		shift
	done
	exit "${FAKE_RUN_EXIT:-0}"
fi
`

// runScript runs run-shards.sh with args and the fake sieve; it returns
// the script's exit status and the sieve commands it ran.
func runScript(t *testing.T, env []string, args ...string) (int, []string) {
	t.Helper()
	dir := t.TempDir()
	sieve := filepath.Join(dir, "sieve")
	if err := os.WriteFile(sieve, []byte(fakeSieve), 0o755); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs("run-shards.sh")
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "log")
	cmd := exec.Command("bash", append([]string{script}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SIEVE="+sieve, "FAKE_LOG="+log, "SIEVE_SPEC=specs/x.sieve")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(log)
	t.Logf("run-shards.sh %s: exit %d\n%s", strings.Join(args, " "), code, out)
	return code, strings.Split(strings.TrimSpace(string(b)), "\n")
}

// TestRunShardsAll checks the commands of the whole recipe on one
// machine: one recording, each shard with the run flags, one report of
// every shard.
func TestRunShardsAll(t *testing.T) {
	code, cmds := runScript(t, []string{"SIEVE_FLAGS=--test fixed", "SIEVE_RUN_FLAGS=--max-plans 1"}, "all", "2")
	want := []string{
		"sieve setup --help",
		"sieve setup",
		"sieve record specs/x.sieve --test fixed -o sieve-ci/record",
		"sieve setup --help",
		"sieve setup",
		"sieve run specs/x.sieve --test fixed --max-plans 1 --shard 1/2 -o sieve-ci/shard-1",
		"sieve setup --help",
		"sieve setup",
		"sieve run specs/x.sieve --test fixed --max-plans 1 --shard 2/2 -o sieve-ci/shard-2",
		"sieve report sieve-ci/shard-1 sieve-ci/shard-2 --junit sieve-ci/report/junit.xml --html sieve-ci/report/html",
	}
	if code != 0 || strings.Join(cmds, "\n") != strings.Join(want, "\n") {
		t.Errorf("exit %d, commands:\n%s\nwant exit 0 and:\n%s", code, strings.Join(cmds, "\n"), strings.Join(want, "\n"))
	}
}

// TestRunShardsExit checks that findings in a shard leave the verdict to
// the report, and that a shard that could not run stops the script with
// its status.
func TestRunShardsExit(t *testing.T) {
	if code, cmds := runScript(t, []string{"FAKE_RUN_EXIT=1"}, "all", "2"); code != 0 || !strings.HasPrefix(cmds[len(cmds)-1], "sieve report") {
		t.Errorf("findings in the shards: exit %d, last command %q; want the report run (whose status the fake makes 0)", code, cmds[len(cmds)-1])
	}
	if code, cmds := runScript(t, []string{"FAKE_RUN_EXIT=3"}, "all", "2"); code != 3 || strings.HasPrefix(cmds[len(cmds)-1], "sieve report") {
		t.Errorf("a shard that could not run: exit %d, last command %q; want exit 3 before the report", code, cmds[len(cmds)-1])
	}
	if code, _ := runScript(t, nil, "shard"); code == 0 {
		t.Errorf("shard without I/N: exit 0, want a usage error")
	}
}

// TestRunShardsShellcheck holds the script clean under shellcheck, when it
// is installed (.ci/run installs it).
func TestRunShardsShellcheck(t *testing.T) {
	sc, err := exec.LookPath("shellcheck")
	if err != nil {
		t.Skip("shellcheck is not installed")
	}
	if out, err := exec.Command(sc, "run-shards.sh").CombinedOutput(); err != nil {
		t.Errorf("shellcheck run-shards.sh: %v\n%s", err, out)
	}
}
