package syntax

import "slices"

func (p *descent) workload() *Workload {
	n := &Workload{}
	p.open(&n.Span)
	p.expectWord("workload")
	n.Name = p.ident()
	n.Params = p.params()
	p.expectPunct("{")
	for p.ok() && p.isStep() {
		n.Steps = append(n.Steps, p.step())
	}
	p.endBlock("a step", stepKeywords)
	p.close(&n.Span)
	return n
}

// params parses an optional parameter list, as workloads and invariants
// declare one: "(" [Param {"," Param} [","]] ")".
func (p *descent) params() []*Param {
	if !p.ok() || !p.isPunct("(") {
		return nil
	}
	var out []*Param
	p.next()
	if p.isType(tIdent) {
		out = append(out, p.param())
		for p.ok() && p.isPunct(",") && !p.punctAt(1, ")") {
			p.next()
			out = append(out, p.param())
		}
		if p.ok() && p.isPunct(",") {
			p.next()
		}
	}
	p.expectPunct(")")
	return out
}

// punctAt reports whether the token n ahead is the punctuation s.
func (p *descent) punctAt(n int, s string) bool {
	t := p.peekAt(n)
	return t.Type == tPunct && t.Value == s
}

func (p *descent) param() *Param {
	n := &Param{}
	p.open(&n.Span)
	n.Name = p.ident()
	if p.ok() && p.isPunct("=") {
		p.next()
		n.Default = p.expr()
	}
	p.close(&n.Span)
	return n
}

func (p *descent) isStep() bool {
	return p.isType(tIdent) && slices.Contains(stepKeywords, p.peek().Value)
}

func (p *descent) step() Step {
	switch p.peek().Value {
	case "apply":
		n := &Apply{}
		p.open(&n.Span)
		p.next()
		n.Source = p.expr()
		if p.ok() && p.isWord("set") {
			p.next()
			n.Set = p.object()
		}
		p.close(&n.Span)
		return n
	case "patch":
		n := &Patch{}
		p.open(&n.Span)
		p.next()
		n.Target = p.expr()
		n.Type = p.optWord("merge", "json", "strategic")
		n.Patch = p.expr()
		p.close(&n.Span)
		return n
	case "delete":
		n := &Delete{}
		p.open(&n.Span)
		p.next()
		n.Target = p.expr()
		p.close(&n.Span)
		return n
	case "scale":
		n := &Scale{}
		p.open(&n.Span)
		p.next()
		n.Target = p.expr()
		p.expectWord("to")
		n.Replicas = p.expr()
		p.close(&n.Span)
		return n
	case "wait":
		return p.wait()
	case "sleep":
		return p.sleep()
	case "explore":
		return p.explore()
	}
	n := &Settle{}
	p.open(&n.Span)
	p.next()
	if p.isType(tDuration) {
		n.Quiet = &DurationLit{}
		p.open(&n.Quiet.Span)
		n.Quiet.Text = p.next().Value
		p.close(&n.Quiet.Span)
	} else if p.isType(tIdent) && !isStepKeyword(p.peek().Value) {
		n.Param = p.ident()
	}
	p.close(&n.Span)
	return n
}

func isStepKeyword(w string) bool {
	for _, k := range stepKeywords {
		if k == w {
			return true
		}
	}
	return false
}

func (p *descent) wait() *Wait {
	n := &Wait{}
	p.open(&n.Span)
	p.next()
	if p.ok() && p.isWord("until") {
		p.next()
		n.Until = p.expr()
	} else {
		n.Target = p.expr()
		n.Cond = p.waitCond()
	}
	if p.ok() && p.isWord("within") {
		p.next()
		n.Within = p.expr()
	}
	if p.ok() && p.isWord("else") {
		n.Else = p.elseContinue()
	}
	p.close(&n.Span)
	return n
}

func (p *descent) waitCond() *WaitCond {
	n := &WaitCond{}
	p.open(&n.Span)
	switch {
	case !p.ok():
	case p.isWord("exists") || p.isWord("gone") || p.isWord("ready"):
		n.State = p.next().Value
	case p.isWord("where"):
		p.next()
		n.Where = p.cond()
	case p.startsExpr():
		n.Count = p.expr()
		p.expectWord("ready")
	default:
		p.fail("exists, gone, ready, N ready or where")
	}
	p.close(&n.Span)
	return n
}

func (p *descent) cond() *Cond {
	n := &Cond{}
	p.open(&n.Span)
	if p.ok() && (p.isType(tString) || p.isType(tRawString)) {
		n.CEL = p.stringLit()
		p.close(&n.Span)
		return n
	}
	if p.ok() && !p.startsPath() {
		p.fail("a condition")
	}
	n.Path = p.path()
	switch {
	case !p.ok():
	case p.isPunct("=="):
		p.next()
		n.Equals = p.expr()
	case p.isWord("exists"):
		p.next()
		n.Exists = true
	default:
		p.fail(`"==" or "exists"`)
	}
	p.close(&n.Span)
	return n
}

func (p *descent) startsPath() bool {
	return p.isType(tIdent) || p.isType(tString) || p.isPunct("*")
}

func (p *descent) path() *Path {
	n := p.paths.new()
	p.open(&n.Span)
	if p.ok() && !p.startsPath() {
		p.fail("a field path")
	}
	if p.ok() {
		n.Head = p.next().Value
	}
	for p.ok() && (p.isPunct(".") || p.isPunct("[")) {
		n.Elems = append(n.Elems, p.pathElem())
	}
	p.close(&n.Span)
	return n
}

func (p *descent) pathElem() *PathElem {
	n := &PathElem{}
	p.open(&n.Span)
	if p.next().Value == "." {
		if !p.startsPath() {
			p.fail(`a name, a string or "*"`)
		} else {
			n.Field = p.next().Value
		}
	} else {
		if !p.isType(tNumber) && !p.isPunct("*") {
			p.fail(`a number or "*"`)
		} else {
			n.Index = p.next().Value
		}
		p.expectPunct("]")
	}
	p.close(&n.Span)
	return n
}

// exploreClauseWords are the words that start an ExploreClause.
var exploreClauseWords = []string{"max", "only", "skip", "seed", "states"}

func (p *descent) explore() *Explore {
	n := &Explore{}
	p.open(&n.Span)
	p.next()
	n.Seed = p.expr()
	for p.ok() && p.isType(tIdent) && slices.Contains(exploreClauseWords, p.peek().Value) {
		c := &ExploreClause{}
		p.open(&c.Span)
		c.Word = p.next().Value
		c.Value = p.expr()
		p.close(&c.Span)
		n.Clauses = append(n.Clauses, c)
	}
	p.close(&n.Span)
	return n
}
