package trace

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Version is the trace format version, written in the header line.
const Version = 1

// Header is the first line of a trace file.
type Header struct {
	Trace   int       `json:"sieveTrace"` // always Version
	Test    string    `json:"test"`
	Spec    string    `json:"spec"`
	Plan    string    `json:"plan,omitempty"` // empty for a reference run
	Run     int       `json:"run"`            // reference run number, from 1
	Started time.Time `json:"started"`
	// Pattern is the fault pattern of the plan (intermediate, stale,
	// unobserved; empty for a user-written plan or a reference run).
	Pattern string `json:"pattern,omitempty"`
	// Actions is the number of actions of the plan, so that a reader can
	// tell whether every one fired.
	Actions int `json:"actions,omitempty"`
	// Workload identifies the controller and workloads the run ran, by
	// content (pipeline.WorkloadHash): a trace serves any test whose
	// workload has the same hash.
	Workload string `json:"workload,omitempty"`
}

// Type names the kind of a trace entry.
type Type string

// Entry types.
const (
	// Request is a request the controller made, with the API server's
	// answer (or the error the proxy saw).
	Request Type = "request"
	// Delivery is a watch event delivered to the controller (after any
	// injected filtering).
	Delivery Type = "delivery"
	// History is a change in the cluster, seen by sieve's own watch of every
	// resource type.
	History Type = "history"
	// Step is a workload step starting or ending.
	Step Type = "step"
	// Controller is a controller lifecycle event: start, exit, crash,
	// panic, kill, restart.
	Controller Type = "controller"
	// Fault is an injected action firing.
	Fault Type = "fault"
	// Converge is the start ("start") or end ("end") of a plan run's wait
	// for the objects that differ from the reference's end state to be
	// repaired. It is also the relist ("relist") that makes the controller
	// resync for it (the harness's own action, not a fault). Message says
	// what the wait was for, what the relist did or how the wait ended.
	Converge Type = "converge"
	// Settle is the run's own last wait for the controller to settle,
	// after the workload (and, in a plan run, after the plan's faults),
	// written only when it reached its bound (the test's settle_max)
	// without the controller going quiet: What is "unsettled", Message
	// says the window and the bound ("not quiet for 5s within 1m0s"). A
	// reader that does not know the type ignores it.
	Settle Type = "settle"
	// Connection is a connection the controller made to a stand-in,
	// relayed by sieve: What is "open" when it arrives and "close" when
	// both ends are done (Conn says how). A reader that does not know
	// the type ignores it.
	Connection Type = "connection"
	// HTTP is one HTTP/1.x exchange on a relayed connection, written when
	// the response was read (Conn names the connection, HTTP holds the
	// exchange).
	HTTP Type = "http"
)

// NotQuiet is what a settle that reached its bound says: the end entry
// of a settle step (which adds ", went on") and a Settle entry.
func NotQuiet(window, bound time.Duration) string {
	return fmt.Sprintf("not quiet for %s within %s", window, bound)
}

// IsNotQuiet reports whether msg, a settle's, says that it reached its
// bound (NotQuiet).
func IsNotQuiet(msg string) bool { return strings.HasPrefix(msg, "not quiet for ") }

// Key identifies an object: its kind as KindName gives it ("statefulset",
// "lease", "datastore.example.com"), namespace and name.
type Key struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

// String formats the key as kind/namespace/name, or kind/name when the
// object is cluster-scoped.
func (k Key) String() string {
	if k.Namespace == "" {
		return k.Kind + "/" + k.Name
	}
	return k.Kind + "/" + k.Namespace + "/" + k.Name
}

// Call names a request by what it asks: its API verb, object and
// subresource. Two requests with the same Call ask the same thing, the
// later one a retry of the earlier.
func Call(verb string, key Key, subresource string) string {
	return verb + " " + key.String() + " " + subresource
}

