package syntax

import "slices"

func (p *descent) mask() *Mask {
	n := &Mask{}
	p.open(&n.Span)
	p.expectWord("mask")
	n.Name = p.ident()
	p.expectPunct("{")
	for p.ok() && p.isMaskRule() {
		n.Rules = append(n.Rules, p.maskRule())
	}
	p.endBlock("a rule", ruleKeywords)
	p.close(&n.Span)
	return n
}

func (p *descent) isMaskRule() bool {
	return p.isType(tKey) || p.isWord("key") || p.isWord("path") || p.isWord("value") || p.isWord("whole")
}

func (p *descent) maskRule() *MaskRule {
	n := &MaskRule{}
	p.open(&n.Span)
	if p.isType(tKey) {
		n.Target = &KeyLit{}
		p.open(&n.Target.Span)
		n.Target.Text = p.next().Value
		p.close(&n.Target.Span)
	}
	switch {
	case p.isWord("key"):
		p.next()
		if !p.isType(tIdent) && !p.isType(tString) {
			p.fail("a name or a string")
		} else {
			n.Key = p.next().Value
		}
	case p.isWord("path"):
		p.next()
		n.Path = p.path()
	case p.isWord("value"):
		p.next()
		n.Value = p.token(tIdent, "a name")
	case p.isWord("whole"):
		p.next()
		n.Whole = true
	default:
		p.fail(`"key", "path", "value" or "whole"`)
	}
	if p.ok() && p.isWord("in") {
		p.next()
		n.Oracle = p.word(`"end" or "history"`, "end", "history")
	}
	p.close(&n.Span)
	return n
}

func (p *descent) invariant() *Invariant {
	n := &Invariant{}
	p.open(&n.Span)
	p.expectWord("invariant")
	n.Name = p.ident()
	n.Params = p.params()
	n.When = p.optWord("always", "end", "eventually", "never")
	if p.ok() && p.isWord("between") {
		n.Between = p.window()
	}
	n.CEL = p.stringLit()
	p.close(&n.Span)
	return n
}

func (p *descent) window() *Window {
	n := &Window{}
	p.open(&n.Span)
	p.expectWord("between")
	n.From = p.stepRef()
	p.expectWord("and")
	n.To = p.stepRef()
	p.close(&n.Span)
	return n
}

func (p *descent) stepRef() *StepRef {
	n := &StepRef{}
	p.open(&n.Span)
	n.Workload = p.ident()
	p.expectPunct("[")
	n.Step = &NumberLit{}
	p.open(&n.Step.Span)
	n.Step.Text = p.token(tNumber, "a step number")
	p.close(&n.Step.Span)
	p.expectPunct("]")
	p.close(&n.Span)
	return n
}

func (p *descent) plan() *Plan {
	n := &Plan{}
	p.open(&n.Span)
	p.expectWord("plan")
	n.Name = p.ident()
	p.expectPunct("{")
	for p.ok() && (p.startsTrigger() || p.startsAction()) {
		n.Steps = append(n.Steps, p.planStep())
	}
	p.endBlock("a trigger (on, after, \"(\") or an action", actionKeywords)
	p.close(&n.Span)
	return n
}

func (p *descent) startsTrigger() bool {
	return p.isPunct("(") || p.isWord("on") || p.isWord("after") || p.isWord("quiet")
}

func (p *descent) startsAction() bool {
	return p.isType(tIdent) && slices.Contains(actionKeywords, p.peek().Value)
}

func (p *descent) planStep() *PlanStep {
	n := &PlanStep{}
	p.open(&n.Span)
	if p.startsTrigger() {
		n.Trigger = p.trigger()
		p.expectPunct(":")
	}
	n.Action = p.action()
	p.close(&n.Span)
	return n
}

