package check

import "github.com/sievetool/sieve/lang/ir"

// portVars reports what in a string value looks like a port variable but
// is none, which the runner would pass on as written (ir.PortRefs).
func (c *checker) portVars(v *value, what string) {
	if v == nil || v.kind != kString {
		return
	}
	_, bad := ir.PortRefs(v.s)
	for _, m := range bad {
		d := c.errorf(v.rng, "port", "%s: unknown port variable %s", what, m)
		hint(d, ir.PortHint)
	}
}
