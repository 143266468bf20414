package cuefront

import (
	"cuelang.org/go/cue"

	"github.com/sievetool/sieve/lang/ir"
)

// portVars reports what in a string looks like a port variable but is
// none, which the runner would pass on as written (ir.PortRefs), as the
// .sieve checker does.
func (l *lowerer) portVars(v cue.Value, what string) {
	s, err := v.String()
	if err != nil {
		return
	}
	_, bad := ir.PortRefs(s)
	for _, m := range bad {
		l.errorf(v, "port", "%s: unknown port variable %s (%s)", what, m, ir.PortHint)
	}
}
