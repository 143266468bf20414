package ir

// SplitPath returns the keys (PathElem.Key) of the elements of the path p,
// or nil if p does not parse.
//
// Deprecated: use ParsePath. SplitPath stays only for code written on
// other branches before Path existed (the field lint in lang/check); it
// goes once that code is ported.
func SplitPath(p string) []string {
	path, err := ParsePath(p)
	if err != nil {
		return nil
	}
	out := make([]string, len(path))
	for i, e := range path {
		out[i] = e.Key()
	}
	return out
}

// JoinPath writes elements as a path in its text form: a number is an
// index, "*" is any key or index, anything else a field.
//
// Deprecated: build a Path and call String. JoinPath stays only for code
// written on other branches before Path existed; it goes with SplitPath.
func JoinPath(elems []string) string {
	path := make(Path, len(elems))
	for i, s := range elems {
		switch n, ok := number(s); {
		case ok:
			path[i] = IndexElem(n)
		case s == "*":
			path[i] = AnyElem()
		default:
			path[i] = FieldElem(s)
		}
	}
	return path.String()
}
