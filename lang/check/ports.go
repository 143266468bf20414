package check

import (
	"regexp"
)

// portRefs matches what looks like a port variable; portVar is one the
// controller runner replaces (interp/controller): ${SIEVE_PORT} or
// ${SIEVE_PORT_0} to ${SIEVE_PORT_9}.
var (
	portRefs = regexp.MustCompile(`\$\{SIEVE_PORT[^}]*\}?`)
	portVar  = regexp.MustCompile(`^\$\{SIEVE_PORT(_[0-9])?\}$`)
)

// portVars reports a string value's port variables that the runner would
// not replace (a misspelt one would reach the controller as written).
func (c *checker) portVars(v *value, what string) {
	if v == nil || v.kind != kString {
		return
	}
	for _, m := range portRefs.FindAllString(v.s, -1) {
		if !portVar.MatchString(m) {
			d := c.errorf(v.rng, "port", "%s: unknown port variable %s", what, m)
			hint(d, "write ${SIEVE_PORT}, or ${SIEVE_PORT_0} to ${SIEVE_PORT_9} for several ports")
		}
	}
}
