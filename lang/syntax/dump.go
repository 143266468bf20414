package syntax

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Dump returns a compact, deterministic text form of the tree under n,
// without positions or comments: one node per line, "(Type field:value
// ...)", with fields that hold their zero value left out. Tests compare
// trees with it.
func Dump(n Node) string {
	var b strings.Builder
	dump(&b, reflect.ValueOf(n), 0)
	b.WriteString("\n")
	return b.String()
}

var spanType = reflect.TypeOf(Span{})

func dump(b *strings.Builder, v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		if inner, ok := trivial(v.Interface()); ok {
			dump(b, reflect.ValueOf(inner), depth)
			return
		}
		dump(b, v.Elem(), depth)
	case reflect.Struct:
		dumpStruct(b, v, depth)
	case reflect.Slice:
		b.WriteString("[")
		for i := 0; i < v.Len(); i++ {
			if v.Type().Elem().Kind() == reflect.String {
				if i > 0 {
					b.WriteString(" ")
				}
				dump(b, v.Index(i), depth)
				continue
			}
			newline(b, depth+1)
			dump(b, v.Index(i), depth+1)
		}
		b.WriteString("]")
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	default:
		fmt.Fprint(b, v.Interface())
	}
}

func dumpStruct(b *strings.Builder, v reflect.Value, depth int) {
	t := v.Type()
	b.WriteString("(" + t.Name())
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Type == spanType || f.Name == "Comments" || v.Field(i).IsZero() {
			continue
		}
		fv := v.Field(i)
		if isLeaf(fv) {
			b.WriteString(" " + f.Name + ":")
		} else {
			newline(b, depth+1)
			b.WriteString(f.Name + ":")
		}
		dump(b, fv, depth+1)
	}
	b.WriteString(")")
}

// trivial returns the only child of a node that only wraps it: an
// expression level without operators, a trigger without combinators. Dumps
// leave such levels out.
func trivial(n any) (any, bool) {
	switch n := n.(type) {
	case *Expr:
		return n.Left, len(n.Rest) == 0 && n.Left != nil
	case *Term:
		return n.Left, len(n.Rest) == 0 && n.Left != nil
	case *Unary:
		return n.Primary, !n.Neg && n.Primary != nil
	case *Trigger:
		return only(n.Seq)
	case *Either:
		return only(n.Alts)
	case *Both:
		return only(n.All)
	}
	return nil, false
}

// only returns the single non-nil element of xs.
func only[T comparable](xs []T) (any, bool) {
	var zero T
	if len(xs) != 1 || xs[0] == zero {
		return nil, false
	}
	return xs[0], true
}

// isLeaf reports whether v prints on its parent's line.
func isLeaf(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Struct, reflect.Slice:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.String {
			return true
		}
		if v.Kind() == reflect.Pointer && !v.IsNil() {
			if inner, ok := trivial(v.Interface()); ok {
				return isLeaf(reflect.ValueOf(inner))
			}
			return v.Elem().Kind() == reflect.Struct && isFlat(v.Elem())
		}
		if v.Kind() == reflect.Interface && !v.IsNil() {
			return isLeaf(v.Elem())
		}
		return false
	}
	return true
}

// isFlat reports whether a struct holds only scalar fields (an Ident, a
// literal), so it prints on one line.
func isFlat(v reflect.Value) bool {
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if v.Type().Field(i).Type == spanType {
			continue
		}
		switch f.Kind() {
		case reflect.String, reflect.Bool, reflect.Int:
		case reflect.Slice:
			if f.Type().Elem().Kind() != reflect.String {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func newline(b *strings.Builder, depth int) {
	b.WriteString("\n" + strings.Repeat("  ", depth))
}
