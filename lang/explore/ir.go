package explore

import (
	"fmt"
	"strings"

	"github.com/sievetool/sieve/lang/ir"
)

// Patches returns the merge patch of each operation of ops, made in
// order from the seed: the patch takes the state the operations before it
// left to the state it leaves (see Apply and MergePatch).
func Patches(r *Resource, ops []Operation) ([]map[string]any, error) {
	out := make([]map[string]any, 0, len(ops))
	state := r.Object
	for _, op := range ops {
		var err error
		if state, err = Apply(state, op); err != nil {
			return nil, err
		}
		out = append(out, MergePatch(state, op))
	}
	return out, nil
}

// Ref returns the seed's object as an ir.Ref that names it as traces do:
// the lowercase kind and its group ("datastore.example.com"), the
// namespace (none for a cluster-scoped kind) and the name.
func (r *Resource) Ref() ir.Ref {
	apiVersion, _ := r.Object["apiVersion"].(string)
	kind, _ := r.Object["kind"].(string)
	ref := ir.Ref{Kind: strings.ToLower(kind)}
	if group, _, ok := strings.Cut(apiVersion, "/"); ok {
		ref.Kind += "." + group
	}
	parts := strings.Split(r.Key(), "/")
	ref.Name = parts[len(parts)-1]
	if len(parts) == 3 {
		ref.Namespace = parts[1]
	}
	return ref
}

// IR returns the operation as the IR marks an explored patch step with
// it, on the resource r.
func (o Operation) IR(r *Resource) *ir.Operation {
	out := &ir.Operation{Resource: r.Ref(), Path: o.Path.String(), Change: string(o.Change)}
	if !o.removes() {
		out.Value = o.Value
	}
	return out
}

// FromIR returns the operation an IR explored patch step makes.
func FromIR(o *ir.Operation) (Operation, error) {
	p, err := ir.ParsePath(o.Path)
	if err != nil {
		return Operation{}, fmt.Errorf("explored operation: %w", err)
	}
	return Operation{Path: p, Change: Change(o.Change), Value: o.Value}, nil
}
