package planfile

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"

	"github.com/sievetool/sieve/lang/ir"
)

// Version is the plan format version, written in every plan file as
// "sievePlan". It changes whenever a field changes meaning or is removed.
const Version = 1

// User is the pattern of a plan written in the spec; generated plans
// have the IR's patterns.
const User ir.Pattern = "user"

// Plan is one test plan: a list of actions, each fired by its trigger, and
// the reference-trace entries it was made from.
type Plan struct {
	// Format is always Version.
	Format int `json:"sievePlan"`
	// Name is stable: derived from the pattern, the object concerned and a
	// hash of the actions, so that the same plan from a re-recorded
	// reference keeps its name.
	Name     string     `json:"name"`
	Test     string     `json:"test"`
	Workload string     `json:"workload,omitempty"`
	Pattern  ir.Pattern `json:"pattern"`
	// Policy names the policy (or, for a user plan, the spec plan) it came
	// from.
	Policy string `json:"policy,omitempty"`
	// Src is the spec position of the policy or user plan.
	Src     string    `json:"src,omitempty"`
	Actions []*Action `json:"actions"`
	// Why lists the reference-trace entries the plan was made from.
	Why []Why `json:"why,omitempty"`
	// Checkpoint, if not nil, says that the plan runs from a checkpoint
	// taken in the middle of the workload (sieve run --reuse-prefix), not
	// from its start: Why names entries of a run from that checkpoint.
	Checkpoint *Checkpoint `json:"checkpoint,omitempty"`
}

// Checkpoint is where a plan's run starts: the test's steps up to the
// settle after explored operation After are run fault-free, the
// controller stopped and the cluster's state taken; the plan's run
// returns the cluster to it, starts the controller afresh and runs the
// steps after it, its triggers counting from there. It is judged against
// suffix references recorded the same way.
type Checkpoint struct {
	// After is the explored operation, numbered from 1 in the test's
	// workload, that the checkpoint is taken after.
	After int `json:"afterOperation"`
}

// Action is one thing a plan does. Actions run in order: an action's
// trigger is armed when the previous action has fired (the first one's when
// the run starts); an action without a trigger fires right after the
// previous one.
type Action struct {
	Kind ir.ActionKind `json:"kind"`
	// Scope is the object (or, with an empty or glob name, the objects) a
	// stale-on, stale-off, hold or release action applies to.
	Scope *ir.Ref `json:"scope,omitempty"`
	// Revision is the resourceVersion a stale-on action freezes the view
	// at; empty means the revision current when it fires. Plans written
	// since At exists leave it empty: a reference run's revision means
	// nothing in another run.
	Revision string `json:"revision,omitempty"`
	// At, on a stale-on action, is an event leaf: the view is frozen at
	// the revision of Scope the controller had been shown when that event
	// (counted from the start of the run) was delivered.
	At *Trigger `json:"at,omitempty"`
	// Duration is how long a wait action pauses the plan, or how long a
	// hold keeps events back at most (0: Bound).
	Duration ir.Duration `json:"duration,omitempty"`
	// Bound, on a generated hold with no Duration, is how long it keeps
	// events back at most, learned from the reference runs (how long the
	// cancelling event took there, with a margin; 0: ir.DefaultHoldFor).
	// It is not part of the plan's name: it follows the pace of the
	// machine that recorded the references, and the plan is the same.
	Bound ir.Duration `json:"bound,omitempty"`
	// Error, on an error action, is the API error the write its trigger
	// completed on is answered with, in the API server's place.
	Error ir.APIErrorKind `json:"error,omitempty"`
	// AppFault, on an app-fault action, is the wrong answer the call its
	// trigger completed on gets, in the application's place.
	AppFault ir.AppFaultKind `json:"appFault,omitempty"`
	// Answer, on an app-fault action whose fault is stale, is the answer
	// the call gets: the reference's answer to an earlier occurrence of
	// the same call, carried so the plan needs no reference run.
	Answer *Answer `json:"answer,omitempty"`
	// NoAnswer, on a stale app-fault action of a spec's plan whose call
	// had no earlier answer in the reference run to give, says why
	// instead of Answer: the action misses when its trigger completes,
	// and the plan is not-injected.
	NoAnswer string   `json:"noAnswer,omitempty"`
	Trigger  *Trigger `json:"trigger,omitempty"`
	// Src is the spec position of a user plan's action.
	Src string `json:"src,omitempty"`
}

