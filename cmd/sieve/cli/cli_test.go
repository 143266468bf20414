package cli

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/sievetool/sieve/internal/golden"
	"github.com/sievetool/sieve/interp/formats/results"
)

// TestMain lets testscript run the sieve binary in-process as "sieve".
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"sieve": func() { os.Exit(Main()) }})
}

// TestScript runs testdata/script/*.txtar. SIEVE_UPDATE=1 rewrites the
// expected output files of the scripts.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: golden.Update(),
		Cmds:          map[string]func(*testscript.TestScript, bool, []string){"gen": cmdGen, "holdlock": cmdHoldLock, "exits": cmdExits},
		Setup: func(e *testscript.Env) error {
			e.Setenv("NO_COLOR", "1")
			return nil
		},
	})
}

// cmdGen writes hostile input: gen FILE KIND [N]. Kinds: random (N random
// bytes, fixed seed), nul (NUL bytes inside a declaration), badutf8,
// nested (N nested brackets), big (a valid spec of at least N bytes).
// gen FILE expand SRC writes SRC with $VARs (such as $WORK) expanded.
func cmdGen(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: gen FILE random|nul|badutf8|nested|big [N] | gen FILE expand SRC")
	}
	if args[1] == "expand" && len(args) == 3 {
		ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(os.Expand(ts.ReadFile(args[2]), ts.Getenv)), 0o644))
		return
	}
	n := 0
	if len(args) > 2 {
		var err error
		if n, err = strconv.Atoi(args[2]); err != nil {
			ts.Fatalf("gen: bad N: %v", err)
		}
	}
	data, err := generate(args[1], n)
	if err != nil {
		ts.Fatalf("gen: %v", err)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), data, 0o644))
}

// cmdHoldLock makes the test process hold the lock of a results
// directory until the script ends, as a running sieve would: holdlock DIR.
// It sets $LOCKPID to the holder's PID.
func cmdHoldLock(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: holdlock DIR")
	}
	unlock, err := results.Lock(results.Layout{Root: ts.MkAbs(args[0])})
	ts.Check(err)
	ts.Defer(unlock)
	ts.Setenv("LOCKPID", strconv.Itoa(os.Getpid()))
}

// cmdExits runs a program, as exec does, and fails the script unless it
// exits with CODE: exits CODE PROG [ARGS...].
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROG [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad CODE %q", args[0])
	}
	got := 0
	var ee *exec.ExitError
	switch err := ts.Exec(args[1], args[2:]...); {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("exits: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

func generate(kind string, n int) ([]byte, error) {
	switch kind {
	case "random":
		r := rand.New(rand.NewPCG(1, 2))
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return b, nil
	case "nul":
		return []byte("controller c {\n  build \"./x\x00\"\n  \x00\x00\n}\n"), nil
	case "badutf8":
		return []byte("controller c {\n  build \"\xff\xfe\"\n}\n"), nil
	case "nested":
		return []byte("test t { runs " + strings.Repeat("[", n) + strings.Repeat("]", n) + " }\n"), nil
	case "big":
		return bigSpec(n), nil
	}
	return nil, fmt.Errorf("unknown kind %q", kind)
}

// bigSpec is a spec of at least n bytes: many masks, with an error at the
// end so the check must read it all.
func bigSpec(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "mask m%d {\n  key uid\n  pod/*/* path spec.nodeName\n}\n", i)
	}
	b.WriteString("test t {\n  controller nosuch\n}\n")
	return b.Bytes()
}
