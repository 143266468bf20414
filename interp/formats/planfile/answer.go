package planfile

import (
	"fmt"

	"github.com/sievetool/sieve/interp/formats/trace"
	"github.com/sievetool/sieve/lang/ir"
)

// Answer is what a stale app-fault action answers a call with, in the
// application's place: the answer the reference gave an earlier
// occurrence of the same call. An HTTP request gets Status, the values of
// Headers (trace.AnswerHeaders) and Body; an exec writes Stdout and
// Stderr and exits with Exit. Body, Stdout and Stderr are at most
// trace.AnswerLimit bytes each.
// The plan's "earlier" why entry says where in the reference it was
// taken from (not the answer: a plan's name does not depend on sequence
// numbers).
type Answer struct {
	Status  int               `json:"status,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    string            `json:"body,omitempty"`
	Exit    int               `json:"exit,omitempty"`
	Stdout  string            `json:"stdout,omitempty"`
	Stderr  string            `json:"stderr,omitempty"`
}

// String says what the answer is: "200 with 45 body bytes", "exit 0
// with 12 bytes on stdout and 0 on stderr".
func (a *Answer) String() string {
	if a.Status != 0 {
		return fmt.Sprintf("%d with %d body bytes", a.Status, len(a.Body))
	}
	return fmt.Sprintf("exit %d with %d bytes on stdout and %d on stderr", a.Exit, len(a.Stdout), len(a.Stderr))
}

// AnswerError says what is wrong with the answer of app-fault action a
// (a hand-edited plan file), or nil: a stale fault needs one or the
// reason it has none (noAnswer), not both, no other fault takes either,
// and its texts are bounded.
func AnswerError(a *Action) error {
	stale := a.AppFault == ir.FaultStale
	switch {
	case stale && a.Answer == nil && a.NoAnswer == "":
		return fmt.Errorf("stale needs the answer it gives (answer), or why it has none (noAnswer)")
	case stale && a.Answer != nil && a.NoAnswer != "":
		return fmt.Errorf("stale has an answer and says it has none (answer or noAnswer, not both)")
	case !stale && (a.Answer != nil || a.NoAnswer != ""):
		return fmt.Errorf("%s gives no answer of its own (answer and noAnswer are for stale)", a.AppFault)
	case a.Answer == nil:
		return nil
	}
	for what, text := range map[string]string{"body": a.Answer.Body, "stdout": a.Answer.Stdout, "stderr": a.Answer.Stderr} {
		if len(text) > trace.AnswerLimit {
			return fmt.Errorf("answer: %s of %d bytes, more than %d (trace.AnswerLimit)", what, len(text), trace.AnswerLimit)
		}
	}
	return nil
}
