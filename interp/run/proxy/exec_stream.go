package proxy

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/util/httpstream"
	"k8s.io/apimachinery/pkg/util/httpstream/spdy"
	"k8s.io/apimachinery/pkg/util/httpstream/wsstream"
	"k8s.io/klog/v2"
)

// streamTimeout bounds the wait for the client's streams after an upgrade,
// as the kubelet's stream creation timeout does.
const streamTimeout = 30 * time.Second

// isWebSocket reports whether the request asks for a WebSocket upgrade.
func isWebSocket(hr *http.Request) bool {
	return strings.EqualFold(hr.Header.Get("Upgrade"), "websocket")
}

// Channels of the remote command protocol over WebSocket, by number.
const (
	chanStdin = iota
	chanStdout
	chanStderr
	chanError
	chanResize
)

// serveExecWebSocket serves an exec over a channel.k8s.io WebSocket: one
// channel per stream, the status on the error channel, then close.
func serveExecWebSocket(w http.ResponseWriter, hr *http.Request, e *Exec, fn ExecFunc) (int, []byte) {
	channels := []wsstream.ChannelType{
		chanStdin:  wsChannel(e.Stdin, wsstream.ReadChannel),
		chanStdout: wsChannel(e.Stdout, wsstream.WriteChannel),
		chanStderr: wsChannel(e.Stderr, wsstream.WriteChannel),
		chanError:  wsstream.WriteChannel,
		chanResize: wsstream.ReadChannel,
	}
	protocols := map[string]wsstream.ChannelProtocolConfig{}
	for _, p := range execProtocols {
		protocols[p] = wsstream.ChannelProtocolConfig{Binary: true, Channels: channels}
	}
	conn := wsstream.NewConn(protocols)
	conn.SetIdleTimeout(4 * time.Hour)
	// wsstream logs to the request's logger when the connection closes
	// under its reader, as it does at the end of every exec: keep that
	// out of sieve's output.
	hr = hr.WithContext(klog.NewContext(hr.Context(), logr.Discard()))
	_, streams, err := conn.Open(w, hr)
	if err != nil {
		return http.StatusBadRequest, nil
	}
	defer conn.Close()
	_, _ = streams[firstWritable(e)].Write(nil) // as a kubelet: the connection is established
	s := ExecIO{Stdin: emptyReader(e.Stdin, streams[chanStdin]), Stdout: sink(e.Stdout, streams[chanStdout]), Stderr: sink(e.Stderr, streams[chanStderr])}
	status := runExec(hr.Context(), e, s, fn)
	_, _ = streams[chanError].Write(status)
	return http.StatusSwitchingProtocols, status
}

// firstWritable is the lowest channel the proxy writes to.
func firstWritable(e *Exec) int {
	switch {
	case e.Stdout:
		return chanStdout
	case e.Stderr:
		return chanStderr
	}
	return chanError
}

func wsChannel(open bool, t wsstream.ChannelType) wsstream.ChannelType {
	if open {
		return t
	}
	return wsstream.IgnoreChannel
}

// serveExecSPDY serves an exec over SPDY: the client opens one stream per
// standard stream plus the error stream (and resize with a TTY), each
// named by its streamType header.
func serveExecSPDY(w http.ResponseWriter, hr *http.Request, e *Exec, fn ExecFunc) (int, []byte) {
	if _, err := httpstream.Handshake(hr, w, execProtocols); err != nil {
		return http.StatusForbidden, nil // Handshake answered
	}
	got, done := make(chan httpstream.Stream), make(chan struct{})
	defer close(done) // a stream the exec does not wait for is dropped
	conn := spdy.NewResponseUpgrader().UpgradeResponse(w, hr, func(st httpstream.Stream, replySent <-chan struct{}) error {
		go func() {
			<-replySent
			select {
			case got <- st:
			case <-done:
			}
		}()
		return nil
	})
	if conn == nil {
		return http.StatusInternalServerError, nil // UpgradeResponse answered
	}
	defer conn.Close()
	streams, ok := waitStreams(got, expectedStreams(e))
	if !ok {
		return http.StatusSwitchingProtocols, nil
	}
	s := ExecIO{Stdin: emptyReader(e.Stdin, streams[streamStdin]), Stdout: sink(e.Stdout, streams[streamStdout]), Stderr: sink(e.Stderr, streams[streamStderr])}
	ctx, cancel := untilClosed(hr.Context(), conn.CloseChan())
	defer cancel()
	status := runExec(ctx, e, s, fn)
	_, _ = streams[streamError].Write(status)
	for _, st := range streams {
		_ = st.Close()
	}
	return http.StatusSwitchingProtocols, status
}

// untilClosed is ctx, also cancelled once closed is: the controller's
// client closed the exec's connection (it gave up), which a hijacked
// request's context does not show.
func untilClosed(ctx context.Context, closed <-chan bool) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-closed:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// expectedStreams counts the streams a client opens for the exec: error,
// one per requested standard stream, resize with a TTY.
func expectedStreams(e *Exec) int {
	n := 1
	for _, b := range []bool{e.Stdin, e.Stdout, e.Stderr, e.TTY} {
		if b {
			n++
		}
	}
	if e.TTY && e.Stderr {
		n-- // a TTY merges stderr into stdout
	}
	return n
}

// waitStreams collects n streams by type, or gives up after streamTimeout.
func waitStreams(got <-chan httpstream.Stream, n int) (map[string]httpstream.Stream, bool) {
	streams := map[string]httpstream.Stream{}
	timeout := time.NewTimer(streamTimeout)
	defer timeout.Stop()
	for len(streams) < n {
		select {
		case st := <-got:
			streams[st.Headers().Get("streamType")] = st
		case <-timeout.C:
			return nil, false
		}
	}
	_, ok := streams[streamError]
	return streams, ok
}

// emptyReader is r, or an empty reader when the controller sent no stdin.
func emptyReader(open bool, r io.Reader) io.Reader {
	if !open || r == nil {
		return bytes.NewReader(nil)
	}
	return r
}

// sink is w, or a writer that discards when the controller asked for no
// such stream.
func sink(open bool, w io.Writer) io.Writer {
	if !open || w == nil {
		return io.Discard
	}
	return w
}
