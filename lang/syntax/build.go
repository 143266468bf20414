package syntax

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/sievetool/sieve/lang/diag"
)

// The builders below make the nodes of a tree that a program writes
// rather than parses (generated plans, learned masks), to be printed by
// lang/format. A built node has no position; lang/format prints it on one
// line. Each builder of a token checks that its text is that token, so a
// built tree prints as text that parses back to it.

// NewIdent returns the identifier name.
func NewIdent(name string) (*Ident, error) {
	if !isToken(name, tIdent) {
		return nil, fmt.Errorf("identifier %s: not a .sieve identifier (letters, digits and _, not starting with a digit)", strconv.Quote(name))
	}
	return &Ident{Name: name}, nil
}

// NewKey returns the resource key text, kind/name or kind/namespace/name.
func NewKey(text string) (*KeyLit, error) {
	if !isToken(text, tKey) {
		return nil, fmt.Errorf("resource key %s: not a .sieve resource key (write kind/name or kind/namespace/name)", strconv.Quote(text))
	}
	return &KeyLit{Text: text}, nil
}

// NewDuration returns the duration d as the language writes it (1m30s).
func NewDuration(d time.Duration) (*DurationLit, error) {
	if !isToken(d.String(), tDuration) {
		return nil, fmt.Errorf("duration %s: not a .sieve duration (whole units, such as 1m30s or 500ms)", d)
	}
	return &DurationLit{Text: d.String()}, nil
}

// NewCount returns the number n, a count (not negative).
func NewCount(n uint) *NumberLit { return &NumberLit{Text: strconv.FormatUint(uint64(n), 10)} }

// NewString returns a string literal holding s.
func NewString(s string) *StringLit { return &StringLit{Text: strconv.Quote(s)} }

// NewExpr returns the expression that is the primary p.
func NewExpr(p Primary) *Expr { return &Expr{Left: &Term{Left: &Unary{Primary: p}}} }

// NewEvent returns the event leaf "on VERB TARGET".
func NewEvent(verb string, target *Expr) (*Event, error) {
	switch verb {
	case "create", "update", "delete":
		return &Event{Verb: verb, Target: target}, nil
	}
	return nil, fmt.Errorf("event verb %s: not create, update or delete", strconv.Quote(verb))
}

// NewWrite returns the write leaf "after [failed|sending] write VERB
// TARGET"; failed and sent cannot both be true.
func NewWrite(failed, sent bool, verb string, target *Expr) (*Write, error) {
	if failed && sent {
		return nil, fmt.Errorf("write leaf: failed and sending at once")
	}
	switch verb {
	case "create", "update", "patch", "delete", "deletecollection":
		return &Write{Failed: failed, Sent: sent, Verb: verb, Target: target}, nil
	}
	return nil, fmt.Errorf("write verb %s: not create, update, patch, delete or deletecollection", strconv.Quote(verb))
}

// NewReadLeaf returns the read leaf "on read VERB TARGET".
func NewReadLeaf(verb string, target *Expr) (*ReadLeaf, error) {
	switch verb {
	case "get", "list":
		return &ReadLeaf{Verb: verb, Target: target}, nil
	}
	return nil, fmt.Errorf("read verb %s: not get or list", strconv.Quote(verb))
}

// NewCallLeaf returns the call leaf "on call exec COMMAND" (channel
// "exec"), "on call METHOD PATH to STANDIN" (channel "http"), or "on
// call" (any channel); empty parts are left out.
func NewCallLeaf(channel string, command []string, method, path, standin string) (*CallLeaf, error) {
	n := &CallLeaf{Exec: channel == "exec", Method: method}
	http := method != "" || path != "" || standin != ""
	switch {
	case channel != "exec" && channel != "http" && channel != "":
		return nil, fmt.Errorf("call channel %s: not exec or http", strconv.Quote(channel))
	case channel == "exec" && http, channel != "exec" && command != nil:
		return nil, fmt.Errorf("call leaf: a command goes with an exec, a method, path or stand-in with an http call")
	case channel == "http" && !http:
		return nil, fmt.Errorf("call leaf: an http call with no method, path or stand-in has no .sieve form")
	case method != "" && (!isToken(method, tIdent) || slices.Contains([]string{"exec", "in", "to", "changed"}, method)):
		return nil, fmt.Errorf("call method %s: not a .sieve identifier other than exec, in, to and changed", strconv.Quote(method))
	}
	if command != nil {
		n.Command = &List{}
		for _, a := range command {
			n.Command.Elems = append(n.Command.Elems, NewExpr(NewString(a)))
		}
	}
	if path != "" {
		n.Path = NewString(path)
	}
	if standin != "" {
		n.Standin = NewString(standin)
	}
	return n, nil
}

