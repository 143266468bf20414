package observe

import (
	"fmt"

	"github.com/sievetool/sieve/interp/analysis/mask"
	"github.com/sievetool/sieve/interp/internal/runlabel"
	"github.com/sievetool/sieve/lang/ir"
)

// BuiltinMask is what plan generation always masks when it diffs objects,
// on top of the test's masks. It masks fields that change on every write
// or differ between runs (resourceVersion, uid, managedFields, generation,
// the run's label on an existing cluster, the runs that use a CRD). It masks values that look like
// timestamps or IP addresses. Masked fields keep their place (see
// Normalise), so deletionTimestamp appearing is still a change.
func BuiltinMask() *ir.Mask {
	all := ir.Ref{Kind: "*", Namespace: "*", Name: "*"}
	return &ir.Mask{
		Name: "plan-builtin",
		Rules: []*ir.MaskRule{
			{Target: all, Key: "resourceVersion"},
			{Target: all, Key: "uid"},
			{Target: all, Key: "managedFields"},
			{Target: all, Path: "metadata.generation"},
			{Target: all, Path: ir.Path{ir.FieldElem("metadata"), ir.FieldElem("labels"), ir.FieldElem(runlabel.Key)}.String()},
			{Target: all, Path: ir.Path{ir.FieldElem("metadata"), ir.FieldElem("annotations"), ir.FieldElem(runlabel.Users)}.String()},
			{Target: all, Value: mask.ValueTimestamp},
			{Target: all, Value: mask.ValueIP},
		},
	}
}

// Masks compiles the masks plan generation and the trigger engine use for
// test t: BuiltinMask plus the test's masks, for every oracle.
func Masks(t *ir.Test) (*mask.Matcher, error) {
	masks := []*ir.Mask{BuiltinMask()}
	if t != nil {
		masks = append(masks, t.Masks...)
	}
	s, err := mask.Compile(masks)
	if err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	return s.For(ir.OracleAll), nil
}
