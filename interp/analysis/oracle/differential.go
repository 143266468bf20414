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
// the sequence changed), sorted.
func (o *Oracle) CheckDifferential(direct *trace.Trace, properties []string) ([]*Finding, error) {
	test, err := replay(direct, o.own)
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	fs := o.compareEnd(test)
	for _, f := range fs {
		f.Message = differentialMessage(f)
		f.Check, f.Property = CheckDifferential, strings.Join(properties, ", ")
		stamp(f, direct.Header)
	}
	Sort(fs)
	return fs, nil
}

// differentialMessage says what differs, a finding of compareEnd, between
// the sequence (the reference) and the direct run (the test).
func differentialMessage(f *Finding) string {
	const direct = "with the final state applied at once"
	switch f.Check {
	case CheckMissing:
		return fmt.Sprintf("%s is missing %s (the explored sequence leaves it)", f.Key, direct)
	case CheckExtra:
		return fmt.Sprintf("%s exists %s (the explored sequence leaves none)", f.Key, direct)
	}
	return fmt.Sprintf("%s: %s is %s %s, %s after the explored sequence", f.Key, f.Path, rawOrAbsent(f.Value), direct, rawOrAbsent(f.Reference))
}

// rawOrAbsent shows a finding's JSON value, "absent" when it has none.
func rawOrAbsent(b []byte) string {
	if b == nil {
		return "absent"
	}
	return string(b)
}
