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
