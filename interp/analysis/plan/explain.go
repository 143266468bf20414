package plan

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/ir"
)

// Pattern names the fault pattern a plan tests (an IR pattern, or
// planfile.User for a plan written in the spec).
type Pattern = ir.Pattern

// Candidate is one candidate plan of a generation and what became of it:
// the plan it made, or the pass that dropped it and the trace entries
// that show why. It answers "why was my plan not run".
type Candidate struct {
	Policy  string  `json:"policy"`
	Pattern Pattern `json:"pattern"`
	// What says what the plan would do, naming trace entries as #SEQ.
	What string `json:"what"`
	// Event, Write and Back are the sequence numbers of the trace entries
	// it was made from (0: none). Event is the event frozen or hidden,
	// Write the write crashed after or the delete, and Back what fires
	// the stale view or cancels the hidden event.
	Event int64 `json:"event,omitempty"`
	Write int64 `json:"write,omitempty"`
	Back  int64 `json:"back,omitempty"`
	// Read is the read an apierror plan answers (0: none).
	Read int64 `json:"read,omitempty"`
	// Plan is the name of the plan it made, when every pass kept it.
	Plan string `json:"plan,omitempty"`
	// Pass is the pass that dropped it, Evidence what in the trace shows
	// that the plan cannot lead to another state (or, for max, that it
	// was not sampled).
	Pass     string `json:"pass,omitempty"`
	Evidence string `json:"evidence,omitempty"`
	// Bound says how long the plan's hold lasts at most and how that was
	// learned from the reference runs, when its policy sets no hold_for.
	Bound string `json:"bound,omitempty"`
}

// record returns what became of candidate c of a pattern for a policy.
func (c *candidate) record(pol *ir.Policy, pat Pattern, plan string) Candidate {
	r := Candidate{Policy: pol.Name, Pattern: pat, Plan: plan, Pass: c.dropped, Evidence: c.evidence}
	if c.dropped == "" {
		r.Bound = c.bound
	}
	r.Event, r.Write, r.Back = seqOf(c.event), seqOf(c.write), seqOf(c.back)
	if c.read != nil {
		r.Read = c.read.entry.Seq
	}
	switch pat {
	case ir.Intermediate:
		r.What = "crash after " + desc(c.write)
	case ir.APIError:
		r.What = apiErrorWhat(c)
	case ir.AppFault:
		r.What = appFaultWhat(c)
	case ir.Stale:
		r.What = "stale view at " + desc(c.event) + ", paired with " + desc(c.write)
	default:
		r.What = "hide " + desc(c.event)
	}
	return r
}

// apiErrorWhat says what an apierror candidate would do: answer a write
// or a read with an error, or end a watch after an event (gone).
func apiErrorWhat(c *candidate) string {
	if c.event != nil {
		return "end the watch of " + c.event.Key.Kind + " with gone (410 Expired) after " + desc(c.event)
	}
	if c.read != nil {
		return "answer " + c.read.desc() + " with " + string(c.apiError)
	}
	return "answer " + desc(c.write) + " with " + string(c.apiError)
}

// seqOf returns an item's sequence number, 0 for none.
func seqOf(it *item) int64 {
	if it == nil {
		return 0
	}
	return it.seq()
}

// desc names a trace item: #SEQ, the verb (and subresource) and the key.
func desc(it *item) string {
	verb := it.Verb
	if it.Subresource != "" {
		verb += " " + it.Subresource
	}
	return fmt.Sprintf("#%d %s %s", it.seq(), verb, it.Key)
}

// MarkUnchosen marks the kept candidates whose plan is not among chosen
// as dropped by pass, with evidence: a selection made after generation
// (sieve run --pattern, --shard, --max-plans).
func MarkUnchosen(cands []Candidate, chosen []*planfile.Plan, pass, evidence string) {
	in := map[string]bool{}
	for _, p := range chosen {
		in[p.Name] = true
	}
	for i := range cands {
		if c := &cands[i]; c.Pass == "" && !in[c.Plan] {
			c.Pass, c.Evidence = pass, evidence
		}
	}
}

