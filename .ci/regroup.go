//go:build ignore

// Regroup moves the packages of interp/ into folders by role (run,
// analysis, formats, campaign; the backends stay in interp/cluster) and
// rewrites what names them: import paths in every tracked file (Go
// sources, go:generate lines, txtar and spec testdata, docs), and the
// relative paths ("../plan/testdata", filepath.Join("..", "..", "specs"))
// that a deeper directory breaks. Run it at the root of a checkout with a
// clean tree:
//
//	go run .ci/regroup.go
//
// It fails, changing nothing, when a package it moves is missing or its
// destination exists. Packages it does not know stay where they are.
package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// moves maps an interp package directory to its new place, both relative
// to interp/. The control plane's cache key hashes interp/cluster/embedded/
// {nodesim,seed} by path, so interp/cluster stays where it is.
var moves = map[string]string{
	"proxy":      "run/proxy",
	"controller": "run/controller",
	"workload":   "run/workload",
	"inject":     "run/inject",
	"standin":    "run/standin",
	"podexec":    "run/podexec",
	"netns":      "run/netns",
	"clusterdns": "run/clusterdns",
	"logcap":     "run/logcap",
	"observe":    "analysis/observe",
	"mask":       "analysis/mask",
	"trigger":    "analysis/trigger",
	"plan":       "analysis/plan",
	"oracle":     "analysis/oracle",
	"leader":     "analysis/leader",
	"trace":      "formats/trace",
	"planfile":   "formats/planfile",
	"dispatch":   "campaign/dispatch",
	"image":      "campaign/image",
	"kindschema": "cluster/kindschema",
}

const self = ".ci/regroup.go"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "regroup:", err)
		os.Exit(1)
	}
}

func run() error {
	mod, err := os.ReadFile("go.mod")
	if err != nil || !bytes.HasPrefix(mod, []byte("module github.com/sievetool/sieve\n")) {
		return fmt.Errorf("not at the root of the sieve repository (run it where go.mod is)")
	}
	for from, to := range moves {
		if st, err := os.Stat("interp/" + from); err != nil || !st.IsDir() {
			return fmt.Errorf("interp/%s: missing (was it moved or renamed? update moves)", from)
		}
		if _, err := os.Stat("interp/" + to); err == nil {
			return fmt.Errorf("interp/%s: exists already", to)
		}
	}
	files, err := tracked()
	if err != nil {
		return err
	}
	rewritten := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if bytes.IndexByte(data, 0) >= 0 {
			continue // binary
		}
		out := fixRelative(path.Dir(f), string(data))
		out = fixImports(out)
		if out != string(data) {
			rewritten[newPath(f)] = []byte(out)
		}
	}
	for _, from := range sortedKeys() {
		to := moves[from]
		if err := os.MkdirAll(path.Dir("interp/"+to), 0o755); err != nil {
			return err
		}
		if err := git("mv", "interp/"+from, "interp/"+to); err != nil {
			return err
		}
	}
	var gofiles []string
	for f, data := range rewritten {
		if err := os.WriteFile(f, data, 0o644); err != nil {
			return err
		}
		if strings.HasSuffix(f, ".go") {
			gofiles = append(gofiles, f)
		}
	}
	sort.Strings(gofiles)
	if len(gofiles) > 0 {
		// Import blocks are sorted by path, which changed.
		cmd := exec.Command("gofmt", append([]string{"-w"}, gofiles...)...)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("gofmt: %w", err)
		}
	}
	fmt.Printf("regroup: moved %d packages, rewrote %d files\n", len(moves), len(rewritten))
	return nil
}

func tracked() ([]string, error) {
	out, err := exec.Command("git", "ls-files", "-z").Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %w", err)
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" && f != self {
			if st, err := os.Lstat(f); err == nil && st.Mode().IsRegular() {
				files = append(files, f)
			}
		}
	}
	return files, nil
}

func git(args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return nil
}

func sortedKeys() []string {
	var keys []string
	for k := range moves {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// newPath is where the file or directory p (slash-separated, relative to
// the root) is after the moves.
func newPath(p string) string {
	for from, to := range moves {
		old := "interp/" + from
		if p == old || strings.HasPrefix(p, old+"/") {
			return "interp/" + to + p[len(old):]
		}
	}
	return p
}

// importRE matches a path naming a moved package: interp/NAME as a whole
// path element, with or without the module path before it.
var importRE = regexp.MustCompile(`\binterp/(` + strings.Join(sortedKeys(), "|") + `)\b`)

func fixImports(s string) string {
	return importRE.ReplaceAllStringFunc(s, func(m string) string {
		return "interp/" + moves[strings.TrimPrefix(m, "interp/")]
	})
}

// relRE matches a relative path that climbs: ../x/y in a string, a spec or
// a doc link.
var relRE = regexp.MustCompile(`(?:\.\./)+[\w.\-/]*`)

// joinRE matches filepath.Join with leading ".." literals and the literal
// elements after them.
var joinRE = regexp.MustCompile(`filepath\.Join\(((?:"\.\.",\s*)*"\.\."(?:,\s*"[\w.\-]+")*)`)

// fixRelative rewrites the relative paths in a file in dir that name
// something in the tree, so that they name it from the file's new place.
func fixRelative(dir, s string) string {
	s = joinRE.ReplaceAllStringFunc(s, func(m string) string {
		args := strings.TrimPrefix(m, "filepath.Join(")
		var elems []string
		for _, a := range strings.Split(args, ",") {
			e, err := strconv.Unquote(strings.TrimSpace(a))
			if err != nil {
				return m
			}
			elems = append(elems, e)
		}
		rel, ok := remap(dir, strings.Join(elems, "/"))
		if !ok {
			return m
		}
		var quoted []string
		for _, e := range strings.Split(rel, "/") {
			quoted = append(quoted, strconv.Quote(e))
		}
		return "filepath.Join(" + strings.Join(quoted, ", ")
	})
	return relRE.ReplaceAllStringFunc(s, func(m string) string {
		p, tail := m, ""
		for strings.HasSuffix(p, ".") && !strings.HasSuffix(p, "..") {
			p, tail = p[:len(p)-1], "."+tail // a sentence's full stop
		}
		if rel, ok := remap(dir, p); ok {
			return rel + tail
		}
		return m
	})
}

// remap returns rel, relative to dir, as the relative path from dir's new
// place to its target's new place, when the target exists and either end
// moves.
func remap(dir, rel string) (string, bool) {
	target := path.Join(dir, rel)
	if strings.HasPrefix(target, "..") {
		return "", false
	}
	if _, err := os.Stat(target); err != nil {
		return "", false
	}
	newDir, newTarget := newPath(dir), newPath(target)
	if newDir == dir && newTarget == target {
		return "", false
	}
	out := relPath(newDir, newTarget)
	if strings.HasSuffix(rel, "/") {
		out += "/"
	}
	return out, true
}

// relPath is the slash path from directory from to to.
func relPath(from, to string) string {
	f, t := split(from), split(to)
	i := 0
	for i < len(f) && i < len(t) && f[i] == t[i] {
		i++
	}
	var parts []string
	for range f[i:] {
		parts = append(parts, "..")
	}
	parts = append(parts, t[i:]...)
	if len(parts) == 0 {
		return "."
	}
	return strings.Join(parts, "/")
}

func split(p string) []string {
	if p == "." || p == "" {
		return nil
	}
	return strings.Split(p, "/")
}
