package syntax

func (p *descent) sleep() *Sleep {
	n := &Sleep{}
	p.open(&n.Span)
	p.next()
	n.Duration = p.expr()
	p.close(&n.Span)
	return n
}

func (p *descent) elseContinue() *Else {
	n := &Else{}
	p.open(&n.Span)
	p.next()
	p.expectWord("continue")
	n.Continue = p.ok()
	p.close(&n.Span)
	return n
}

func (p *descent) holdFor() *HoldFor {
	n := &HoldFor{}
	p.open(&n.Span)
	p.next()
	n.Duration = p.expr()
	p.close(&n.Span)
	return n
}

// pauseResume parses "pause [for D]" or "resume".
func (p *descent) pauseResume() Action {
	if p.isWord("resume") {
		n := &ResumeController{Resume: true}
		p.open(&n.Span)
		p.next()
		p.close(&n.Span)
		return n
	}
	n := &PauseController{Pause: true}
	p.open(&n.Span)
	p.next()
	if p.ok() && p.isWord("for") {
		n.For = p.holdFor()
	}
	p.close(&n.Span)
	return n
}

// staleAt parses "at" and the event trigger it names; anything else after
// "at" is an error at that token.
func (p *descent) staleAt() *StaleAt {
	n := &StaleAt{}
	p.open(&n.Span)
	p.next()
	if p.ok() && !p.isWord("on") {
		p.fail(`"on" (an event: on create|update|delete KEY ...)`)
	}
	if p.ok() {
		n.Event = p.event()
	}
	p.close(&n.Span)
	return n
}

func (p *descent) write() *Write {
	n := &Write{}
	p.open(&n.Span)
	p.next()
	if p.isWord("failed") {
		p.next()
		n.Failed = true
	}
	p.expectWord("write")
	n.Verb = p.word(`"create", "update", "patch", "delete" or "deletecollection"`, "create", "update", "patch", "delete", "deletecollection")
	n.Target, n.Opts, n.Where, n.Count = p.leaf()
	p.close(&n.Span)
	return n
}

func (p *descent) quiet() *Quiet {
	n := &Quiet{}
	p.open(&n.Span)
	p.next()
	p.expectWord("for")
	n.Duration = p.expr()
	p.expectWord("after")
	p.expectWord("reading")
	n.Target = p.expr()
	p.close(&n.Span)
	return n
}

func (p *descent) leafOpts() []*LeafOpt {
	var out []*LeafOpt
	for p.ok() && (p.isWord("subresource") || p.isWord("in") || p.isWord("changing") || p.isWord("without")) {
		n := &LeafOpt{}
		p.open(&n.Span)
		switch p.next().Value {
		case "subresource":
			n.Subresource = p.ident()
		case "in":
			p.expectWord("cluster")
			n.Cluster = p.ok()
		case "changing":
			n.Prev = p.object()
			p.expectWord("to")
			n.Cur = p.object()
		default:
			n.Without = p.object()
		}
		p.close(&n.Span)
		out = append(out, n)
	}
	return out
}