// WriteExplain prints one line per candidate: what it would do, and the
// plan it made (and how long its hold lasts at most, when that was
// learned) or the pass that dropped it with the evidence. What and
// the evidence quote the cluster's objects: their control characters are
// escaped (diag.Printable), as everything sieve prints for a terminal.
func WriteExplain(w io.Writer, cands []Candidate) error {
	var b bytes.Buffer
	for _, c := range cands {
		fmt.Fprintf(&b, "%s %s: %s: ", c.Policy, c.Pattern, diag.Printable(c.What))
		if c.Pass == "" {
			fmt.Fprintf(&b, "kept as %s", c.Plan)
			if c.Bound != "" {
				fmt.Fprintf(&b, "; %s", c.Bound)
			}
			b.WriteString("\n")
			continue
		}
		fmt.Fprintf(&b, "dropped by %s: %s\n", c.Pass, diag.Printable(c.Evidence))
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("plan: explain: %w", err)
	}
	return nil
}

// WriteCandidates writes the candidates as JSON Lines, one per line.
func WriteCandidates(w io.Writer, cands []Candidate) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for i := range cands {
		if err := enc.Encode(&cands[i]); err != nil {
			return fmt.Errorf("plan: candidates: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("plan: candidates: %w", err)
	}
	return nil
}

// ReadCandidates reads what WriteCandidates wrote.
func ReadCandidates(r io.Reader) ([]Candidate, error) {
	var out []Candidate
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	for {
		var c Candidate
		err := dec.Decode(&c)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("plan: candidates: %w", err)
		}
		out = append(out, c)
	}
}

// Evidence, pass by pass. Each names the trace entries that show why a
// candidate was dropped.

// filterWhy says which filter dropped a candidate.
func filterWhy(pol *ir.Policy) func(*candidate) string {
	return func(c *candidate) string {
		for _, s := range [2]*item{c.event, c.write} {
			if s != nil && matchAny(pol.Exclude, s) {
				return desc(s) + " matches an exclude filter of policy " + pol.Name
			}
		}
		return "matches no include filter of policy " + pol.Name
	}
}

// writeWhy applies an item's evidence to a candidate's write.
func writeWhy(f func(*item) string) func(*candidate) string {
	return func(c *candidate) string { return f(c.write) }
}

// eventWhy applies an item's evidence to a candidate's event.
func eventWhy(f func(*item) string) func(*candidate) string {
	return func(c *candidate) string { return f(c.event) }
}

// eitherWhy applies an item's evidence to the event when bad holds for
// it, else to the write.
func eitherWhy(bad func(*item) bool, f func(*item) string) func(*candidate) string {
	return func(c *candidate) string {
		if bad(c.event) {
			return f(c.event)
		}
		return f(c.write)
	}
}

func failedWhy(it *item) string {
	return fmt.Sprintf("%s was refused (%d): it changed nothing", desc(it), it.Entry.Code)
}

func noOpWhy(it *item) string {
	if it.Subresource == "status" {
		return desc(it) + " changes nothing under status after masking"
	}
	return desc(it) + " changes nothing after masking"
}

func notCancelledWhy(it *item) string {
	return fmt.Sprintf("no later delivery of %s cancels %s", it.Key, desc(it))
}

func notActedOnWhy(it *item) string {
	return fmt.Sprintf("no successful change the controller made after %s, in the reconcile that may have read it, concerns %s", desc(it), it.Key)
}

func noEffectWhy(c *candidate) string {
	return fmt.Sprintf("%s does not come back after %s, and no newer state of %s that the controller acted on follows",
		c.write.Key, desc(c.write), c.event.Key)
}

func (g *generator) nondeterministicWhy(it *item) string {
	switch {
	case it.Key.Name == "":
		return desc(it) + " names no object"
	case g.ix.generated[it.Key]:
		return fmt.Sprintf("%s: %s has a generated name", desc(it), it.Key)
	}
	return fmt.Sprintf("%s: %s is masked entirely", desc(it), it.Key)
}

