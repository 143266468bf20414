package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/sievetool/sieve/lang/load"
)

// Options configure a server. The zero value loads specs as sieve check
// does without -I or SIEVE_PATH.
type Options struct {
	// Load is how specs are loaded for diagnostics and how imports are
	// resolved for go to definition: the same options sieve check takes.
	Load load.Options
	// StdDir is where go to definition writes the standard library's
	// files, read-only, for the editor to open: std/... has no file of its
	// own. Defaults to sieve/lsp-std in the user's cache directory.
	StdDir string
}

// Serve answers the requests read from in on out until the client sends
// exit, closes the stream or ctx ends. It returns nil after an orderly
// shutdown and exit.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(readWriteCloser{in, out}))
	if opts.StdDir == "" {
		opts.StdDir = defaultStdDir()
	}
	s := &server{conn: conn, opts: opts, std: &stdFiles{root: opts.StdDir}, docs: map[uri.URI]*document{}, published: map[uri.URI]map[uri.URI]bool{},
		dirty: map[uri.URI]bool{}, wake: make(chan struct{}, 1), exit: make(chan struct{})}
	checks, stop := context.WithCancel(ctx)
	defer stop()
	go s.checkLoop(checks)
	conn.Go(ctx, s.handle)
	defer conn.Close()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-s.exit:
	case <-conn.Done():
		if err := conn.Err(); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) {
			return fmt.Errorf("lsp: %w", err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.shutdown {
		return errors.New("lsp: the client left without asking for shutdown")
	}
	return nil
}

// readWriteCloser joins the two halves of the stream; closing it closes
// neither, as the server does not own them (stdin and stdout).
type readWriteCloser struct {
	io.Reader
	io.Writer
}

func (readWriteCloser) Close() error { return nil }

// server is one client's session: its open documents and what it was last
// told about each file's diagnostics.
type server struct {
	conn jsonrpc2.Conn
	opts Options
	std  *stdFiles // the standard library's files for go to definition

	mu        sync.Mutex
	roots     []string // the workspace's root folders, from initialize
	docs      map[uri.URI]*document
	published map[uri.URI]map[uri.URI]bool // per open document: the files it published diagnostics for
	dirty     map[uri.URI]bool             // documents changed since checkLoop took them
	wake      chan struct{}                // tells checkLoop of a change
	shutdown  bool
	exit      chan struct{} // closed by the exit notification
}

// handlers maps each request and notification the server answers to its
// method; any other request gets MethodNotFound, any other notification is
// ignored.
func (s *server) handlers() map[string]func(context.Context, json.RawMessage) (any, error) {
	return map[string]func(context.Context, json.RawMessage) (any, error){
		protocol.MethodInitialize:                 s.initialize,
		protocol.MethodInitialized:                noop,
		protocol.MethodShutdown:                   s.shutdownReq,
		protocol.MethodTextDocumentDidOpen:        s.didOpen,
		protocol.MethodTextDocumentDidChange:      s.didChange,
		protocol.MethodTextDocumentDidSave:        s.didSave,
		protocol.MethodTextDocumentDidClose:       s.didClose,
		protocol.MethodTextDocumentHover:          s.hover,
		protocol.MethodTextDocumentCompletion:     sieveOnly(s.completion, &protocol.CompletionList{Items: []protocol.CompletionItem{}}),
		protocol.MethodTextDocumentDefinition:     sieveOnly(s.definition, []protocol.Location{}),
		protocol.MethodTextDocumentReferences:     sieveOnly(s.references, []protocol.Location{}),
		protocol.MethodTextDocumentDocumentSymbol: sieveOnly(s.documentSymbol, []protocol.DocumentSymbol{}),
		protocol.MethodTextDocumentFormatting:     s.formatting,
		protocol.MethodTextDocumentCodeAction:     s.codeAction,
	}
}

// sieveOnly answers a request about a document that is not a .sieve file
// (a .cue spec, which gets diagnostics, hover and formatting only) with
// empty.
func sieveOnly(h func(context.Context, json.RawMessage) (any, error), empty any) func(context.Context, json.RawMessage) (any, error) {
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		id, err := decode[struct {
			TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
		}](raw)
		if path, ok := filePath(id.TextDocument.URI); err == nil && ok && filepath.Ext(path) != ".sieve" {
			return empty, nil
		}
		return h(ctx, raw)
	}
}

func noop(context.Context, json.RawMessage) (any, error) { return nil, nil }

func (s *server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	if req.Method() == protocol.MethodExit {
		close(s.exit)
		return nil
	}
	h, ok := s.handlers()[req.Method()]
	if !ok {
		if _, isCall := req.(*jsonrpc2.Call); isCall {
			return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", req.Method()))
		}
		return nil
	}
	res, err := safely(ctx, h, req.Params())
	if _, isCall := req.(*jsonrpc2.Call); !isCall {
		return nil
	}
	return reply(ctx, res, err)
}

// safely calls h, turning a panic into an error answer: a bug met on
// one request must not end the editor's session.
func safely(ctx context.Context, h func(context.Context, json.RawMessage) (any, error), params json.RawMessage) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error: %v", r)
		}
	}()
	return h(ctx, params)
}

// decode unmarshals a request's parameters.
func decode[T any](raw json.RawMessage) (*T, error) {
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid parameters: %v", err)
	}
	return &v, nil
}

func (s *server) initialize(_ context.Context, raw json.RawMessage) (any, error) {
	p, err := decode[protocol.InitializeParams](raw)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.roots = rootsOf(p)
	s.mu.Unlock()
	return protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindFull,
				Save:      &protocol.SaveOptions{},
			},
			HoverProvider:              true,
			CompletionProvider:         &protocol.CompletionOptions{TriggerCharacters: []string{"."}},
			DefinitionProvider:         true,
			ReferencesProvider:         true,
			DocumentSymbolProvider:     true,
			DocumentFormattingProvider: true,
			CodeActionProvider:         protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix}},
		},
		ServerInfo: &protocol.ServerInfo{Name: "sieve"},
	}, nil
}

func (s *server) shutdownReq(context.Context, json.RawMessage) (any, error) {
	s.mu.Lock()
	s.shutdown = true
	s.mu.Unlock()
	return nil, nil
}
