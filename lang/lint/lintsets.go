package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sievetool/sieve/lang/celenv"
	"github.com/sievetool/sieve/lang/ir"
	"github.com/sievetool/sieve/lang/manifest"
)

// sets reports the sets of apply step s that fit (ir.FieldSet.Fits) a
// document of the manifest whose kind's schema is known and has no such
// field: the API server would refuse the apply.
func (l *fieldLinter) sets(s *ir.Step, kinds func(string) *celenv.Shape) {
	if s.Kind != ir.StepApply || len(s.Set) == 0 || !l.once(&s.Set) {
		return
	}
	objs, where := manifestObjects(l.schemas.baseDir, s)
	docs := make([][]string, len(objs))
	for i, o := range objs {
		docs[i] = o.Fields
	}
	for _, f := range s.Set {
		path, err := ir.ParsePath(f.Path)
		if err != nil {
			continue
		}
		for i, fits := range f.Fits(docs) {
			o := objs[i]
			if !fits {
				continue
			}
			if j, sh := pathMiss(kinds(strings.ToLower(o.Kind)), path); j >= 0 {
				at := fmt.Sprintf("set %s, which goes to %s %s (%sline %d)", f.Path, o.Kind, o.Name, where, o.Line)
				l.ds = append(l.ds, missing(s.Src, "apply", o.Kind, path[:j+1], at, known(sh), noFit(f, path, objs)))
			}
		}
	}
}

// noFit is the hint for set f that goes to a document whose kind lacks
// its field: which documents have the path's first field.
func noFit(f ir.FieldSet, path ir.Path, objs []manifest.Object) string {
	var with []string
	for _, o := range objs {
		if slices.Contains(o.Fields, path[0].Name) {
			with = append(with, o.Kind+" "+o.Name)
		}
	}
	if len(with) == 0 {
		return fmt.Sprintf("no document has %s, so the set goes to every one; a set goes to the documents that have its first field", path[0].Name)
	}
	return "the API server would refuse the apply; a set goes to the documents that have its first field: " + strings.Join(with, ", ")
}