func (g *generator) duplicateWhy(it *item) string {
	return fmt.Sprintf("%s is occurrence %d of its change (at most %d kept)", desc(it), it.Occurrence, g.opts.MaxOccurrence)
}

// uncausedWhy says why no delivered event may have caused write w.
func (g *generator) uncausedWhy(w *item) string {
	return fmt.Sprintf("no delivery related to %s reached the controller in its window (%s)", desc(w), g.ix.window(w))
}

// staleCausalityWhy says why event N may not have led to delete U.
func (g *generator) staleCausalityWhy(c *candidate) string {
	n, u := c.event, c.write
	if g.ix.plausible(n, u) {
		if r := g.refuted(n, u); r != nil {
			seqs := seqList(r.state)
			if r.own {
				seqs = "status aside: " + seqs
			}
			last := r.state[len(r.state)-1]
			return fmt.Sprintf("reference run %d made the same delete (#%d) after the same state (%s), and there %s",
				r.ix.run, r.write.seq(), seqs, r.ix.staleWhy(last, r.write))
		}
	}
	return g.ix.staleWhy(n, u)
}

// seqList formats items as #1, #2 and #3.
func seqList(its []*item) string {
	s := make([]string, len(its))
	for i, it := range its {
		s[i] = fmt.Sprintf("#%d", it.seq())
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// staleWhy says why, in ix's trace, event N may not have led to delete U.
func (ix *index) staleWhy(n, u *item) string {
	switch {
	case n.at().Before(u.lo):
		return fmt.Sprintf("%s came before the window of %s (%s)", desc(n), desc(u), ix.window(u))
	case !ix.causes(n, u):
		return fmt.Sprintf("%s is not related to %s (another object, outside its owner tree, not read in its window)", desc(n), desc(u))
	}
	if r := ix.supersededFor(n, u); r != nil {
		return fmt.Sprintf("%s was replaced by %s before the reconcile that sent %s may have begun (%s)", desc(n), desc(r), desc(u), ix.began(u))
	}
	if a := ix.acknowledged(n, u); a != nil {
		return fmt.Sprintf("%s was replaced by %s, and %s (resourceVersion %s, accepted) shows the controller had read the newer state before the reconcile that sent %s",
			desc(n), desc(ix.replaced(n, u.at())), desc(a), bodyVersion(a.Entry), desc(u))
	}
	return desc(n) + " came after " + desc(u)
}

// window describes the span in which events may have caused write w, and
// the evidence that bounds it.
func (ix *index) window(w *item) string {
	of, wrote := "of "+w.root.String(), "wrote to "+w.root.String()
	if w.root == w.Key && !ix.primary[w.Key.Kind] {
		of, wrote = "that wrote", "wrote" // no subject: see windows
	}
	if w.loBurst < 0 {
		return "from the start of the trace: no earlier reconcile " + wrote
	}
	prev, own := ix.bursts[w.loBurst].chain, ix.bursts[w.burst].chain
	return fmt.Sprintf("from %s: the previous reconcile %s began with #%d and may have read its cache since; the reconcile that sent #%d is another, from #%d on: %s",
		ix.readFromDesc(prev), of, ix.bursts[prev].first, w.seq(), ix.bursts[own].first, ix.bursts[own].boundary)
}

// began describes the earliest time the reconcile that sent an item's
// burst may have read its cache (see readFrom).
func (ix *index) began(it *item) string {
	if it.burst < 0 || it.burst >= len(ix.bursts) {
		return "when it was sent"
	}
	head := ix.bursts[it.burst].chain
	return fmt.Sprintf("%s, before its first request #%d", ix.readFromDesc(head), ix.bursts[head].first)
}

// readFromDesc names readFrom of the reconcile that begins with burst head.
func (ix *index) readFromDesc(head int) string {
	if head == 0 {
		return "the start of the trace"
	}
	prev := ix.bursts[head-1]
	if !prev.echo.IsZero() {
		return fmt.Sprintf("the watch event of #%d, which overtook its answer", prev.last)
	}
	return fmt.Sprintf("the answer to #%d", prev.last)
}
