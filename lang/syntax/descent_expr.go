package syntax

func (p *descent) expr() *Expr {
	n := p.exprs.new()
	p.open(&n.Span)
	n.Left = p.term()
	for p.ok() && (p.isPunct("+") || p.isPunct("-")) {
		op := &SumOp{}
		p.open(&op.Span)
		op.Op = p.next().Value
		op.Right = p.term()
		p.close(&op.Span)
		n.Rest = append(n.Rest, op)
	}
	p.close(&n.Span)
	return n
}

func (p *descent) term() *Term {
	n := p.terms.new()
	p.open(&n.Span)
	n.Left = p.unary()
	for p.ok() && p.isPunct("*") {
		op := &MulOp{}
		p.open(&op.Span)
		op.Op = p.next().Value
		op.Right = p.unary()
		p.close(&op.Span)
		n.Rest = append(n.Rest, op)
	}
	p.close(&n.Span)
	return n
}

func (p *descent) unary() *Unary {
	n := p.unarys.new()
	p.open(&n.Span)
	if p.ok() && p.isPunct("-") {
		p.next()
		n.Neg = true
	}
	n.Primary = p.primary()
	p.close(&n.Span)
	return n
}

// startsExpr reports whether the current token can start an expression.
func (p *descent) startsExpr() bool {
	switch p.peek().Type {
	case tKey, tDuration, tNumber, tString, tRawString, tIdent:
		return true
	}
	return p.isPunct("-") || p.isPunct("[") || p.isPunct("{") || p.isPunct("(")
}

func (p *descent) primary() Primary {
	if p.ok() && (!p.startsExpr() || p.isPunct("-")) {
		p.fail("a value")
	}
	if !p.ok() {
		return nil
	}
	t := p.peek()
	switch t.Type {
	case tKey:
		n := &KeyLit{}
		p.literal(&n.Span, &n.Text)
		return n
	case tDuration:
		n := &DurationLit{}
		p.literal(&n.Span, &n.Text)
		return n
	case tNumber:
		n := &NumberLit{}
		p.literal(&n.Span, &n.Text)
		return n
	case tString, tRawString:
		n := &StringLit{}
		p.literal(&n.Span, &n.Text)
		return n
	case tIdent:
		return p.identPrimary()
	}
	switch t.Value {
	case "[":
		return p.list()
	case "{":
		return p.object()
	}
	n := &Paren{}
	p.open(&n.Span)
	p.next()
	n.X = p.expr()
	p.expectPunct(")")
	p.close(&n.Span)
	return n
}

func (p *descent) literal(s *Span, text *string) {
	p.open(s)
	*text = p.next().Value
	p.close(s)
}

func (p *descent) identPrimary() Primary {
	switch p.peek().Value {
	case "true", "false":
		n := &BoolLit{}
		p.literal(&n.Span, &n.Text)
		return n
	case "null":
		n := &NullLit{Null: true}
		var s string
		p.literal(&n.Span, &s)
		return n
	}
	return p.call()
}

func (p *descent) list() *List {
	n := &List{}
	p.open(&n.Span)
	p.next()
	if p.startsExpr() {
		n.Elems = append(n.Elems, p.expr())
		for p.ok() && p.isPunct(",") && !p.punctAt(1, "]") {
			p.next()
			n.Elems = append(n.Elems, p.expr())
		}
		if p.ok() && p.isPunct(",") {
			p.next()
		}
	}
	p.expectPunct("]")
	p.close(&n.Span)
	return n
}

func (p *descent) object() *Object {
	n := &Object{}
	p.open(&n.Span)
	p.expectPunct("{")
	for p.ok() && p.startsPath() {
		f := &Field{}
		p.open(&f.Span)
		f.Key = p.path()
		p.expectPunct(":")
		f.Value = p.expr()
		p.close(&f.Span)
		n.Fields = append(n.Fields, f)
		if p.ok() && p.isPunct(",") {
			p.next()
		}
	}
	p.expectPunct("}")
	p.close(&n.Span)
	return n
}

func (p *descent) call() *Call {
	n := p.calls.new()
	p.open(&n.Span)
	n.Name = p.name()
	if p.ok() && p.isPunct("(") {
		p.next()
		n.Parens = true
		if p.startsExpr() {
			n.Args = append(n.Args, p.arg())
			for p.ok() && p.isPunct(",") && !p.punctAt(1, ")") {
				p.next()
				n.Args = append(n.Args, p.arg())
			}
			if p.ok() && p.isPunct(",") {
				p.next()
			}
		}
		p.expectPunct(")")
	}
	p.close(&n.Span)
	return n
}

func (p *descent) arg() *Arg {
	n := &Arg{}
	p.open(&n.Span)
	if p.isType(tIdent) && p.punctAt(1, "=") {
		n.Name = p.ident()
		p.next()
	}
	n.Value = p.expr()
	p.close(&n.Span)
	return n
}