// Entry is one line of a trace. Seq is its position in the total order
// (from 1, strictly increasing). Which fields are set depends on Type.
type Entry struct {
	Seq  int64     `json:"seq"`
	Time time.Time `json:"time"`
	Type Type      `json:"type"`

	// Request, Delivery, History: the object concerned. For a list or a
	// collection watch, Name is empty.
	Key *Key `json:"key,omitempty"`

	// Request: the HTTP verb mapped to an API verb (get, list, watch,
	// create, update, patch, delete, deletecollection; connect for an
	// exec, attach or port-forward, whose body is the exec's options).
	// Then the subresource, the request body (JSON), the response code
	// and body (JSON; omitted for a list), and when the response reached
	// the controller.
	Verb        string          `json:"verb,omitempty"`
	Subresource string          `json:"subresource,omitempty"`
	Body        json.RawMessage `json:"body,omitempty"`
	Code        int             `json:"code,omitempty"`
	Response    json.RawMessage `json:"response,omitempty"`
	Done        *time.Time      `json:"done,omitempty"`

	// Delivery, History: the watch event type (ADDED, MODIFIED, DELETED),
	// the object's resourceVersion and the object itself (JSON).
	Event           string          `json:"event,omitempty"`
	ResourceVersion string          `json:"resourceVersion,omitempty"`
	Object          json.RawMessage `json:"object,omitempty"`

	// Step: the step's index in its workload, its kind, "start" or "end"
	// (Phase), its spec position, and the error if it failed. A wait that
	// goes on when it times out says so in its start entry's Message
	// (ElseContinue) and its outcome in its end entry's: "met", or "timed
	// out, went on (else continue): " and what it waited for. An explored
	// patch names its operation in its start entry's Message (Explored);
	// one the API server refused says so in its end entry's Message
	// (Refused) instead of Error.
	Workload string `json:"workload,omitempty"`
	Index    int    `json:"index,omitempty"`
	Phase    string `json:"phase,omitempty"`
	Src      string `json:"src,omitempty"`
	Error    string `json:"error,omitempty"`
	// Seen, on a step's end, is what the step saw of the cluster: per
	// kind (as in Key), the highest resourceVersion among the objects it
	// wrote, waited on or read. A reader places the step's end after the
	// history entries that reach it (Aligned).
	Seen map[string]string `json:"seen,omitempty"`

	// Controller: what happened (start, exit, crash, panic, kill,
	// restart), the process ID and exit code, and the log line for a
	// panic. Fault: the plan action (its index and kind) that fired, or
	// Missed.
	// Converge: start, relist or end, and what it waited for, what the
	// relist did or how it ended.
	What     string `json:"what,omitempty"`
	PID      int    `json:"pid,omitempty"`
	ExitCode *int   `json:"exitCode,omitempty"`
	Message  string `json:"message,omitempty"`
	Action   *int   `json:"action,omitempty"`

	// Connection, HTTP: the relayed connection. HTTP: the exchange, its
	// request's arrival in Time and its response's end in Done; Error
	// says why no whole response came, or why a body is cut.
	Conn *Conn     `json:"conn,omitempty"`
	HTTP *Exchange `json:"http,omitempty"`

	// Output, on the request entry of an exec the proxy answered itself
	// (a stand-in's answer, or a fault's), is what the command wrote.
	Output *ExecOutput `json:"output,omitempty"`
}

// ExecOutput is what an exec answered by the proxy wrote on its standard
// output and error: the first AnswerLimit bytes of each, invalid UTF-8 as
// U+FFFD, and their full lengths.
type ExecOutput struct {
	Stdout      string `json:"stdout,omitempty"`
	StdoutBytes int64  `json:"stdoutBytes,omitempty"`
	Stderr      string `json:"stderr,omitempty"`
	StderrBytes int64  `json:"stderrBytes,omitempty"`
}

// Conn is a connection of the controller to a stand-in. Sent, Received
// and End are set on its close entry only.
type Conn struct {
	// ID numbers the run's relayed connections, from 1.
	ID int64 `json:"id"`
	// Standin is the stand-in's name: its Service, or "pods SELECTOR".
	Standin string `json:"standin"`
	// Addr is the address the controller connected to (IP:PORT).
	Addr string `json:"addr"`
	// Pod is the pod (NAMESPACE/NAME) a pod stand-in answered for.
	Pod string `json:"pod,omitempty"`
	// Sent and Received count the bytes from the controller to the
	// stand-in and back.
	Sent     int64 `json:"sent,omitempty"`
	Received int64 `json:"received,omitempty"`
	// End says how the connection ended: ConnEOF, ConnReset, ConnClosed
	// or ConnError; the entry's Message says which end and why.
	End string `json:"end,omitempty"`
}

