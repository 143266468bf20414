// Command testtimes reads the output of `go test -json` and prints where the
// time went: each package's start, end and elapsed seconds, longest first,
// the tests that took longest, and the package that ended the run (with
// -p N, the suite lasts as long as its last package to end: its critical
// path).
//
// Usage, from the repository root:
//
//	go test -json -p 3 ./... > /tmp/tests.json
//	go run ./bench/testtimes [-n 30] [-min 1s] /tmp/tests.json
//
// With no file it reads standard input. Lines that are not JSON events
// (build output) are skipped.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Time    time.Time
	Action  string
	Package string
	Test    string
	Elapsed float64
}

// span is the time one package or one test took.
type span struct {
	Name       string
	Start, End time.Time
	Elapsed    float64
	Result     string
}

// times holds what a run's events say, with the first event's time as zero.
type times struct {
	First    time.Time
	Packages []span
	Tests    []span
}

func main() {
	n := flag.Int("n", 30, "how many of the longest tests to list")
	minTest := flag.Duration("min", time.Second, "leave out tests shorter than this")
	flag.Parse()
	in := io.Reader(os.Stdin)
	if flag.NArg() > 0 {
		f, err := os.Open(flag.Arg(0))
		if err != nil {
			fmt.Fprintln(os.Stderr, "testtimes:", err)
			os.Exit(1)
		}
		defer f.Close()
		in = f
	}
	t, err := read(in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testtimes:", err)
		os.Exit(1)
	}
	write(os.Stdout, t, *n, *minTest)
}

// read collects the packages' and tests' spans from a `go test -json`
// stream. A package's span runs from its first event to its result.
func read(r io.Reader) (times, error) {
	var t times
	pkgs := map[string]*span{}
	tests := map[string]*span{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Package == "" {
			continue
		}
		if t.First.IsZero() || e.Time.Before(t.First) {
			t.First = e.Time
		}
		p := pkgs[e.Package]
		if p == nil {
			p = &span{Name: e.Package, Start: e.Time}
			pkgs[e.Package] = p
		}
		p.End = e.Time
		if e.Test != "" {
			record(tests, e.Package+" "+e.Test, e)
		} else if isResult(e.Action) {
			p.Elapsed, p.Result = e.Elapsed, e.Action
		}
	}
	if err := sc.Err(); err != nil {
		return t, fmt.Errorf("reading events: %w", err)
	}
	t.Packages = sorted(pkgs)
	t.Tests = sorted(tests)
	return t, nil
}

// record notes event e in the span of the test it names.
func record(tests map[string]*span, name string, e event) {
	s := tests[name]
	if s == nil {
		s = &span{Name: name, Start: e.Time}
		tests[name] = s
	}
	s.End = e.Time
	if isResult(e.Action) {
		s.Elapsed, s.Result = e.Elapsed, e.Action
	}
}

func isResult(action string) bool {
	return action == "pass" || action == "fail" || action == "skip"
}

// sorted lists the spans, longest first.
func sorted(m map[string]*span) []span {
	var out []span
	for _, s := range m {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Elapsed != out[j].Elapsed {
			return out[i].Elapsed > out[j].Elapsed
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// write writes the packages, the n longest tests of at least shortest and the
// critical path.
func write(w io.Writer, t times, n int, shortest time.Duration) {
	fmt.Fprintf(w, "%-8s %8s %8s %8s  %s\n", "elapsed", "start", "end", "result", "package")
	var last span
	for _, p := range t.Packages {
		if p.Result == "skip" && p.Elapsed == 0 {
			continue
		}
		fmt.Fprintf(w, "%7.1fs %7.1fs %7.1fs %8s  %s\n", p.Elapsed, t.since(p.Start), t.since(p.End), p.Result, p.Name)
		if p.End.After(last.End) {
			last = p
		}
	}
	fmt.Fprintf(w, "\n%-8s %8s  %s\n", "elapsed", "result", "test")
	listed := 0
	for _, s := range t.Tests {
		if listed == n || s.Elapsed < shortest.Seconds() {
			break
		}
		fmt.Fprintf(w, "%7.1fs %8s  %s\n", s.Elapsed, s.Result, strings.TrimPrefix(s.Name, modulePrefix(s.Name)))
		listed++
	}
	if last.Name != "" {
		fmt.Fprintf(w, "\nwall %.1fs; last to end: %s (started at %.1fs, %.1fs)\n",
			t.since(last.End), last.Name, t.since(last.Start), last.Elapsed)
	}
}

// since is the seconds from the run's first event to at.
func (t times) since(at time.Time) float64 { return at.Sub(t.First).Seconds() }

// modulePrefix is the part of a package path up to its module's last
// element, left out of test names to keep them short.
func modulePrefix(name string) string {
	const mod = "github.com/sievetool/sieve/"
	if strings.HasPrefix(name, mod) {
		return mod
	}
	return ""
}
