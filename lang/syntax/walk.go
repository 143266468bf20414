package syntax

import "reflect"

var nodeType = reflect.TypeOf((*Node)(nil)).Elem()

// Walk calls fn for n and, while fn returns true, for every node under it,
// in source order. Comments are not visited.
func Walk(n Node, fn func(Node) bool) {
	v := reflect.ValueOf(n)
	if !v.IsValid() || (v.Kind() == reflect.Pointer && v.IsNil()) {
		return
	}
	if !fn(n) {
		return
	}
	walkFields(v.Elem(), fn)
}

func walkFields(v reflect.Value, fn func(Node) bool) {
	for i := 0; i < v.NumField(); i++ {
		if v.Type().Field(i).Name == "Comments" {
			continue
		}
		walkValue(v.Field(i), fn)
	}
}

func walkValue(f reflect.Value, fn func(Node) bool) {
	switch f.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !f.IsNil() && f.Type().Implements(nodeType) {
			Walk(f.Interface().(Node), fn)
		}
	case reflect.Slice:
		for j := 0; j < f.Len(); j++ {
			walkValue(f.Index(j), fn)
		}
	}
}

// span returns a pointer to the Span embedded in n, or nil.
func span(n Node) *Span {
	v := reflect.ValueOf(n)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	f := v.Elem().FieldByName("Span")
	if !f.IsValid() || f.Type() != spanType || !f.CanAddr() {
		return nil
	}
	return f.Addr().Interface().(*Span)
}
