package check

import (
	"path/filepath"
	"strings"
)

// Attributes returns the attribute names a body of the declaration
// keyword allows (controller, policy or test; a test takes the controller's
// too), in the order grammar.md lists them, or nil for a declaration whose
// body holds no attributes. It is the list the checker holds bodies to,
// for editors that complete attribute names.
func Attributes(keyword string) []string {
	switch keyword {
	case "controller":
		return controllerAttrs()
	case "policy":
		return policyAttrs()
	case "test":
		return append(testAttrNames(), controllerAttrs()...)
	}
	return nil
}

// DeclKeywords returns the keywords that start a named declaration, in
// grammar order: controller, workload, policy, mask, invariant, plan, test.
func DeclKeywords() []string { return strings.Fields(declKindNames) }

// ResolveImport finds the files that import path p of the file importer
// names, as File resolves it: std/... in opts.Std (std reports that the
// files are names there), a path relative to importer's directory, or one
// of opts.SearchPath. ok is false when nothing matches.
func ResolveImport(importer, p string, opts Options) (files []string, std, ok bool) {
	c := newChecker(importer, opts)
	f := &file{name: importer, dir: filepath.Dir(importer)}
	loc, ok := c.resolve(f, p)
	return loc.files, loc.std, ok
}
