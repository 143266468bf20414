// Package hostile holds what the fuzz targets of sieve's readers assert of
// any input (docs/hostile-input.md). An error that a reader returns must
// be clear: a short message with no Go syntax that the input did not hold
// (Unclear, CheckError). A reader must end within a bound (Within,
// MaxTime). Every target starts from seeds taken from the repository's own
// files (Seeds). Only tests import it.
//
// It does not fuzz anything itself: each reader's package has its target.
package hostile
