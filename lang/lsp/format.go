package lsp

import (
	"bytes"
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/sievetool/sieve/lang/load"
)

// formatting formats the document as sieve fmt does (a .cue one too): one edit replacing
// the whole text, none when it is formatted already, and an error when it
// does not parse.
func (s *server) formatting(_ context.Context, raw json.RawMessage) (any, error) {
	_, doc, err := request[protocol.DocumentFormattingParams](s, raw)
	if err != nil {
		return nil, err
	}
	out, ds := load.Format(doc.path, doc.text.src)
	if ds.HasErrors() {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "format: %s does not parse: %s", doc.path, message(ds[0]))
	}
	if bytes.Equal(out, doc.text.src) {
		return []protocol.TextEdit{}, nil
	}
	return []protocol.TextEdit{{Range: doc.text.whole(), NewText: string(out)}}, nil
}
