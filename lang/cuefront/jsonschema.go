package cuefront

import (
	"bytes"
	"encoding/json"
	"fmt"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/encoding/jsonschema"
)

// JSONSchema returns a JSON Schema (draft 2020-12) of the compiled IR, the
// output of `sieve compile`, generated from #IR, indented and ending in a
// newline.
func JSONSchema() ([]byte, error) {
	ctx := cuecontext.New()
	v := ctx.CompileString(IRSchemaText(), cue.Filename(irSchemaFile))
	if err := v.Err(); err != nil {
		return nil, fmt.Errorf("ir schema: %w", err)
	}
	expr, err := jsonschema.Generate(v.LookupPath(cue.MakePath(cue.Def("IR"))), nil)
	if err != nil {
		return nil, fmt.Errorf("json schema: %w", err)
	}
	b, err := ctx.BuildExpr(expr).MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("json schema: %w", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return nil, fmt.Errorf("json schema: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// CheckIR reports whether dump, the JSON of a compiled spec (ir.Dump),
// satisfies the CUE schema of the IR (#IR, closed: unknown fields are
// errors). Tests use it to keep #IR and the IR's Go types in step.
func CheckIR(dump []byte) error {
	ctx := cuecontext.New()
	schema := ctx.CompileString(IRSchemaText(), cue.Filename(irSchemaFile))
	if err := schema.Err(); err != nil {
		return fmt.Errorf("ir schema: %w", err)
	}
	v := ctx.CompileBytes(dump, cue.Filename("ir.json"))
	if err := v.Err(); err != nil {
		return fmt.Errorf("ir dump: %w", err)
	}
	u := schema.LookupPath(cue.MakePath(cue.Def("IR"))).Unify(v)
	if err := u.Validate(cue.Concrete(true)); err != nil {
		return fmt.Errorf("ir dump does not satisfy #IR: %w", cueerrors.Promote(err, ""))
	}
	return nil
}
