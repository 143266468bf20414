package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/sievetool/sieve/interp/run/controller"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
)

// interpreter matches the programs that run a file or a package named by
// an argument (sh ./ctl.sh, python op.py, java -jar x.jar, go run ./x):
// such a command with no file argument runs what the key cannot see.
var interpreter = regexp.MustCompile(`^(sh|bash|dash|zsh|ksh|ash|fish|env|python[0-9.]*|pypy[0-9.]*|node(js)?|deno|bun|npx|ruby|perl[0-9.]*|php[0-9.]*|java|lua[0-9.]*|tclsh|Rscript|dotnet|go)$`)

// runFiles are the files that the commands of test t's controller and
// stand-ins name (paths relative to baseDir), by content: the stand-in
// programs given by path, and every argument (or the value of a
// --flag=value) that names an existing regular file relative to the
// command's working directory (scripts, jars, configuration). A command
// whose files cannot be told (an argument names a directory, or an
// interpreter has no file argument) is an error: its key would not see an
// edit.
func runFiles(ctx context.Context, t *ir.Test, baseDir, cacheDir string) ([]string, error) {
	c := t.Controller
	var lines []string
	add := func(cmd []string, dir string, program bool) error {
		l, err := commandFiles(ctx, cmd, dir, program, cacheDir)
		lines = append(lines, l...)
		return err
	}
	// A program sieve builds or runs: "(PKG)" is no interpreter.
	cmd := append([]string{"(" + cmp.Or(c.Build, c.Builtin) + ")"}, c.Args...)
	if len(c.Command) > 0 {
		cmd = append(append([]string{}, c.Command...), c.Args...)
	}
	if err := add(cmd, controller.WorkDir(c, baseDir), false); err != nil {
		return nil, err
	}
	for _, x := range c.Exec {
		if err := add(x.Run, baseDir, true); err != nil {
			return nil, err
		}
	}
	for _, s := range c.Standins {
		if err := add(s.Command, baseDir, true); err != nil {
			return nil, err
		}
	}
	return lines, nil
}

// commandFiles are key lines for the files command cmd, run in dir,
// names: its program too when program is set and it is given by path
// (the controller's program is hashed by controllerHash, wherever PATH
// finds it), and the package of "go run PKG" by its build ID.
func commandFiles(ctx context.Context, cmd []string, dir string, program bool, cacheDir string) ([]string, error) {
	if len(cmd) == 0 {
		return nil, nil
	}
	var lines []string
	if program && strings.Contains(cmd[0], "/") {
		lines = append(lines, fileLine(cmd[0], dir))
	}
	if len(cmd) > 2 && filepath.Base(cmd[0]) == "go" && cmd[1] == "run" && !strings.HasPrefix(cmd[2], "-") && !strings.HasSuffix(cmd[2], ".go") {
		bin, err := controller.Build(ctx, dir, cmd[2], controller.CacheDir(cacheDir))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", showCommand(cmd), err)
		}
		sum, err := fileHash(bin)
		if err != nil {
			return nil, err
		}
		return append(lines, fmt.Sprintf("run go run %s %s", cmd[2], sum)), nil
	}
	found := false
	for _, arg := range cmd[1:] {
		for _, p := range argPaths(arg) {
			fi, err := os.Stat(ir.OSPath(dir, p))
			switch {
			case err != nil:
			case fi.IsDir():
				return nil, fmt.Errorf("cannot tell which files %s runs: %s is a directory", showCommand(cmd), p)
			case fi.Mode().IsRegular():
				found = true
				lines = append(lines, fileLine(p, dir))
			}
		}
	}
	if !found && interpreter.MatchString(filepath.Base(cmd[0])) {
		return nil, fmt.Errorf("cannot tell which files %s runs: no argument names a file", showCommand(cmd))
	}
	return lines, nil
}

// argPaths are the paths an argument may name: itself, and the value of
// a --flag=value.
func argPaths(arg string) []string {
	paths := []string{arg}
	if _, v, ok := strings.Cut(arg, "="); ok && strings.HasPrefix(arg, "-") && v != "" {
		paths = append(paths, v)
	}
	return paths
}

// fileLine is a key line for file name (relative to dir): its name as
// written, so that the key is the same in another checkout, and its
// content hash.
func fileLine(name, dir string) string {
	sum, err := fileHash(ir.OSPath(dir, name))
	if err != nil {
		sum = "missing"
	}
	return fmt.Sprintf("run %s %s", name, sum)
}

// showCommand quotes a command for a message, cut short.
func showCommand(cmd []string) string {
	return fmt.Sprintf("%q", diag.Quote(strings.Join(cmd, " ")))
}