// How a relayed connection ended (Conn.End).
const (
	// ConnEOF: both ends closed their side in order.
	ConnEOF = "eof"
	// ConnReset: one end reset the connection; sieve reset the other.
	ConnReset = "reset"
	// ConnClosed: sieve closed it (its pod is no longer served, the run
	// ended).
	ConnClosed = "closed"
	// ConnError: reaching the stand-in, or reading or writing an end,
	// failed otherwise.
	ConnError = "error"
)

// Exchange is an HTTP/1.x request of the controller and the response it
// got. Headers are names only (canonical, sorted), but for the values of
// the response's AnswerHeaders; bodies are excerpts, after chunked
// decoding, with invalid UTF-8 as U+FFFD (the request's first
// BodyExcerpt bytes, the response's first AnswerLimit), and their full
// length in bytes.
type Exchange struct {
	// N is the exchange's place on its connection, from 1.
	N               int      `json:"n"`
	Method          string   `json:"method"`
	Target          string   `json:"target"` // as sent: path and query
	Host            string   `json:"host,omitempty"`
	RequestHeaders  []string `json:"requestHeaders,omitempty"`
	RequestBody     string   `json:"requestBody,omitempty"`
	RequestBytes    int64    `json:"requestBytes,omitempty"`
	Status          int      `json:"status,omitempty"` // 0: no response
	ResponseHeaders []string `json:"responseHeaders,omitempty"`
	// ResponseValues are the values of the response's AnswerHeaders that
	// it has (several values joined by ", ").
	ResponseValues map[string]string `json:"responseValues,omitempty"`
	ResponseBody   string            `json:"responseBody,omitempty"`
	ResponseBytes  int64             `json:"responseBytes,omitempty"`
}

// BodyExcerpt bounds an Exchange's request body excerpt, in bytes.
const BodyExcerpt = 1024

// AnswerLimit bounds, in bytes, an Exchange's response body excerpt and
// an exec's outputs: an answer no larger is recorded whole, so a plan can
// give it again in the application's place (a stale answer).
const AnswerLimit = 64 << 10

// AnswerHeaders are the response headers whose values an Exchange
// records: what a client reads of an answer besides its status and body
// (how the body is encoded, and which version of the resource it is).
// They carry no credentials.
var AnswerHeaders = []string{"Content-Type", "Content-Encoding", "Etag", "Last-Modified", "Location"}

// String names an exchange as "METHOD TARGET -> STATUS".
func (x *Exchange) String() string {
	if x.Status == 0 {
		return x.Method + " " + x.Target + " -> no response"
	}
	return x.Method + " " + x.Target + " -> " + strconv.Itoa(x.Status)
}

// Missed is the What of a Fault entry for an action whose trigger fired
// but that could not take effect (a stale view whose freeze point never
// came); its Message says why. Such an action did not fire.
const Missed = "missed"

// ElseContinue is the Message of the start entry of a wait step that lets
// the workload go on when it times out.
const ElseContinue = "else continue"

// Explored starts the Message of the start entry of an explored patch
// step, the operation after it as sieve explore lists it (spec.replicas
// bound 1).
const Explored = "explored: "

// Refused starts the Message of the end entry of an explored patch step
// (an operation of an explore step) that the API server refused, the
// answer after it: the schema, a validation rule or a webhook said no.
// The workload goes on; the step has no Error.
const Refused = "refused: "

// Refusal returns the API server's answer to the explored patch step
// whose end entry e is, and whether it refused the step (the Message
// starts with Refused). An entry that is no step's end is not refused.
func (e *Entry) Refusal() (answer string, refused bool) {
	if e.Type != Step || e.Phase != "end" {
		return "", false
	}
	if answer, ok := strings.CutPrefix(e.Message, Refused); ok {
		return answer, true
	}
	return "", false
}

// NoEffect reports whether the step whose end entry e is changed nothing
// it meant to: it failed, or the API server refused it (Refusal). An
// entry that is no step's end has no effect to lack.
func (e *Entry) NoEffect() bool {
	_, refused := e.Refusal()
	return refused || e.Type == Step && e.Phase == "end" && e.Error != ""
}
