// Package spell suggests the nearest known name for a misspelt one, for
// the "did you mean" hints of lang's packages.
//
// It owns only string distance; callers decide which names are
// candidates.
package spell
