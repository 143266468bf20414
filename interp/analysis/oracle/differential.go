package oracle

import (
	"fmt"
	"maps"
	"strings"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// End returns object k as the first reference run leaves it, and whether
// it exists then.
func (o *Oracle) End(k trace.Key) (map[string]any, bool) {
	obj, ok := o.ref.end[k]
	return maps.Clone(obj), ok
}

// CheckDifferential is the differential oracle of an explored run: the
// oracle's reference reached the explored resource's final state by a
// sequence of operations, direct applied that state at once to a fresh
// cluster, and the two must end alike. It compares their end states,
// object by object under the oracle's masks, and returns each difference
// as a differential finding naming properties (the explored properties
// the sequence changed), sorted. state names the state direct applied when
// it is not the final one but the one after an operation ("the state after
// operation 2 (spec.replicas beside 2)"), the oracle's reference then
// being the sequence up to it; "" for the final state.
func (o *Oracle) CheckDifferential(direct *trace.Trace, properties []string, state string) ([]*Finding, error) {
	test, err := replay(direct, o.own)
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	fs := o.compareEnd(test)
	for _, f := range fs {
		f.Message = differentialMessage(f, state)
		f.Check, f.Property = CheckDifferential, strings.Join(properties, ", ")
		stamp(f, direct.Header)
	}
	Sort(fs)
	return fs, nil
}

// differentialMessage says what differs, a finding of compareEnd, between
// the sequence (the reference) and the direct run (the test) of state
// (CheckDifferential).
func differentialMessage(f *Finding, state string) string {
	direct, sequence := "with the final state applied at once", "the explored sequence"
	if state != "" {
		direct, sequence = "with "+state+" applied at once", "the explored sequence up to it"
	}
	switch f.Check {
	case CheckMissing:
		return fmt.Sprintf("%s is missing %s (%s leaves it)", f.Key, direct, sequence)
	case CheckExtra:
		return fmt.Sprintf("%s exists %s (%s leaves none)", f.Key, direct, sequence)
	}
	return fmt.Sprintf("%s: %s is %s %s, %s after %s", f.Key, f.Path, rawOrAbsent(f.Value), direct, rawOrAbsent(f.Reference), sequence)
}

// rawOrAbsent shows a finding's JSON value, "absent" when it has none.
func rawOrAbsent(b []byte) string {
	if b == nil {
		return "absent"
	}
	return string(b)
}
