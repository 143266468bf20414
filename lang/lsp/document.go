package lsp

import (
	"context"
	"encoding/json"
	"net/url"
	"path/filepath"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/sievetool/sieve/lang/diag"
	"github.com/sievetool/sieve/lang/load"
)

// document is an open file: its text as the editor holds it and the
// diagnostics last found in it.
type document struct {
	uri     uri.URI
	path    string
	version int32
	text    *text
	diags   diag.Diagnostics // those whose subject is in this file
	crds    []string         // its controllers' CRD files at its last check that compiled (see schemas)
}

func (s *server) didOpen(ctx context.Context, raw json.RawMessage) (any, error) {
	p, err := decode[protocol.DidOpenTextDocumentParams](raw)
	if err != nil {
		return nil, err
	}
	s.setText(p.TextDocument.URI, p.TextDocument.Version, []byte(p.TextDocument.Text))
	return nil, nil
}

func (s *server) didChange(ctx context.Context, raw json.RawMessage) (any, error) {
	p, err := decode[protocol.DidChangeTextDocumentParams](raw)
	if err != nil || len(p.ContentChanges) == 0 {
		return nil, err
	}
	// Full synchronisation: the last change holds the whole text.
	s.setText(p.TextDocument.URI, p.TextDocument.Version, []byte(p.ContentChanges[len(p.ContentChanges)-1].Text))
	return nil, nil
}

// didSave checks every open document again: the saved file may be one
// they import, which their checks read from disk.
func (s *server) didSave(context.Context, json.RawMessage) (any, error) {
	s.mu.Lock()
	for u := range s.docs {
		s.dirty[u] = true
	}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
	return nil, nil
}

func (s *server) didClose(ctx context.Context, raw json.RawMessage) (any, error) {
	p, err := decode[protocol.DidCloseTextDocumentParams](raw)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	delete(s.docs, p.TextDocument.URI)
	stale := s.published[p.TextDocument.URI]
	delete(s.published, p.TextDocument.URI)
	s.mu.Unlock()
	for u := range stale {
		s.publish(ctx, u, 0, nil)
	}
	return nil, nil
}

// doc returns the open document at u, or nil.
func (s *server) doc(u uri.URI) *document {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[u]
}

// request decodes the parameters of a request about an open document,
// and finds the document; a document that is not open is an error.
func request[T any](s *server, raw json.RawMessage) (*T, *document, error) {
	p, err := decode[T](raw)
	if err != nil {
		return nil, nil, err
	}
	id, err := decode[struct {
		TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	}](raw)
	if err != nil {
		return nil, nil, err
	}
	if d := s.doc(id.TextDocument.URI); d != nil {
		return p, d, nil
	}
	return nil, nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "document not open: %s", id.TextDocument.URI)
}

// setText records the document's new text and has checkLoop check it.
// Until that check ends, the document keeps the diagnostics of its last.
func (s *server) setText(u uri.URI, version int32, src []byte) {
	path, ok := filePath(u)
	if !ok {
		return // not a file (an editor's untitled buffer): nothing to check it as
	}
	d := &document{uri: u, path: path, version: version, text: newText(src)}
	s.mu.Lock()
	if old := s.docs[u]; old != nil {
		d.diags, d.crds = old.diags, old.crds
	}
	s.docs[u] = d
	s.dirty[u] = true
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// checkLoop checks the documents that changed, each at its latest text,
// until ctx ends. Edits that arrive during a check are checked together
// after it, so a fast typist waits for one check, not one per keystroke.
func (s *server) checkLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		}
		for _, d := range s.takeDirty() {
			s.check(ctx, d)
		}
	}
}

// takeDirty returns the open documents that changed since they were last
// taken.
func (s *server) takeDirty() []*document {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*document
	for u := range s.dirty {
		if d := s.docs[u]; d != nil {
			out = append(out, d)
		}
	}
	clear(s.dirty)
	return out
}

// check loads d as sieve check would and publishes its diagnostics, per
// file, unless d changed or closed meanwhile (a newer check comes then).
func (s *server) check(ctx context.Context, d *document) {
	spec, ds := load.LoadSource(d.path, d.text.src, s.opts.Load)
	byFile := map[string]diag.Diagnostics{}
	for _, x := range ds {
		f := d.path
		if x.Subject != nil && x.Subject.Start.Filename != "" {
			f = x.Subject.Start.Filename
		}
		byFile[f] = append(byFile[f], x)
	}
	s.mu.Lock()
	if s.docs[d.uri] != d {
		s.mu.Unlock()
		return
	}
	checked := *d
	checked.diags = byFile[d.path]
	if spec != nil {
		checked.crds = specCRDs(spec)
	}
	s.docs[d.uri] = &checked
	before := s.published[d.uri]
	s.mu.Unlock()
	now := map[uri.URI]bool{d.uri: true}
	s.publish(ctx, d.uri, d.version, s.convert(d.text, checked.diags))
	for f, fds := range byFile {
		fu := uri.File(absPath(f))
		if f == d.path || s.doc(fu) != nil {
			continue // an open file's diagnostics are its own check's
		}
		if t := s.textOf(f); t != nil {
			now[fu] = true
			s.publish(ctx, fu, 0, s.convert(t, fds))
		}
	}
	for old := range before {
		if !now[old] {
			s.publish(ctx, old, 0, nil)
		}
	}
	s.mu.Lock()
	s.published[d.uri] = now
	s.mu.Unlock()
}

func (s *server) publish(ctx context.Context, u uri.URI, version int32, ds []protocol.Diagnostic) {
	if ds == nil {
		ds = []protocol.Diagnostic{}
	}
	_ = s.conn.Notify(ctx, protocol.MethodTextDocumentPublishDiagnostics, &protocol.PublishDiagnosticsParams{
		URI: u, Version: uint32(max(version, 0)), Diagnostics: ds,
	})
}

// textOf returns the text of a file named in a diagnostic: the editor's
// if it is open, else the file on disk; nil for the standard library,
// which has no file an editor could open.
func (s *server) textOf(filename string) *text {
	if !filepath.IsAbs(filename) && !fileExists(filename) {
		return nil
	}
	if d := s.doc(uri.File(absPath(filename))); d != nil {
		return d.text
	}
	if src, ok := load.Source(filename); ok {
		return newText(src)
	}
	return nil
}

// filePath is the path of a file: URI; ok is false for any other URI.
func filePath(u uri.URI) (string, bool) {
	x, err := url.Parse(string(u))
	if err != nil || x.Scheme != uri.FileScheme || x.Path == "" {
		return "", false
	}
	return filepath.Clean(filepath.FromSlash(x.Path)), true
}
