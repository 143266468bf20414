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
	switch {
	case p.isWord("failed"):
		p.next()
		n.Failed = true
	case p.isWord("sending"):
		p.next()
		n.Sent = true
	}
	p.expectWord("write")
	n.Verb = p.word(`"create", "update", "patch", "delete" or "deletecollection"`, "create", "update", "patch", "delete", "deletecollection")
	n.Target, n.Opts, n.Where, n.Count = p.leaf()
	p.close(&n.Span)
	return n
}

// callLeaf parses "on call" and an exec's command or an HTTP request's
// method, path and stand-in, then the pod and the occurrence.
func (p *descent) callLeaf() *CallLeaf {
	n := &CallLeaf{}
	p.open(&n.Span)
	p.next()
	p.next()
	if p.ok() && p.isWord("exec") {
		p.next()
		n.Exec = true
		if p.ok() && p.isPunct("[") {
			n.Command = p.list()
		}
	} else {
		p.httpCall(n)
	}
	if p.ok() && p.isWord("in") {
		p.next()
		n.Pod = p.expr()
	}
	if p.ok() && p.isWord("changed") {
		p.next()
		n.Changed = true
	}
	if p.ok() && p.isPunct("#") {
		n.Count = p.count()
	}
	p.close(&n.Span)
	return n
}

// readLeaf parses "on read", the verb (get or list), the key and the
// occurrence.
func (p *descent) readLeaf() *ReadLeaf {
	n := &ReadLeaf{}
	p.open(&n.Span)
	p.next()
	p.next()
	n.Verb = p.word(`"get" or "list"`, "get", "list")
	n.Target = p.expr()
	if p.ok() && p.isPunct("#") {
		n.Count = p.count()
	}
	p.close(&n.Span)
	return n
}

// httpCall parses the optional method, path and "to STANDIN" of an HTTP
// call leaf.
func (p *descent) httpCall(n *CallLeaf) {
	if p.ok() && p.isType(tIdent) && !p.isWord("in") && !p.isWord("to") && !p.isWord("changed") {
		n.Method = p.next().Value
	}
	if p.ok() && (p.isType(tString) || p.isType(tRawString)) {
		n.Path = p.stringLit()
	}
	if p.ok() && p.isWord("to") {
		p.next()
		n.Standin = p.stringLit()
	}
}

// answer parses "error NAME" or "appfault NAME".
func (p *descent) answer() Action {
	if p.isWord("error") {
		n := &APIError{}
		p.open(&n.Span)
		p.next()
		n.Name = p.ident()
		p.close(&n.Span)
		return n
	}
	n := &AppFault{}
	p.open(&n.Span)
	p.next()
	n.Name = p.ident()
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
