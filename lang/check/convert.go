package check

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sievetool/sieve/lang/internal/spell"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/manifest"
)

// str checks that v is a string.
func (c *checker) str(v *value, what string) (string, bool) {
	if v.use(kString) {
		return "", false
	}
	if v.kind != kString {
		c.errorf(v.rng, "type", "%s: want a string, got %s", what, v.describe())
		return "", false
	}
	return v.s, true
}

// integer checks that v is an integer of at least min.
func (c *checker) integer(v *value, what string, min int64) (int64, bool) {
	if v.use(kInt) {
		return 0, false
	}
	if v.kind != kInt {
		c.errorf(v.rng, "type", "%s: want an integer, got %s", what, v.describe())
		return 0, false
	}
	if v.i < min {
		c.errorf(v.rng, "range", "%s: must be at least %d, got %d", what, min, v.i)
		return 0, false
	}
	return v.i, true
}

// count checks that v is an integer of at least min and within the bound
// of count k (ir.CheckCount).
func (c *checker) count(v *value, what string, min int64, k ir.Count) (int64, bool) {
	n, ok := c.integer(v, what, min)
	if !ok {
		return 0, false
	}
	if msg := ir.CheckCount(k, what, n); msg != "" {
		c.errorf(v.rng, "range", "%s", msg)
		return 0, false
	}
	return n, true
}

// boolean checks that v is true or false.
func (c *checker) boolean(v *value, what string) (bool, bool) {
	if v.use(kBool) {
		return false, false
	}
	if v.kind != kBool {
		c.errorf(v.rng, "type", "%s: want true or false, got %s", what, v.describe())
		return false, false
	}
	return v.b, true
}

// elems returns the elements of a list, or the value itself when it is a
// single value where a list is expected.
func elems(v *value) []*value {
	if v.kind == kList {
		return v.list
	}
	if v.kind == kUnknown {
		v.use(kList)
		return nil
	}
	return []*value{v}
}

// strList checks a list of strings (a single string counts as a list).
func (c *checker) strList(v *value, what string) []string {
	var out []string
	for _, e := range elems(v) {
		if s, ok := c.str(e, what); ok {
			out = append(out, s)
		}
	}
	return out
}

// word checks that v is one of the allowed bare words (or a string
// holding one).
func (c *checker) word(v *value, what string, allowed ...string) (string, bool) {
	if v.use(kWord) {
		return "", false
	}
	s := v.s
	if v.kind != kWord && v.kind != kRef && v.kind != kString || v.call {
		c.errorf(v.rng, "type", "%s: want one of %s, got %s", what, strings.Join(allowed, ", "), v.describe())
		return "", false
	}
	for _, a := range allowed {
		if s == a {
			return s, true
		}
	}
	d := c.errorf(v.rng, "unknown", "unknown %s %q (want one of %s)", what, s, strings.Join(allowed, ", "))
	hint(d, spell.Hint(s, allowed))
	return "", false
}

// filePath checks a file (or directory) path written in a spec: it must
// exist relative to the file it was written in. It returns the path
// relative to the root spec's directory, slash-separated; keepDot keeps a
// leading "./" (build packages, where "x" would be an import path).
func (c *checker) filePath(v *value, what string, dir, keepDot bool) (string, bool) {
	p, ok := c.str(v, what)
	if !ok {
		return "", false
	}
	if p == "" {
		c.errorf(v.rng, "file", "%s: empty path", what)
		return "", false
	}
	if v.file == nil || v.file.std {
		return filepath.ToSlash(p), true
	}
	osPath := v.file.osPath(p)
	if st, err := c.stat(osPath); err != nil {
		c.errorf(v.rng, "file", "%s: %s not found (relative to %s)", what, p, v.file.name)
		return "", false
	} else if st.IsDir() != dir {
		c.errorf(v.rng, "file", "%s: %s is %s", what, p, map[bool]string{true: "a directory", false: "not a directory"}[st.IsDir()])
		return "", false
	}
	if (what == "apply" || what == "crds" || what == "explore") && !c.manifestOK(v, what, osPath) {
		return "", false
	}
	return c.rebase(p, osPath, keepDot), true
}

// manifestOK checks a manifest or CRD file named at v (see package
// manifest), once per file and use.
func (c *checker) manifestOK(v *value, what, osPath string) bool {
	key := what + ":" + osPath
	err, seen := c.manifests[key]
	if !seen {
		err = manifest.CheckFile(osPath, what == "crds")
		c.manifests[key] = err
	}
	if err != nil {
		c.errorf(v.rng, "manifest", "%s: %s", what, manifestErr(err, osPath, v.s))
	}
	return err == nil
}

// rebase makes osPath relative to the root spec's directory; absolute
// paths as written stay absolute.
func (c *checker) rebase(written, osPath string, keepDot bool) string {
	if filepath.IsAbs(filepath.FromSlash(written)) {
		return filepath.ToSlash(filepath.Clean(osPath))
	}
	rel, err := filepath.Rel(c.rootDir, absPath(osPath))
	if err != nil {
		return filepath.ToSlash(filepath.Clean(osPath))
	}
	rel = filepath.ToSlash(rel)
	if keepDot && !strings.HasPrefix(rel, "../") && rel != ".." {
		rel = "./" + rel
	}
	return rel
}

// manifestErr words a manifest's error with the path as the spec wrote it.
func manifestErr(err error, osPath, written string) string {
	return strings.Replace(err.Error(), osPath, written, 1)
}

// stat is os.Stat, remembered for the rest of the check: specs name the
// same files in many tests.
func (c *checker) stat(p string) (os.FileInfo, error) {
	if r, ok := c.stats[p]; ok {
		return r.info, r.err
	}
	info, err := os.Stat(p)
	c.stats[p] = statResult{info, err}
	return info, err
}

type statResult struct {
	info os.FileInfo
	err  error
}
