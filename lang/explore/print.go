package explore

import (
	"fmt"
	"strconv"

	"github.com/sievetool/sieve/lang/format"
	"github.com/sievetool/sieve/lang/syntax"
)

// Workload returns the workload named name that runs ops on r: apply the
// seed manifest seedFile (a path as the spec will name it), settle, then
// for each operation a merge patch of the seed's object and a settle.
func Workload(name, seedFile string, r *Resource, ops []Operation) (*syntax.Workload, error) {
	id, err := syntax.NewIdent(name)
	if err != nil {
		return nil, fmt.Errorf("workload: %w", err)
	}
	key, err := syntax.NewKey(r.Key())
	if err != nil {
		return nil, fmt.Errorf("workload: %w", err)
	}
	w := &syntax.Workload{Name: id, Steps: []syntax.Step{
		&syntax.Apply{Source: syntax.NewExpr(syntax.NewString(seedFile))},
		&syntax.Settle{},
	}}
	patches, err := Patches(r, ops)
	if err != nil {
		return nil, err
	}
	for i, p := range patches {
		patch, err := syntax.NewObject(p)
		if err != nil {
			return nil, fmt.Errorf("operation %s: %w", ops[i], err)
		}
		bareKeys(patch)
		w.Steps = append(w.Steps,
			&syntax.Patch{Target: syntax.NewExpr(key), Type: "merge", Patch: syntax.NewExpr(patch)},
			&syntax.Settle{})
	}
	return w, nil
}

// Print returns the text of Workload's workload, after a comment that
// lists the operations, one a line, numbered.
func Print(name, seedFile string, r *Resource, ops []Operation) ([]byte, error) {
	w, err := Workload(name, seedFile, r, ops)
	if err != nil {
		return nil, err
	}
	comment := []string{fmt.Sprintf("%d explored %s of %s (sieve explore):", len(ops), plural(len(ops)), r.Key())}
	for i, op := range ops {
		comment = append(comment, fmt.Sprintf("%d. %s", i+1, op))
	}
	return format.Decl(w, comment...), nil
}

func plural(n int) string {
	if n == 1 {
		return "operation"
	}
	return "operations"
}

// bareKeys writes the field names of o and the objects inside it bare
// where a path can hold them so ({ spec: { replicas: 2 } }), quoted
// elsewhere ({ "app.kubernetes.io/name": "x" }).
func bareKeys(o *syntax.Object) {
	syntax.Walk(o, func(n syntax.Node) bool {
		f, ok := n.(*syntax.Field)
		if !ok {
			return true
		}
		name, err := strconv.Unquote(f.Key.Head)
		if err != nil {
			return true
		}
		if p, err := syntax.NewPath(name); err == nil && len(p.Elems) == 0 && p.Head == name {
			f.Key = p
		}
		return true
	})
}
