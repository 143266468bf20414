package plan

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
)

// passOrder returns the column order of the counts table.
func passOrder() []string {
	return []string{
		PassCancelled, PassFilter, PassFailed, PassNoOp, PassNondeterministic,
		PassCausality, PassEffect, PassDuplicates, PassMax,
	}
}

// WriteCounts prints the counts as a table: one row per policy and
// pattern, the baseline, the candidates left after each pass ("-" when the
// pass does not apply to the pattern, "off" when the policy switched it
// off, left unchanged), and the final number of plans.
func WriteCounts(w io.Writer, counts []Count) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "policy\tpattern\tbaseline\t")
	for _, p := range passOrder() {
		fmt.Fprint(tw, p+"\t")
	}
	fmt.Fprint(tw, "final\t\n")
	for _, c := range counts {
		fmt.Fprintf(tw, "%s\t%s\t%d\t", c.Policy, c.Pattern, c.Baseline)
		for _, p := range passOrder() {
			fmt.Fprint(tw, passCell(c, p)+"\t")
		}
		fmt.Fprintf(tw, "%d\t\n", c.Final)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("plan: counts: %w", err)
	}
	return nil
}

// passCell is one cell of the counts table.
func passCell(c Count, pass string) string {
	for _, pc := range c.Passes {
		if pc.Pass != pass {
			continue
		}
		if !pc.On {
			return "off"
		}
		return strconv.Itoa(pc.Left)
	}
	return "-"
}
