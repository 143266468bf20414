package cuefront

// stdGenName is the generated file of the sieve.dev/std package (in std/):
// the masks and fault policies of stdlib/std/*.sieve as the .sieve checker
// lowers them, written as CUE. TestStdGenerated holds it equal to the
// .sieve files, which stay the one source of truth; the front end embeds
// it like the hand-written std/workloads.cue.
const stdGenName = "std_gen.cue"

// StdText returns the whole CUE standard library, the package imported as
// "sieve.dev/std": the generated masks and policies, then the workloads
// and the invariants.
func StdText() string {
	gen, _ := embedded.ReadFile("std/" + stdGenName)
	wl, _ := embedded.ReadFile("std/workloads.cue")
	inv, _ := embedded.ReadFile("std/invariants.cue")
	return string(gen) + "\n" + string(wl) + "\n" + string(inv)
}
