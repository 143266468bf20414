package proxy

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/sievetool/sieve/lang/ir"
)

// injected ends the message of every error the proxy answers in the API
// server's place, so that a controller's log tells it from a real one.
const injected = " (injected by sieve)"

// APIError returns the answer a real kube-apiserver gives write r when it
// fails with kind, built as the API server builds it (client-go's
// apierrors.IsConflict, IsTooManyRequests, IsInternalError and IsTimeout
// recognise them): a 409 Conflict naming the object, a 429 with
// Retry-After (client-go waits and sends the write again), a 500
// InternalError, a 504 Timeout (with or without the write applied: the
// answer is the same, only whether the proxy forwarded the write first
// differs).
func APIError(kind ir.APIErrorKind, r *Request) (*StatusError, error) {
	gr := schema.GroupResource{Group: r.Group, Resource: r.Resource}
	var se *apierrors.StatusError
	switch kind {
	case ir.ErrConflict:
		se = apierrors.NewConflict(gr, r.Key.Name, errors.New("the object has been modified; please apply your changes to the latest version and try again"+injected))
	case ir.ErrTooManyRequests:
		se = apierrors.NewTooManyRequests("too many requests, please try again later"+injected, 1)
	case ir.ErrInternal:
		se = apierrors.NewInternalError(errors.New("the server could not complete the request" + injected))
	case ir.ErrTimeout, ir.ErrTimeoutApplied:
		se = apierrors.NewTimeoutError("request did not complete within requested timeout - context deadline exceeded"+injected, 0)
	default:
		return nil, fmt.Errorf("proxy: unknown API error %q", kind)
	}
	st := se.ErrStatus
	out := &StatusError{Code: int(st.Code), Reason: string(st.Reason), Message: st.Message, Details: st.Details}
	if st.Details != nil && st.Details.RetryAfterSeconds > 0 {
		out.RetryAfter = int(st.Details.RetryAfterSeconds)
	}
	return out, nil
}

// write answers the request with the error's Status, and its Retry-After
// header when it has one.
func (e *StatusError) write(w http.ResponseWriter) {
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	w.Header().Set("Content-Type", mediaJSON)
	w.WriteHeader(e.Code)
	_, _ = w.Write(e.body())
}

// body is the error's failure Status in JSON.
func (e *StatusError) body() []byte {
	st := metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure, Message: e.Message, Reason: metav1.StatusReason(e.Reason),
		Details: e.Details, Code: int32(e.Code),
	}
	b, _ := json.Marshal(st)
	return b
}
