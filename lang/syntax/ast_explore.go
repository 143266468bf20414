package syntax

// Explore is a workload step that lang/explore expands when the spec is
// lowered: the seed manifest Seed applied, then one generated operation
// per merge patch, each followed by a settle. Clauses bound the
// operations as the flags of `sieve explore` do.
type Explore struct {
	Span
	Seed    *Expr            `parser:"'explore' @@"`
	Clauses []*ExploreClause `parser:"@@*"`
}

// ExploreClause is one bound of an explore step: Word is "max" (the most
// operations), "only" or "skip" (a field path pattern; repeatable), "seed"
// (the seed number of the choices made) or "states" (the states on the
// way the differential oracle applies at once: all, none or a number).
type ExploreClause struct {
	Span
	Word  string `parser:"@('max' | 'only' | 'skip' | 'seed' | 'states')"`
	Value *Expr  `parser:"@@"`
}

func (*Explore) step() {}
