package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// recorder is a testing.TB that keeps what Errorf says instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

const archive = `-- in --
input
-- out --
log
-- out/ast --
tree
`

// TestCheck compares outputs with an archive: its out/ sections and the
// sections got names, an empty output standing for a missing section.
func TestCheck(t *testing.T) {
	t.Setenv("SIEVE_UPDATE", "")
	cases := []struct {
		name string
		got  map[string]string
		errs []string // a prefix of each error, in order
	}{
		{"equal", map[string]string{"out": "log\n", "out/ast": "tree\n"}, nil},
		{"empty output, no section", map[string]string{"out": "log\n", "out/ast": "tree\n", "out/diag": ""}, nil},
		{"named section differs", map[string]string{"out": "other\n", "out/ast": "tree\n"}, []string{"out differs"}},
		{"a section outside out/ that got does not name is input", map[string]string{"out/ast": "tree\n"}, nil},
		{"unexpected", map[string]string{"out": "log\n", "out/ast": "tree\n", "out/diag": "x\n"}, []string{"out/diag: unexpected output"}},
		{"not produced", map[string]string{"out": "log\n"}, []string{"out/ast: expected output not produced"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &recorder{TB: t}
			Check(r, "unused.txtar", txtar.Parse([]byte(archive)), bytesOf(c.got))
			if len(r.errs) != len(c.errs) {
				t.Fatalf("errors %q, want %d starting %q", r.errs, len(c.errs), c.errs)
			}
			for i, e := range c.errs {
				if !strings.HasPrefix(r.errs[i], e) {
					t.Errorf("error %q, want it to start %q", r.errs[i], e)
				}
			}
		})
	}
}

// TestCheckUpdate rewrites the outputs in place, drops the out/ sections
// got lacks, keeps an empty one the archive has and adds no empty one.
func TestCheckUpdate(t *testing.T) {
	t.Setenv("SIEVE_UPDATE", "1")
	file := filepath.Join(t.TempDir(), "a.txtar")
	ar := txtar.Parse([]byte(archive + "-- out/old --\nold\n-- out/keep --\n"))
	got := map[string]string{"out": "new log\n", "out/ast": "tree\n", "out/keep": "", "out/new": "n\n", "out/none": ""}
	Check(t, file, ar, bytesOf(got))
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := "-- in --\ninput\n-- out --\nnew log\n-- out/ast --\ntree\n-- out/keep --\n-- out/new --\nn\n"
	if string(b) != want {
		t.Errorf("rewritten archive:\n%s\nwant:\n%s", b, want)
	}
}

// TestFileDiff shows a differing golden file as a diff: the changed line
// and its neighbours, not the whole file.
func TestFileDiff(t *testing.T) {
	t.Setenv("SIEVE_UPDATE", "")
	var lines []string
	for i := range 40 {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	path := filepath.Join(t.TempDir(), "doc.md")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lines[20] = "changed"
	r := &recorder{TB: t}
	File(r, path, []byte(strings.Join(lines, "\n")+"\n"))
	if len(r.errs) != 1 {
		t.Fatalf("errors %q, want one", r.errs)
	}
	msg := r.errs[0]
	if !strings.Contains(msg, "-line 20\n") || !strings.Contains(msg, "+changed\n") || strings.Contains(msg, "line 5\n") {
		t.Errorf("message is not a diff of the change:\n%s", msg)
	}
}

// TestInputDir writes every section but the out/ ones, in directories
// as their names say, and works in that directory.
func TestInputDir(t *testing.T) {
	InputDir(t, txtar.Parse([]byte("-- in.sieve --\nspec\n-- lib/a.sieve --\nlib\n-- out/ir --\nir\n")))
	for name, want := range map[string]string{"in.sieve": "spec\n", "lib/a.sieve": "lib\n"} {
		if b, err := os.ReadFile(name); err != nil || string(b) != want {
			t.Errorf("%s: %q, %v; want %q", name, b, err, want)
		}
	}
	if _, err := os.Stat("out"); !os.IsNotExist(err) {
		t.Errorf("out/ written (%v)", err)
	}
}

func bytesOf(m map[string]string) map[string][]byte {
	b := map[string][]byte{}
	for k, v := range m {
		b[k] = []byte(v)
	}
	return b
}