func (p *descent) action() Action {
	if p.ok() && !p.startsAction() {
		p.fail("an action: " + orWords(actionKeywords))
	}
	if !p.ok() {
		return nil
	}
	switch p.peek().Value {
	case "crash":
		n := &Crash{Crash: true}
		p.open(&n.Span)
		p.next()
		p.close(&n.Span)
		return n
	case "restart":
		n := &Restart{Restart: true}
		p.open(&n.Span)
		p.next()
		p.close(&n.Span)
		return n
	case "stale":
		n := &Stale{}
		p.open(&n.Span)
		p.next()
		n.Switch = p.word(`"on" or "off"`, "on", "off")
		n.Scope = p.expr()
		if p.ok() && p.isWord("at") {
			n.At = p.staleAt()
		}
		p.close(&n.Span)
		return n
	case "hold":
		n := &Hold{}
		p.open(&n.Span)
		p.next()
		n.Scope = p.expr()
		if p.ok() && p.isWord("for") {
			n.For = p.holdFor()
		}
		p.close(&n.Span)
		return n
	case "release":
		n := &Release{}
		p.open(&n.Span)
		p.next()
		n.Scope = p.expr()
		p.close(&n.Span)
		return n
	case "pause", "resume":
		return p.pauseResume()
	case "error", "appfault":
		return p.answer()
	}
	n := &Pause{}
	p.open(&n.Span)
	p.next()
	n.Duration = p.expr()
	p.close(&n.Span)
	return n
}

func (p *descent) trigger() *Trigger {
	n := &Trigger{}
	p.open(&n.Span)
	n.Seq = append(n.Seq, p.either())
	for p.ok() && p.isPunct(";") {
		p.next()
		n.Seq = append(n.Seq, p.either())
	}
	p.close(&n.Span)
	return n
}

func (p *descent) either() *Either {
	n := &Either{}
	p.open(&n.Span)
	n.Alts = append(n.Alts, p.both())
	for p.ok() && p.isPunct("|") {
		p.next()
		n.Alts = append(n.Alts, p.both())
	}
	p.close(&n.Span)
	return n
}

func (p *descent) both() *Both {
	n := &Both{}
	p.open(&n.Span)
	n.All = append(n.All, p.triggerAtom())
	for p.ok() && p.isPunct("&") {
		p.next()
		n.All = append(n.All, p.triggerAtom())
	}
	p.close(&n.Span)
	return n
}

func (p *descent) triggerAtom() TriggerAtom {
	switch {
	case !p.ok():
		return nil
	case p.isPunct("("):
		n := &Group{}
		p.open(&n.Span)
		p.next()
		n.Trigger = p.trigger()
		p.expectPunct(")")
		p.close(&n.Span)
		return n
	case p.isWord("on") && p.peekAt(1).Type == tIdent && p.peekAt(1).Value == "call":
		return p.callLeaf()
	case p.isWord("on") && p.peekAt(1).Type == tIdent && p.peekAt(1).Value == "read":
		return p.readLeaf()
	case p.isWord("on"):
		return p.event()
	case p.isWord("after") && p.peekAt(1).Type == tIdent && slices.Contains(writeStarts, p.peekAt(1).Value):
		return p.write()
	case p.isWord("quiet"):
		return p.quiet()
	case p.isWord("after"):
		n := &Timeout{}
		p.open(&n.Span)
		p.next()
		n.Duration = p.expr()
		p.close(&n.Span)
		return n
	}
	p.fail("a trigger")
	return nil
}

func (p *descent) event() *Event {
	n := &Event{}
	p.open(&n.Span)
	p.next()
	n.Verb = p.word(`"create", "update" or "delete"`, "create", "update", "delete")
	n.Target, n.Opts, n.Where, n.Count = p.leaf()
	p.close(&n.Span)
	return n
}

func (p *descent) leaf() (*Expr, []*LeafOpt, *Cond, *NumberLit) {
	target := p.expr()
	opts := p.leafOpts()
	var where *Cond
	var count *NumberLit
	if p.ok() && p.isWord("where") {
		p.next()
		where = p.cond()
	}
	if p.ok() && p.isPunct("#") {
		count = p.count()
	}
	return target, opts, where, count
}

// count parses "#" and the occurrence after it.
func (p *descent) count() *NumberLit {
	p.next()
	n := &NumberLit{}
	p.open(&n.Span)
	n.Text = p.token(tNumber, "a number")
	p.close(&n.Span)
	return n
}
