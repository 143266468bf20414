package oracle

import (
	"fmt"
	"sort"

	"github.com/sievetool/sieve/interp/formats/trace"
)

// health reports, per operation, the controller crashing or panicking
// (an end the run did not cause), the same request failing more than the
// loop bound, and a settle that never became quiet.
func (x *explored) health() []*Finding {
	fs := x.exits()
	for i := range x.stretches {
		s := &x.stretches[i]
		fs = append(fs, x.loops(s)...)
		fs = append(fs, x.unsettled(s)...)
	}
	return fs
}

// exits reports controller panics and unexpected exits over the run,
// each with the operation whose stretch it fell in (none: before the
// first operation).
func (x *explored) exits() []*Finding {
	var fs []*Finding
	killed, s := false, (*stretch)(nil)
	for i := range x.entries {
		e := &x.entries[i]
		if s == nil || i >= s.end {
			s = x.stretchAt(i)
		}
		if e.Type != trace.Controller {
			continue
		}
		var f *Finding
		if f, killed = controllerFinding(e, killed); f != nil {
			fs = append(fs, x.healthFinding(s, e, High, f.Message))
		}
	}
	return fs
}

// stretchAt returns the stretch holding entry i, or nil.
func (x *explored) stretchAt(i int) *stretch {
	for j := range x.stretches {
		if s := &x.stretches[j]; s.start <= i && i < s.end {
			return s
		}
	}
	return nil
}

// request is what makes two requests the same for the loop check.
type request struct {
	verb, subresource string
	key               trace.Key
	code              int
}

// loops reports each request that failed (status 400 or more) more
// than the loop bound within s.
func (x *explored) loops(s *stretch) []*Finding {
	bound := x.ex.LoopBound
	if bound <= 0 {
		bound = DefaultLoopBound
	}
	n := map[request]int{}
	first := map[request]*trace.Entry{}
	for i := s.start; i < s.end; i++ {
		e := &x.entries[i]
		if e.Type != trace.Request || e.Key == nil || e.Code < 400 {
			continue
		}
		r := request{e.Verb, e.Subresource, *e.Key, e.Code}
		if n[r]++; first[r] == nil {
			first[r] = e
		}
	}
	var fs []*Finding
	for r, c := range n {
		if c > bound {
			f := x.healthFinding(s, first[r], Medium, fmt.Sprintf("the controller's %s of %s failed with %d %d times (the bound is %d)",
				r.verb, r.key, r.code, c, bound))
			f.Key = r.key.String()
			fs = append(fs, f)
		}
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].Seq < fs[j].Seq })
	return fs
}

// unsettled reports a settle step in s that ended without quiet: it
// failed, or reached its bound and went on.
func (x *explored) unsettled(s *stretch) []*Finding {
	var fs []*Finding
	for i := s.start; i < s.end; i++ {
		e := &x.entries[i]
		if e.Type != trace.Step || e.What != "settle" || e.Phase != "end" {
			continue
		}
		why := firstLine(e.Error)
		if why == "" && trace.IsNotQuiet(e.Message) {
			why = e.Message
		}
		if why != "" {
			f := x.healthFinding(s, e, Medium, "the controller did not settle: "+why)
			f.Src = e.Src
			fs = append(fs, f)
		}
	}
	return fs
}

// healthFinding is a health finding at entry e, in the stretch of
// operation s (nil: before the first operation).
func (x *explored) healthFinding(s *stretch, e *trace.Entry, sev Severity, what string) *Finding {
	f := &Finding{Check: CheckHealth, Severity: sev, Key: x.ex.Resource.String(), Seq: e.Seq,
		Message: "before the first operation: " + what}
	if s != nil {
		f.Property = x.ex.Operations[s.op].Path.String()
		f.Message = fmt.Sprintf("after %s: %s", x.describe(s), what)
	}
	return f
}
