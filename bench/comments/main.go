// Command comments measures how long the sentences of the repository's Go
// comments are. It prints the median sentence length in words and the share
// of sentences over 40 words, for the whole tree and for each package.
//
// Usage, from the repository root:
//
//	go run ./bench/comments [-long] [DIR]
//
// With -long it lists the sentences over 40 words instead, each with the
// position of its comment.
//
// Testdata directories are skipped. A sentence ends at '.', '!' or '?'
// followed by a space, at a blank line and at the end of a comment; indented
// code blocks are left out.
package main

import (
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// long is the length, in words, above which a sentence counts as long.
const long = 40

func main() {
	listLong := flag.Bool("long", false, "list the sentences over 40 words")
	flag.Parse()
	root := "."
	if flag.NArg() > 0 {
		root = flag.Arg(0)
	}
	var w io.Writer = io.Discard
	if *listLong {
		w = os.Stdout
	}
	byPkg, err := collect(root, w)
	if err != nil {
		fmt.Fprintln(os.Stderr, "comments:", err)
		os.Exit(1)
	}
	if *listLong {
		return
	}
	var all []int
	pkgs := make([]string, 0, len(byPkg))
	for p, lens := range byPkg {
		pkgs = append(pkgs, p)
		all = append(all, lens...)
	}
	sort.Strings(pkgs)
	fmt.Printf("%-45s %9s %6s %6s\n", "package", "sentences", "median", ">40")
	row("all", all)
	for _, p := range pkgs {
		row(p, byPkg[p])
	}
}

// row prints one line of the table: the count, median and long share of lens.
func row(name string, lens []int) {
	sort.Ints(lens)
	over := 0
	for _, n := range lens {
		if n > long {
			over++
		}
	}
	median := 0.0
	if k := len(lens); k > 0 {
		median = float64(lens[(k-1)/2]+lens[k/2]) / 2
	}
	share := 0.0
	if len(lens) > 0 {
		share = 100 * float64(over) / float64(len(lens))
	}
	fmt.Printf("%-45s %9d %6.1f %5.1f%%\n", name, len(lens), median, share)
}

// collect walks root and returns the sentence lengths of each directory's
// Go comments, keyed by the directory relative to root. It writes each
// sentence over long words to w, after its comment's position.
func collect(root string, w io.Writer) (map[string][]int, error) {
	byPkg := map[string][]int{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		dir, _ := filepath.Rel(root, filepath.Dir(path))
		for _, g := range f.Comments {
			for _, s := range sentences(g.Text()) {
				byPkg[dir] = append(byPkg[dir], len(s))
				if len(s) > long {
					fmt.Fprintf(w, "%s: %d: %s\n", fset.Position(g.Pos()), len(s), strings.Join(s, " "))
				}
			}
		}
		return nil
	})
	return byPkg, err
}

var (
	// sentenceEnd matches the end of a sentence inside a paragraph; "e.g."
	// and "i.e." are written without a following comma often enough that
	// they are taken out first.
	sentenceEnd = regexp.MustCompile(`[.!?]["')]*\s+`)
	abbrev      = strings.NewReplacer("e.g.", "eg", "i.e.", "ie")
)

// sentences returns the words of each sentence in comment text.
func sentences(text string) [][]string {
	var out [][]string
	for _, para := range strings.Split(text, "\n\n") {
		var prose []string
		for _, line := range strings.Split(para, "\n") {
			if !strings.HasPrefix(line, "\t") && !strings.HasPrefix(line, "  ") {
				prose = append(prose, line)
			}
		}
		joined := abbrev.Replace(strings.Join(prose, " ")) + " "
		for _, s := range sentenceEnd.Split(joined, -1) {
			if words := strings.Fields(s); len(words) > 0 {
				out = append(out, words)
			}
		}
	}
	return out
}