// NewPath returns the field path written text (see grammar.md, "Field
// paths"): spec.replicas, metadata.labels."app", spec.containers[*].image.
func NewPath(text string) (*Path, error) {
	toks, _ := scanSignificant("", text, 1)
	var d *diag.Diagnostic
	for _, t := range toks {
		if d = checkToken(t); d != nil {
			break
		}
	}
	p := &descent{toks: toks}
	n := p.path()
	if d == nil && p.ok() && !p.peek().EOF() {
		p.fail("the end of the path")
	}
	if d == nil {
		d = p.err
	}
	if d != nil {
		return nil, fmt.Errorf("field path %s: %s", strconv.Quote(text), d.Summary)
	}
	Walk(n, func(n Node) bool {
		if s := span(n); s != nil {
			*s = Span{} // a position in text, which the tree is not part of
		}
		return true
	})
	return n, nil
}

// NewValue returns the literal of a JSON value: nil, a bool, a number, a
// string, or a list or object of them (an object's fields in the order of
// their names, as encoding/json writes them). Other values are written as
// encoding/json encodes them.
func NewValue(v any) (*Expr, error) {
	switch t := v.(type) {
	case nil:
		return NewExpr(&NullLit{Null: true}), nil
	case bool:
		return NewExpr(&BoolLit{Text: strconv.FormatBool(t)}), nil
	case string:
		return NewExpr(NewString(t)), nil
	case float64, float32, int, int64, int32, json.Number:
		return newNumber(t)
	case []any:
		return newList(t)
	case map[string]any:
		return newObject(t)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("value: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var plain any
	if err := dec.Decode(&plain); err != nil {
		return nil, fmt.Errorf("value: %w", err)
	}
	return NewValue(plain)
}

// newNumber writes a number as encoding/json does; a negative one is the
// negation of its absolute value.
func newNumber(v any) (*Expr, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("value: %w", err)
	}
	text, neg := string(b), b[0] == '-'
	if neg {
		text = text[1:]
	}
	if !isToken(text, tNumber) {
		return nil, fmt.Errorf("value %s: not a .sieve number", b)
	}
	e := NewExpr(&NumberLit{Text: text})
	e.Left.Left.Neg = neg
	return e, nil
}

func newList(l []any) (*Expr, error) {
	out := &List{Elems: make([]*Expr, len(l))}
	for i, v := range l {
		e, err := NewValue(v)
		if err != nil {
			return nil, err
		}
		out.Elems[i] = e
	}
	return NewExpr(out), nil
}

func newObject(m map[string]any) (*Expr, error) {
	o, err := NewObject(m)
	if err != nil {
		return nil, err
	}
	return NewExpr(o), nil
}

// NewObject returns the object literal of m, as NewValue does.
func NewObject(m map[string]any) (*Object, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	o := &Object{Fields: make([]*Field, len(keys))}
	for i, k := range keys {
		v, err := NewValue(m[k])
		if err != nil {
			return nil, err
		}
		o.Fields[i] = &Field{Key: &Path{Head: strconv.Quote(k)}, Value: v}
	}
	return o, nil
}

// isToken reports whether text is one token of type typ.
func isToken(text string, typ lexer.TokenType) bool {
	toks, _ := scanSignificant("", text, 1)
	return len(toks) == 2 && toks[0].Type == typ && toks[0].Value == text
}
