package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/remotecommand"
)

// Exec is one exec of the controller into a pod (pods/exec), parsed from
// its query.
type Exec struct {
	Namespace string   `json:"namespace"`
	Pod       string   `json:"pod"`
	Container string   `json:"container,omitempty"`
	Command   []string `json:"command"`
	Stdin     bool     `json:"stdin,omitempty"`
	Stdout    bool     `json:"stdout,omitempty"`
	Stderr    bool     `json:"stderr,omitempty"`
	TTY       bool     `json:"tty,omitempty"`
}

// ExecIO are the streams of an exec the proxy answers itself. Stdin is
// empty (never nil) when the controller sent none; Stdout and Stderr
// discard what is written when it asked for none.
type ExecIO struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// ExecFunc answers an exec: it runs with the exec's streams and returns
// the command's exit code. An error is reported to the controller as the
// failure of the exec itself (not of the command).
type ExecFunc func(ctx context.Context, e *Exec, s ExecIO) (exitCode int, err error)

// parseExec reads the exec options of a pods/exec request.
func parseExec(rt route, q url.Values) *Exec {
	return &Exec{
		Namespace: rt.namespace, Pod: rt.name, Container: q.Get("container"), Command: q["command"],
		Stdin: isTrue(q.Get("stdin")), Stdout: isTrue(q.Get("stdout")), Stderr: isTrue(q.Get("stderr")), TTY: isTrue(q.Get("tty")),
	}
}

// execProtocols are the remote command protocols the proxy serves: v5 over
// WebSocket (client-go's default since 1.30) and v4 or v5 over SPDY (its
// fallback, and what older clients and NewSPDYExecutor use). Older
// versions are refused at the handshake, as a kubelet refuses unknown
// ones.
var execProtocols = []string{remotecommand.StreamProtocolV5Name, remotecommand.StreamProtocolV4Name}

// serveExec answers an exec with fn over whichever protocol the controller
// asked for. It returns the status written on the error stream (or the
// refusal answered instead of an upgrade) and the HTTP code.
func serveExec(w http.ResponseWriter, hr *http.Request, e *Exec, fn ExecFunc) (code int, status []byte) {
	if isWebSocket(hr) {
		return serveExecWebSocket(w, hr, e, fn)
	}
	return serveExecSPDY(w, hr, e, fn)
}

// runExec runs fn and returns the v4 status that reports its outcome.
func runExec(ctx context.Context, e *Exec, s ExecIO, fn ExecFunc) []byte {
	rc, err := fn(ctx, e, s)
	return execStatus(rc, err)
}

// execStatus is the JSON Status a kubelet writes on the error stream
// (protocol v4 and later): Success, a NonZeroExitCode failure carrying the
// exit code, or an internal error.
func execStatus(rc int, err error) []byte {
	st := metav1.Status{Status: metav1.StatusSuccess}
	switch {
	case err != nil:
		st = metav1.Status{Status: metav1.StatusFailure, Code: http.StatusInternalServerError,
			Reason: metav1.StatusReasonInternalError, Message: err.Error()}
	case rc != 0:
		st = metav1.Status{
			Status: metav1.StatusFailure, Reason: remotecommand.NonZeroExitCodeReason,
			Message: fmt.Sprintf("command terminated with non-zero exit code: exit status %d", rc),
			Details: &metav1.StatusDetails{Causes: []metav1.StatusCause{{Type: remotecommand.ExitCodeCauseType, Message: strconv.Itoa(rc)}}},
		}
	}
	b, _ := json.Marshal(st)
	return b
}

// ContainerNotFound is what a kubelet answers to an exec into a container
// it does not run: the pods sieve simulates run none.
func ContainerNotFound(e *Exec) *StatusError {
	return &StatusError{Code: http.StatusInternalServerError, Reason: string(metav1.StatusReasonInternalError),
		Message: fmt.Sprintf("container not found (%q)", e.Container)}
}

// stream types of the SPDY remote command protocol (header streamType).
const (
	streamError  = corev1.StreamTypeError
	streamStdin  = corev1.StreamTypeStdin
	streamStdout = corev1.StreamTypeStdout
	streamStderr = corev1.StreamTypeStderr
)
