package observe

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sievetool/sieve/interp/formats/planfile"
	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// Call is one call of the controller to its application: an exec into a
// pod (Channel ir.CallExec), or an HTTP request to a stand-in
// (ir.CallHTTP). Generation reads calls from a reference trace (CallOf);
// the injector makes them from the exec or the request it is about to
// answer (ExecCall, HTTPCall). Both give the same fields, so a generated
// call leaf matches at injection the call it was made from (MatchCall).
type Call struct {
	Channel string
	// Pod is the pod exec'd into, or the pod a pod stand-in answered an
	// HTTP request for; zero for a Service stand-in.
	Pod trace.Key
	// Command is an exec's command.
	Command []string
	// Standin is the stand-in an HTTP request went to: its Service, or
	// "pods SELECTOR".
	Standin string
	// Method and Target are an HTTP request's method and target (path
	// and query, as sent).
	Method, Target string
}

// ExecCall is the call of an exec into pod namespace/pod running command.
func ExecCall(namespace, pod string, command []string) Call {
	return Call{Channel: ir.CallExec, Pod: podKey(namespace, pod), Command: command}
}

// HTTPCall is the call of an HTTP request on relayed connection c.
func HTTPCall(c trace.Conn, method, target string) Call {
	call := Call{Channel: ir.CallHTTP, Standin: c.Standin, Method: method, Target: target}
	if ns, name, ok := strings.Cut(c.Pod, "/"); ok {
		call.Pod = podKey(ns, name)
	}
	return call
}

func podKey(namespace, name string) trace.Key {
	return trace.Key{Kind: "pod", Namespace: namespace, Name: name}
}

// CallOf returns the call a trace entry records: an exec request (verb
// connect, subresource exec, its options as body) or an http entry.
func CallOf(e *trace.Entry) (Call, bool) {
	switch {
	case e.Type == trace.Request && e.Verb == "connect" && e.Subresource == "exec":
		var opts struct {
			Namespace string   `json:"namespace"`
			Pod       string   `json:"pod"`
			Command   []string `json:"command"`
		}
		if json.Unmarshal(e.Body, &opts) != nil || opts.Pod == "" {
			return Call{}, false
		}
		return ExecCall(opts.Namespace, opts.Pod, opts.Command), true
	case e.Type == trace.HTTP && e.Conn != nil && e.HTTP != nil:
		return HTTPCall(*e.Conn, e.HTTP.Method, e.HTTP.Target), true
	}
	return Call{}, false
}

// Signature identifies equal calls: the same channel, pod, command or
// stand-in, method and target.
func (c Call) Signature() string {
	return planfile.Canonical([]any{c.Channel, c.Pod.String(), c.Command, c.Standin, c.Method, c.Target})
}

// String describes the call: `exec ["sh","-c","x"] in pod/default/db-0`,
// "GET /members to ens-client".
func (c Call) String() string {
	s := c.Method + " " + c.Target + " to " + c.Standin
	if c.Channel == ir.CallExec {
		s = "exec " + planfile.Canonical(c.Command)
	}
	if c.Pod.Name != "" {
		s += " in " + c.Pod.String()
	}
	return s
}

// Leaf returns the call leaf that matches exactly the calls equal to c,
// the count-th of them from when it is armed.
func (c Call) Leaf(count int) *planfile.Trigger {
	t := &planfile.Trigger{Op: ir.TrigCall, On: c.Channel, Command: c.Command, Standin: c.Standin, Method: c.Method, Path: c.Target, Count: count}
	if c.Pod.Name != "" {
		t.Target = &ir.Ref{Kind: c.Pod.Kind, Namespace: c.Pod.Namespace, Name: c.Pod.Name}
	}
	return t
}

// MatchCall reports whether call leaf t matches call c: every field the
// leaf sets equals the call's (the pod may be a glob).
func MatchCall(t *planfile.Trigger, c Call) bool {
	switch {
	case t.On != "" && t.On != c.Channel:
		return false
	case t.Target != nil && (c.Pod.Name == "" || !MatchRef(t.Target, c.Pod.Kind, c.Pod.Namespace, c.Pod.Name)):
		return false
	case t.Command != nil && !slices.Equal(t.Command, c.Command):
		return false
	case t.Standin != "" && t.Standin != c.Standin:
		return false
	case t.Method != "" && t.Method != c.Method:
		return false
	}
	return t.Path == "" || t.Path == c.Target
}

// CallError says what is wrong with a call leaf, or nil.
func CallError(t *planfile.Trigger) error {
	if t.On != "" && t.On != ir.CallExec && t.On != ir.CallHTTP {
		return fmt.Errorf("call leaf: unknown channel %q (want %s or %s)", t.On, ir.CallExec, ir.CallHTTP)
	}
	return nil
}
