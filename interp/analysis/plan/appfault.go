package plan

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sievetool/sieve/interp/analysis/observe"
	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// appCall is a call of the controller to its application in the
// reference trace (an exec into a pod, an HTTP request to a stand-in),
// with its occurrence: how many equal calls (observe.Call.Signature) the
// controller had made, this one included.
type appCall struct {
	observe.Call
	entry      *trace.Entry
	workload   string
	occurrence int
	// answer is the call's whole answer (observe.AnswerOf), nil when the trace
	// does not hold it. prev is the equal call just before this one.
	// earlier is prev when its answer is whole and differs from this
	// one's: what a generated stale answer gives. change counts the calls
	// with an earlier, of this signature, this one included.
	answer  *planfile.Answer
	prev    *appCall
	earlier *appCall
	change  int
}

// appCalls reads the controller's calls to its application from the
// reference trace, in the order they arrived (an http entry is written
// when its response was read, the injector sees the call when it
// arrives), and numbers the equal ones.
func (g *generator) appCalls() []*appCall {
	var calls []*appCall
	workload := ""
	for i := range g.tr.Entries {
		e := &g.tr.Entries[i]
		if e.Type == trace.Step && e.Phase == "start" {
			workload = e.Workload
		}
		if c, ok := observe.CallOf(e); ok {
			calls = append(calls, &appCall{Call: c, entry: e, workload: workload})
		}
	}
	slices.SortStableFunc(calls, func(a, b *appCall) int { return a.entry.Time.Compare(b.entry.Time) })
	seen, last, changes := map[string]int{}, map[string]*appCall{}, map[string]int{}
	for _, c := range calls {
		sig := c.Signature()
		seen[sig]++
		c.occurrence = seen[sig]
		c.answer, c.prev = observe.AnswerOf(c.entry), last[sig]
		if c.staleFrom(c.prev) {
			changes[sig]++
			c.earlier, c.change = c.prev, changes[sig]
		}
		last[sig] = c
	}
	return calls
}

// staleFrom reports whether earlier call e can give c a stale answer:
// its answer is whole and differs from c's.
func (c *appCall) staleFrom(e *appCall) bool {
	return e != nil && observe.AnswerChanged(e.answer, c.answer)
}

// appFault makes one candidate per call of the controller to its
// application and fault of the policy (ir.DefaultAppFaults when it
// names none) that answers a call of that channel (ir.AppFaultKind.Answers):
// an exec gets exec_error and hang, an HTTP request unavailable, reset,
// hang and truncated. The plan answers
// the call so, once, in the application's place. The candidates are
// pruned by the passes that apply to a call: the policy's filters (on
// the pod, or on the Service service/NAMESPACE/NAME of a Service
// stand-in), failed (a call that already failed in the reference),
// nondeterministic (a pod with a generated name) and duplicates.
func (g *generator) appFault(pol *ir.Policy) ([]*candidate, []pass) {
	kinds := pol.AppFaults
	if len(kinds) == 0 {
		kinds = ir.DefaultAppFaults()
	}
	var cands []*candidate
	for _, c := range g.appCalls() {
		for _, k := range kinds {
			if k.Answers(c.Channel) && (k != ir.FaultStale || c.earlier != nil) {
				cands = append(cands, g.answerCall(c, k))
			}
		}
	}
	pr := pol.Prune
	return cands, []pass{
		g.callFilterPass(pol),
		{PassFailed, pr.Failed, func(c *candidate) bool { return !callFailed(c.call) }, func(c *candidate) string { return callFailedWhy(c.call) }},
		{PassNondeterministic, pr.Nondeterministic, func(c *candidate) bool { return !g.ix.generated[c.call.Pod] }, func(c *candidate) string {
			return fmt.Sprintf("%s: %s has a generated name", c.call.desc(), c.call.Pod)
		}},
		{PassDuplicates, pr.Duplicates, func(c *candidate) bool { return repeat(c) <= g.opts.MaxOccurrence }, func(c *candidate) string {
			if c.appFault == ir.FaultStale {
				return fmt.Sprintf("%s is change %d of its call's answer (at most %d kept)", c.call.desc(), c.call.change, g.opts.MaxOccurrence)
			}
			return fmt.Sprintf("%s is occurrence %d of its call (at most %d kept)", c.call.desc(), c.call.occurrence, g.opts.MaxOccurrence)
		}},
	}
}

// answerCall is the appfault candidate that answers call c with fault k.
func (g *generator) answerCall(c *appCall, k ir.AppFaultKind) *candidate {
	key := g.callKey(c)
	slug := string(k) + "-" + key.String() + "-" + c.Method + "-" + c.Target
	if c.Channel == ir.CallExec {
		slug = string(k) + "-" + key.String() + "-exec-" + strings.Join(c.Command, "-")
	}
	cand := &candidate{call: c, appFault: k, slug: slug}
	cand.build = func() *planfile.Plan {
		a := &planfile.Action{Kind: ir.ActAppFault, AppFault: k, Trigger: c.Leaf(c.occurrence)}
		why := []planfile.Why{c.why("call", key)}
		if k == ir.FaultStale {
			a.Trigger, a.Answer = c.ChangedLeaf(c.change), c.earlier.answer
			why = append(why, c.earlier.why("earlier", key))
		}
		return &planfile.Plan{Workload: c.workload, Actions: []*planfile.Action{a}, Why: why}
	}
	return cand
}

