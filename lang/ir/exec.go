package ir

import (
	"fmt"
	"path"

	"github.com/sievetool/sieve/lang/diag"
)

// ExecStandIn answers the controller's execs (pods/exec) into the pods
// it matches, since simulated pods run no containers: by running a
// program (Run) or with a scripted reply (Stdout, Stderr, Exit).
type ExecStandIn struct {
	Src diag.Range `json:"src"`
	// Pod is a glob on the pod's name; Namespace and Container are globs
	// too, empty for any.
	Pod       string `json:"pod"`
	Namespace string `json:"namespace,omitempty"`
	Container string `json:"container,omitempty"`
	// Command matches the exec's command, one glob per argument; a last
	// element ExecRest matches any further arguments (none included).
	Command []string `json:"command"`
	// Run is the program (then its arguments) that answers, with the
	// exec's streams as its own and the exec's command appended to its
	// arguments; its exit code is the exec's. When Run is empty, the
	// scripted reply answers.
	Run    []string `json:"run,omitempty"`
	Stdout string   `json:"stdout,omitempty"`
	Stderr string   `json:"stderr,omitempty"`
	Exit   int      `json:"exit,omitempty"`
}

// ExecRest, as the last element of an ExecStandIn's Command, matches the
// rest of the command.
const ExecRest = "..."

// CheckExecGlob returns a message when pattern, a glob of an exec
// stand-in (field what), is malformed, or "".
func CheckExecGlob(what, pattern string) string {
	if _, err := path.Match(pattern, ""); err != nil {
		return fmt.Sprintf("exec %s: bad pattern %q (%v)", what, pattern, err)
	}
	return ""
}

// CheckExecCommand returns a message and a hint when the command of an
// exec stand-in cannot match anything useful, or "" twice.
func CheckExecCommand(cmd []string) (summary, hint string) {
	if len(cmd) == 0 || cmd[0] == ExecRest {
		return "exec command: empty", `give the program, then its arguments: ["zkCli.sh", "get", "*"]; "..." matches the rest`
	}
	for i, a := range cmd {
		if a == ExecRest && i != len(cmd)-1 {
			return `exec command: "..." must be the last element`, "it matches every argument after the ones before it"
		}
		if s := CheckExecGlob("command", a); s != "" {
			return s, ""
		}
	}
	return "", ""
}