// HoldBound is how long a hold keeps events back at most: its Duration,
// else its learned Bound; 0 when it has neither.
func (a *Action) HoldBound() ir.Duration {
	if a.Duration > 0 {
		return a.Duration
	}
	return a.Bound
}

// Seen values: where an event trigger looks.
const (
	// SeenController matches watch events on their way to the controller
	// (before any hold): the default.
	SeenController = "controller"
	// SeenCluster matches changes in the cluster history, whether the
	// controller watches the object or not.
	SeenCluster = "cluster"
)

// Trigger is a tree like ir.Trigger: leaves match what the controller sees
// or does, or a timeout; combinators join them.
type Trigger struct {
	Op ir.TriggerOp `json:"op"`

	// Event, write and read leaves. On is create, update or delete for events;
	// create, update, patch, delete or deletecollection for writes (empty:
	// any). Target is the object (globs allowed).
	On          string  `json:"on,omitempty"`
	Target      *ir.Ref `json:"target,omitempty"`
	Subresource string  `json:"subresource,omitempty"`
	// Failed, on a write leaf, matches a write the API server refused
	// (not 2xx) instead of a successful one.
	Failed bool `json:"failed,omitempty"`
	// Sent, on a write leaf, matches the write as the controller sends it,
	// before the API server has seen it (its diff from the request body,
	// observe.Tracker.Sent), instead of once it has been answered; Failed
	// does not apply. An error action's trigger ends on such a leaf.
	Sent bool `json:"sent,omitempty"`
	// Seen is where an event leaf looks: SeenController (default) or
	// SeenCluster.
	Seen string `json:"seen,omitempty"`
	// Diff, when set, must equal the masked slim diff of the change.
	Diff *Diff `json:"diff,omitempty"`
	// NoLonger, when set, matches a change after which the object no longer
	// contains this fragment (or is gone).
	NoLonger map[string]any `json:"noLonger,omitempty"`
	// Where is a field condition on the object after the change.
	Where *ir.Cond `json:"where,omitempty"`
	// Count is the occurrence that fires the leaf (default 1), counted from
	// when the leaf is armed.
	Count int `json:"count,omitempty"`

	// Timeout leaves: Duration after the leaf is armed. Quiet leaves: the
	// controller has read Target since the leaf was armed, then sent no
	// request and received no event for Duration.
	Duration ir.Duration `json:"duration,omitempty"`

	// Call leaves: a call of the controller to its application as it is
	// about to be answered. On is its channel (ir.CallExec, ir.CallHTTP);
	// Target the pod (an exec's, or the pod a pod stand-in answered for;
	// nil for a Service stand-in, or any pod); Command an exec's command,
	// argument for argument; Standin the stand-in an HTTP request went to
	// (its Service, or "pods SELECTOR"); Method and Path the request's
	// method and target (path and query, as sent). Empty fields match any
	// call; Count counts the matching calls. Changed makes the leaf match
	// a call only once the application has answered it, and only when
	// that answer differs from the one the previous equal call
	// (observe.Call.Signature) got in this run: Count counts the changes.
	// Only a stale app-fault action ends on such a leaf.
	Command []string `json:"command,omitempty"`
	Standin string   `json:"standin,omitempty"`
	Method  string   `json:"method,omitempty"`
	Path    string   `json:"path,omitempty"`
	Changed bool     `json:"changed,omitempty"`

	// Read leaves: a read of the controller as it is sent, before the API
	// server has seen it. On is get or list (empty: either), Target what
	// it reads (a list's name is "*": it names no object), Count counts
	// the matching reads (observe.MatchRead). An error action answers it.

	// Combinators: then (in order), all (in any order), any.
	Args []*Trigger `json:"args,omitempty"`
}

// Calls reports whether the tree has a call leaf: its engine must be
// shown the controller's calls to its application (trigger.Engine.Call).
func (t *Trigger) Calls() bool {
	return t.has(func(l *Trigger) bool { return l.Op == ir.TrigCall })
}

