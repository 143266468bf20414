// Package hostile holds what the fuzz targets of sieve's readers assert of
// any input (docs/hostile-input.md): an error a reader returns is clear —
// a message, short, with no Go syntax the input did not hold — and the
// seeds every target starts from, the repository's own files. Only tests
// import it.
//
// It does not fuzz anything itself: each reader's package has its target.
package hostile
