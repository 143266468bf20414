package plan

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// passNames are the passes in the order candidates go through them.
var passNames = []string{PassCancelled, PassFilter, PassFailed, PassNoOp, PassNondeterministic, PassCausality, PassEffect, PassDuplicates, PassMerged, PassMax}

// passOrder returns the row order of the counts table: passNames, the
// merged row only when a count has that pass (a test that explores).
func passOrder(counts []Count) []string {
	merged := slices.ContainsFunc(counts, func(c Count) bool {
		return slices.ContainsFunc(c.Passes, func(p PassCount) bool { return p.Pass == PassMerged })
	})
	return slices.DeleteFunc(slices.Clone(passNames), func(n string) bool { return n == PassMerged && !merged })
}

// CountsWidth is the width the counts table fits in: an 80-column
// terminal.
const CountsWidth = 80

// WriteCounts prints the counts as a table that reads top-down like a
// funnel. It has one column per policy and pattern (the policy above the
// pattern) and one row for the baseline. It has one row per pass with the
// candidates left after it: "-" when the pass does not apply to the
// pattern, "off" when the policy switched it off, left unchanged. The last
// row is the final number of plans. The table fits CountsWidth columns:
// when the columns do not fit side by side, they are printed in several
// blocks, one under the other.
func WriteCounts(w io.Writer, counts []Count) error {
	order := passOrder(counts)
	labels := append(append([]string{"baseline"}, order...), "final")
	label := 0
	for _, l := range labels {
		label = max(label, len(l))
	}
	var b strings.Builder
	for i, block := range countBlocks(counts, order, label) {
		if i > 0 {
			b.WriteString("\n")
		}
		writeBlock(&b, block, labels, label)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("plan: counts: %w", err)
	}
	return nil
}

// countColumn is one column of the counts table: its two heading lines
// and one cell per row, and its width.
type countColumn struct {
	head  [2]string
	cells []string
	width int
}

func columnOf(c Count, order []string, maxWidth int) countColumn {
	col := countColumn{head: [2]string{clipName(c.Policy, maxWidth), clipName(string(c.Pattern), maxWidth)}}
	col.cells = append(col.cells, strconv.Itoa(c.Baseline))
	for _, p := range order {
		col.cells = append(col.cells, passCell(c, p))
	}
	col.cells = append(col.cells, strconv.Itoa(c.Final))
	for _, s := range append(col.head[:], col.cells...) {
		col.width = max(col.width, len(s))
	}
	return col
}

// countBlocks groups the columns, with rows in order, into blocks that
// fit CountsWidth beside the row labels (label characters wide), each
// column two spaces from the previous one.
func countBlocks(counts []Count, order []string, label int) [][]countColumn {
	room := CountsWidth - label
	var blocks [][]countColumn
	used := room
	for _, c := range counts {
		col := columnOf(c, order, room-2)
		if used+2+col.width > room {
			blocks = append(blocks, nil)
			used = 0
		}
		blocks[len(blocks)-1] = append(blocks[len(blocks)-1], col)
		used += 2 + col.width
	}
	if len(blocks) == 0 {
		blocks = append(blocks, nil)
	}
	return blocks
}

// writeBlock writes the headings and rows of one block of columns.
func writeBlock(b *strings.Builder, cols []countColumn, labels []string, label int) {
	row := func(first string, cell func(countColumn) string) {
		line := fmt.Sprintf("%-*s", label, first)
		for _, c := range cols {
			line += fmt.Sprintf("  %*s", c.width, cell(c))
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	row("", func(c countColumn) string { return c.head[0] })
	row("", func(c countColumn) string { return c.head[1] })
	for i, l := range labels {
		row(l, func(c countColumn) string { return c.cells[i] })
	}
}

// clipName shortens a heading to at most n characters.
func clipName(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
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