// Calls reports whether a trigger of the plan has a call leaf.
func (p *Plan) Calls() bool {
	return slices.ContainsFunc(p.Actions, func(a *Action) bool { return a.Trigger.Calls() })
}

// Changes reports whether the tree has a call leaf with Changed: its
// engine must be shown the calls once answered, with their answers
// (trigger.Engine.Answered).
func (t *Trigger) Changes() bool {
	return t.has(func(l *Trigger) bool { return l.Op == ir.TrigCall && l.Changed })
}

// Changes reports whether a trigger of the plan has a call leaf with
// Changed: the run must then forward the calls to the application and
// read their answers before it answers them.
func (p *Plan) Changes() bool {
	return slices.ContainsFunc(p.Actions, func(a *Action) bool { return a.Trigger.Changes() })
}

// has reports whether t or a node under it satisfies f.
func (t *Trigger) has(f func(*Trigger) bool) bool {
	return t != nil && (f(t) || slices.ContainsFunc(t.Args, func(a *Trigger) bool { return a.has(f) }))
}

// Sends reports whether the tree has a write leaf with Sent or a read
// leaf: its engine must be shown requests as they are sent
// (trigger.Engine.Send).
func (t *Trigger) Sends() bool {
	return t.has(func(l *Trigger) bool { return l.Op == ir.TrigWrite && l.Sent || l.Op == ir.TrigRead })
}

// Why is one reference-trace entry a plan was made from.
type Why struct {
	// Role says what the entry is to the plan. "write" is the write
	// crashed after, "event" the state frozen or hidden, and "delete" the
	// destructive write. "back" is the object coming back, or the newer
	// state, that fires the stale view. "cancel" is the event that cancels
	// a hidden one. "call" is the call an appfault plan answers wrongly,
	// "earlier" the earlier occurrence of it whose answer a stale one
	// gives.
	Role string `json:"role"`
	Seq  int64  `json:"seq"`
	Key  string `json:"key"`
	// Verb is the event type (create, update, delete) or the write verb.
	Verb        string `json:"verb"`
	Subresource string `json:"subresource,omitempty"`
	Revision    string `json:"revision,omitempty"`
	Code        int    `json:"code,omitempty"`
	Diff        *Diff  `json:"diff,omitempty"`
	// Occurrence is how many times this signature had been seen, this one
	// included.
	Occurrence int `json:"occurrence,omitempty"`
	// Call, for a call of the controller to its application (role
	// "call" or "earlier", an appfault plan's), says which: `exec ["sh","-c","x"] in
	// pod/default/db-0`, "GET /members to ens-client". Its Key is the pod,
	// or the Service of a Service stand-in; Verb exec or the HTTP method
	// in lower case; Code its answer in the reference.
	Call string `json:"call,omitempty"`
	// State, for an event, identifies the object's whole state after it,
	// masked (observe.StateHash): the diff says only what changed, and the
	// same change can happen from a different state in another run.
	State string `json:"state,omitempty"`
}

// SetName derives the plan's stable name from its pattern, a slug of the
// object concerned and a hash of its actions (without their spec
// positions, which depend on the directory sieve runs in).
func (p *Plan) SetName(slug string) {
	acts := make([]Action, len(p.Actions))
	for i, a := range p.Actions {
		acts[i] = *a
		acts[i].Src = ""  // where it was written is not what it does
		acts[i].Bound = 0 // learned from the references' pace (see Action)
	}
	sum := sha256.Sum256([]byte(string(p.Pattern) + "\n" + Canonical(acts)))
	h := hex.EncodeToString(sum[:4])
	if slug = sanitize(slug); slug == "" {
		p.Name = string(p.Pattern) + "-" + h
		return
	}
	p.Name = string(p.Pattern) + "-" + slug + "-" + h
}

// sanitize keeps a slug to lowercase letters, digits, dots and dashes, at
// most 64 characters.
func sanitize(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.'
		if !ok {
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = true
			continue
		}
		b.WriteRune(r)
		dash = false
	}
	out := strings.TrimSuffix(b.String(), "-")
	if len(out) > 64 {
		out = strings.TrimSuffix(out[:64], "-")
	}
	return out
}