// why is the plan's why entry of the call, in role.
func (c *appCall) why(role string, key trace.Key) planfile.Why {
	return planfile.Why{Role: role, Seq: c.entry.Seq, Key: key.String(), Verb: c.verb(),
		Call: c.String(), Code: c.code(), Occurrence: c.occurrence}
}

// appFaultWhat says what an appfault candidate would do: "answer #216
// GET /members to ens-client with stale, the answer to #209".
func appFaultWhat(c *candidate) string {
	s := "answer " + c.call.desc() + " with " + string(c.appFault)
	if c.appFault == ir.FaultStale {
		s += fmt.Sprintf(", the answer to #%d", c.call.earlier.entry.Seq)
	}
	return s
}

// repeat is what the duplicates pass counts of an appfault candidate: the
// occurrence of its call, or for a stale answer the change of the call's
// answer it gives (a call repeated often with one answer makes one).
func repeat(c *candidate) int {
	if c.appFault == ir.FaultStale {
		return c.call.change
	}
	return c.call.occurrence
}

// callKey is the object a call concerns, which the policy's filters
// match: its pod, or for a Service stand-in the Service, in the
// controller's namespace.
func (g *generator) callKey(c *appCall) trace.Key {
	if c.Pod.Name != "" {
		return c.Pod
	}
	ns := ""
	if cs := g.test.Controller; cs != nil && len(cs.Namespaces) > 0 {
		ns = cs.Namespaces[0]
	}
	return trace.Key{Kind: "service", Namespace: ns, Name: c.Standin}
}

// verb is what the policy's filters match a call's verb against: exec,
// or the HTTP method in lower case.
func (c *appCall) verb() string {
	if c.Channel == ir.CallExec {
		return ir.CallExec
	}
	return strings.ToLower(c.Method)
}

// code is the call's answer in the reference: an exec's HTTP status (101
// when it was served), an HTTP response's status (0: none came).
func (c *appCall) code() int {
	if c.Channel == ir.CallExec {
		return c.entry.Code
	}
	return c.entry.HTTP.Status
}

// desc names a call with its trace entry: "#15 GET /members to ens-client".
func (c *appCall) desc() string { return fmt.Sprintf("#%d %s", c.entry.Seq, c.Call) }

// callFilterPass is the policy's include/exclude filters on calls: the
// object a call concerns (callKey) and its verb (exec, or the method).
func (g *generator) callFilterPass(pol *ir.Policy) pass {
	return itemFilterPass(pol, func(c *candidate) *item {
		return &item{Observed: observe.Observed{Entry: c.call.entry, Key: g.callKey(c.call), Verb: c.call.verb()}}
	}, func(c *candidate) string { return c.call.desc() })
}

// itemFilterPass is the policy's include/exclude filters on what a
// candidate concerns that is neither an event nor a write (a call, a
// read): it (the item the filters match) and desc (how it is named in
// the evidence).
func itemFilterPass(pol *ir.Policy, it func(*candidate) *item, desc func(*candidate) string) pass {
	return pass{name: PassFilter, on: len(pol.Include)+len(pol.Exclude) > 0,
		keep: func(c *candidate) bool {
			s := it(c)
			return (len(pol.Include) == 0 || matchAny(pol.Include, s)) && !matchAny(pol.Exclude, s)
		},
		why: func(c *candidate) string {
			if matchAny(pol.Exclude, it(c)) {
				return desc(c) + " matches an exclude filter of policy " + pol.Name
			}
			return desc(c) + " matches no include filter of policy " + pol.Name
		}}
}

// callFailed reports whether a call failed in the reference: an exec
// not served (its status not 101) or that exited non-zero, an HTTP
// request with no response or a 5xx. A wrong answer there would repeat
// what the controller already handled.
func callFailed(c *appCall) bool {
	if c.Channel == ir.CallHTTP {
		return c.entry.HTTP.Status == 0 || c.entry.HTTP.Status >= 500
	}
	if c.entry.Code != 101 {
		return true
	}
	var st struct {
		Status string `json:"status"`
	}
	return json.Unmarshal(c.entry.Response, &st) == nil && st.Status == "Failure"
}

// callFailedWhy says how a call failed in the reference.
func callFailedWhy(c *appCall) string {
	switch {
	case c.Channel == ir.CallHTTP && c.entry.HTTP.Status == 0:
		return c.desc() + " got no response"
	case c.Channel == ir.CallHTTP:
		return fmt.Sprintf("%s was answered %d", c.desc(), c.entry.HTTP.Status)
	case c.entry.Code != 101:
		return fmt.Sprintf("%s was not served (%d)", c.desc(), c.entry.Code)
	}
	return c.desc() + " exited non-zero"
}
