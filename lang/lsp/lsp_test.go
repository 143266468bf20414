package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/sievetool/sieve/internal/golden"
)

// TestProtocol runs each archive of testdata: its files are written to a
// directory, the spec (spec.sieve, or spec.cue in an archive without one)
// is opened, with the text of the archive's editor file if it has one
// (what the editor holds, unsaved), the request is sent, and the response
// (out/response) and the diagnostics published for the spec
// (out/diagnostics) are compared with the archive's, with the directory
// written $DIR and the standard library's copy for the editor $STD. The
// directory is the workspace's one folder. A
// request's params get textDocument (the spec) unless
// they name one.
func TestProtocol(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no testdata/*.txtar")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, file, ar, runArchive(t, ar))
		})
	}
}

func runArchive(t *testing.T, ar *txtar.Archive) map[string][]byte {
	dir := t.TempDir()
	spec, editor := filepath.Join(dir, "spec.sieve"), []byte(nil)
	var req struct {
		Method string         `json:"method"`
		Params map[string]any `json:"params"`
	}
	for _, f := range ar.Files {
		switch {
		case f.Name == "request":
			if err := json.Unmarshal(f.Data, &req); err != nil {
				t.Fatalf("request: %v", err)
			}
		case f.Name == "editor":
			editor = f.Data
		case !strings.HasPrefix(f.Name, "out/"):
			writeFile(t, filepath.Join(dir, f.Name), f.Data)
		}
	}
	if !fileExists(spec) {
		spec = filepath.Join(dir, "spec.cue")
	}
	stdDir := filepath.Join(t.TempDir(), "std")
	c := startClient(t, Options{StdDir: stdDir}, dir)
	if editor == nil {
		c.open(t, spec)
	} else {
		c.change(t, protocol.MethodTextDocumentDidOpen, spec, 1, editor)
	}
	if req.Params == nil {
		req.Params = map[string]any{}
	}
	if _, ok := req.Params["textDocument"]; !ok {
		req.Params["textDocument"] = map[string]any{"uri": uri.File(spec)}
	}
	res, err := c.call(req.Method, req.Params)
	if err != nil {
		res = []byte(`{"error": ` + strconvQuote(err.Error()) + `}`)
	}
	std, err := writeStd(stdDir)
	if err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{
		"out/response":    indent(t, res, map[string]string{std: "$STD", dir: "$DIR"}),
		"out/diagnostics": indent(t, c.diagnostics(uri.File(spec)), map[string]string{dir: "$DIR"}),
	}
}

// client is the editor's end of a session with a server.
type client struct {
	conn jsonrpc2.Conn
	mu   sync.Mutex
	diag map[uri.URI]json.RawMessage // the last diagnostics published per file
	pubs map[uri.URI]int             // how many publications each file had
	// versions are the document versions of each file's publications.
	versions map[uri.URI][]int32
}

// startClient starts a server on a pipe and initializes it with roots as
// the workspace's folders; the session ends with the test.
func startClient(t testing.TB, opts Options, roots ...string) *client {
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, sr, sw, opts) }()
	c := &client{conn: jsonrpc2.NewConn(jsonrpc2.NewStream(readWriteCloser{cr, cw})), diag: map[uri.URI]json.RawMessage{}, pubs: map[uri.URI]int{}, versions: map[uri.URI][]int32{}}
	c.conn.Go(ctx, c.handle)
	t.Cleanup(func() {
		c.call(protocol.MethodShutdown, nil)
		c.conn.Notify(ctx, protocol.MethodExit, nil)
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		cancel()
		cr.Close()
		sr.Close()
	})
	var init protocol.InitializeParams
	for _, r := range roots {
		init.WorkspaceFolders = append(init.WorkspaceFolders, protocol.WorkspaceFolder{URI: string(uri.File(r)), Name: filepath.Base(r)})
	}
	if _, err := c.call(protocol.MethodInitialize, init); err != nil {
		t.Fatal(err)
	}
	return c
}

func (c *client) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	if req.Method() == protocol.MethodTextDocumentPublishDiagnostics {
		var p struct {
			URI         uri.URI         `json:"uri"`
			Version     int32           `json:"version"`
			Diagnostics json.RawMessage `json:"diagnostics"`
		}
		if err := json.Unmarshal(req.Params(), &p); err == nil {
			c.mu.Lock()
			c.diag[p.URI] = p.Diagnostics
			c.pubs[p.URI]++
			c.versions[p.URI] = append(c.versions[p.URI], p.Version)
			c.mu.Unlock()
		}
	}
	return reply(ctx, nil, nil)
}

func (c *client) call(method string, params any) (json.RawMessage, error) {
	var res json.RawMessage
	_, err := c.conn.Call(context.Background(), method, params, &res)
	return res, err
}

// open sends didOpen with the file's text, then waits for its
// diagnostics.
func (c *client) open(t testing.TB, path string) {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c.change(t, protocol.MethodTextDocumentDidOpen, path, 1, src)
}

// change sends didOpen or didChange with the full text, and waits for the
// file's next diagnostics.
func (c *client) change(t testing.TB, method, path string, version int32, src []byte) {
	var params any = protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: uri.File(path), LanguageID: "sieve", Version: version, Text: string(src)}}
	if method == protocol.MethodTextDocumentDidChange {
		params = protocol.DidChangeTextDocumentParams{
			TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri.File(path)}, Version: version},
			ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: string(src)}},
		}
	}
	n := c.published(uri.File(path))
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); c.published(uri.File(path)) == n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: no diagnostics after a minute", path)
		}
	}
}

// published is how many times the server published diagnostics for u.
func (c *client) published(u uri.URI) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pubs[u]
}

func (c *client) diagnostics(u uri.URI) json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.diag[u]
}

// indent indents raw, with each directory of dirs written as its name
// there, in paths and in file: URIs.
func indent(t *testing.T, raw json.RawMessage, dirs map[string]string) []byte {
	if len(raw) == 0 {
		return []byte("(none)\n")
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	out := b.String()
	for dir, name := range dirs {
		out = strings.ReplaceAll(out, string(uri.File(dir)), "file://"+name)
		out = strings.ReplaceAll(out, dir, name)
	}
	return []byte(out + "\n")
}

func writeFile(t *testing.T, path string, data []byte) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
