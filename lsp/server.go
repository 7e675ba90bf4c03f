// Package lsp is boc's language server (`boc lsp`): the .bo language in
// any editor that speaks the Language Server Protocol. It is a thin layer
// over the driver: every open buffer is parsed, checked and planned as
// `boc check` would the file, and the diagnostics are published with their
// ranges and hints; hover shows the registry's documentation, completion
// offers what the position accepts, formatting is `boc fmt`'s, and the
// checker's "did you mean" hints become quick fixes. docs/editors.md says
// how to use it from VS Code, Neovim and Helix.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Serve answers an editor on rwc (its standard input and output, joined)
// until the editor exits, the stream ends or ctx is cancelled. It returns
// nil after the protocol's shutdown and exit.
func Serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(rwc))
	s := newServer(conn)
	conn.Go(ctx, s.handle)
	select {
	case <-ctx.Done():
	case <-conn.Done():
	case <-s.exited:
	}
	conn.Close()
	s.stopChecks()
	select {
	case <-s.exited:
		if s.isShutDown() {
			return nil
		}
		return errors.New("the editor asked to exit without a shutdown first")
	default:
	}
	if err := conn.Err(); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) {
		return err
	}
	return errors.New("the editor ended the session without shutdown and exit")
}

// server is one editor's session.
type server struct {
	conn jsonrpc2.Conn

	mu       sync.Mutex
	docs     map[protocol.DocumentURI]*document
	checks   map[protocol.DocumentURI]*checker
	shutdown bool          // the editor asked for shutdown
	exited   chan struct{} // closed when it asks to exit
	exitOnce sync.Once
}

func newServer(conn jsonrpc2.Conn) *server {
	return &server{conn: conn, docs: map[protocol.DocumentURI]*document{}, checks: map[protocol.DocumentURI]*checker{}, exited: make(chan struct{})}
}

// handle answers one request or notification. Requests get an answer at
// once: the checks run on goroutines of their own (checker), so that a
// slow one (loading a Go package) never holds up typing. An error returned
// here ends the session (jsonrpc2 fails the stream), so only a failure to
// write an answer is returned: a request's own error is its answer, and a
// notification that cannot be read is dropped (it has no answer to carry
// an error).
func (s *server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) (err error) {
	defer func() {
		// A bug in one answer must not end the editor's session: the
		// request fails with the bug's message instead.
		if r := recover(); r != nil {
			err = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("boc lsp: %s failed: %v", req.Method(), r)))
		}
	}()
	params := req.Params()
	switch req.Method() {
	case protocol.MethodInitialize:
		return reply(ctx, initializeResult(), nil)
	case protocol.MethodInitialized:
		return nil
	case protocol.MethodShutdown:
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		return reply(ctx, nil, nil)
	case protocol.MethodExit:
		s.exitOnce.Do(func() { close(s.exited) })
		return nil
	case protocol.MethodTextDocumentDidOpen:
		var p protocol.DidOpenTextDocumentParams
		if decode(params, &p) == nil {
			s.open(p.TextDocument.URI, p.TextDocument.Version, p.TextDocument.Text)
		}
		return nil
	case protocol.MethodTextDocumentDidChange:
		var p protocol.DidChangeTextDocumentParams
		if decode(params, &p) == nil {
			s.change(p.TextDocument.URI, p.TextDocument.Version, p.ContentChanges)
		}
		return nil
	case protocol.MethodTextDocumentDidClose:
		var p protocol.DidCloseTextDocumentParams
		if decode(params, &p) == nil {
			s.close(ctx, p.TextDocument.URI)
		}
		return nil
	case protocol.MethodTextDocumentDidSave:
		return nil
	}
	result, err := s.request(req.Method(), params)
	if errors.Is(err, errUnknownMethod) {
		if _, isCall := req.(*jsonrpc2.Call); !isCall {
			return nil // an unknown notification ($/setTrace, …) needs nothing
		}
		return jsonrpc2.MethodNotFoundHandler(ctx, reply, req)
	}
	return reply(ctx, result, err)
}

var errUnknownMethod = errors.New("unknown method")

// request answers the requests about a document's contents.
func (s *server) request(method string, params json.RawMessage) (any, error) {
	switch method {
	case protocol.MethodTextDocumentHover:
		var p protocol.HoverParams
		return withDocument(s, params, &p, &p.TextDocument, func(d *document, u *unit) (any, error) { return hover(d, u, p.Position), nil })
	case protocol.MethodTextDocumentCompletion:
		var p protocol.CompletionParams
		return withDocument(s, params, &p, &p.TextDocument, func(d *document, u *unit) (any, error) { return complete(d, u, p.Position), nil })
	case protocol.MethodTextDocumentFormatting:
		var p protocol.DocumentFormattingParams
		return withDocument(s, params, &p, &p.TextDocument, func(d *document, _ *unit) (any, error) { return formatEdits(d), nil })
	case protocol.MethodTextDocumentDefinition:
		var p protocol.DefinitionParams
		return withDocument(s, params, &p, &p.TextDocument, func(d *document, u *unit) (any, error) { return definition(d, u, p.Position), nil })
	case protocol.MethodTextDocumentReferences:
		var p protocol.ReferenceParams
		return withDocument(s, params, &p, &p.TextDocument, func(d *document, u *unit) (any, error) {
			return references(d, u, p.Position, p.Context.IncludeDeclaration), nil
		})
	case protocol.MethodTextDocumentDocumentSymbol:
		var p protocol.DocumentSymbolParams
		return withDocument(s, params, &p, &p.TextDocument, func(d *document, u *unit) (any, error) { return symbols(d, u), nil })
	case protocol.MethodTextDocumentCodeAction:
		var p protocol.CodeActionParams
		return withDocument(s, params, &p, &p.TextDocument, func(d *document, _ *unit) (any, error) { return codeActions(d, p.Context.Diagnostics), nil })
	}
	return nil, errUnknownMethod
}

// withDocument decodes params into p, whose document id is doc, and
// answers with fn on that document as it is now and its last check.
func withDocument(s *server, params json.RawMessage, p any, doc *protocol.TextDocumentIdentifier, fn func(*document, *unit) (any, error)) (any, error) {
	if err := decode(params, p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	d, c := s.docs[doc.URI], s.checks[doc.URI]
	s.mu.Unlock()
	if d == nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "the document "+string(doc.URI)+" is not open")
	}
	return fn(d, c.last())
}

func decode(params json.RawMessage, v any) error {
	if err := json.Unmarshal(params, v); err != nil {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	return nil
}

// initializeResult advertises what the server does: whole documents are
// sent on every change.
func initializeResult() *protocol.InitializeResult {
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindFull,
			},
			HoverProvider:              true,
			CompletionProvider:         &protocol.CompletionOptions{TriggerCharacters: []string{"(", ",", "=", "~"}},
			DocumentFormattingProvider: true,
			DefinitionProvider:         true,
			ReferencesProvider:         true,
			DocumentSymbolProvider:     true,
			CodeActionProvider:         &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix}},
		},
		ServerInfo: &protocol.ServerInfo{Name: "boc"},
	}
}

// open starts following a document and checks it.
func (s *server) open(u protocol.DocumentURI, version int32, text string) {
	d := newDocument(u, version, text)
	s.mu.Lock()
	s.docs[u] = d
	c := s.checks[u]
	if c == nil {
		c = &checker{publish: s.publish}
		s.checks[u] = c
	}
	s.mu.Unlock()
	c.schedule(d)
}

// change applies an edit: the whole text (full sync), or ranges of it
// when an editor sends them anyway.
func (s *server) change(u protocol.DocumentURI, version int32, changes []protocol.TextDocumentContentChangeEvent) {
	s.mu.Lock()
	old := s.docs[u]
	s.mu.Unlock()
	if old == nil {
		return
	}
	text := old.text
	for _, ch := range changes {
		if ch.Range == (protocol.Range{}) && ch.RangeLength == 0 {
			text = ch.Text
			continue
		}
		d := &document{}
		d.setText(text)
		start, end := d.offset(ch.Range.Start), d.offset(ch.Range.End)
		text = text[:start] + ch.Text + text[max(end, start):]
	}
	s.open(u, version, text)
}

// close stops following a document and clears its diagnostics.
func (s *server) close(ctx context.Context, u protocol.DocumentURI) {
	s.mu.Lock()
	c := s.checks[u]
	delete(s.docs, u)
	delete(s.checks, u)
	s.mu.Unlock()
	if c != nil {
		c.stop()
	}
	s.conn.Notify(ctx, protocol.MethodTextDocumentPublishDiagnostics, &protocol.PublishDiagnosticsParams{URI: u, Diagnostics: []protocol.Diagnostic{}})
}

// publish sends a check's diagnostics, unless the document changed or
// closed meanwhile: a newer check then publishes its own.
func (s *server) publish(d *document, diags []protocol.Diagnostic) {
	s.mu.Lock()
	current := s.docs[d.uri] == d
	s.mu.Unlock()
	if !current {
		return
	}
	version := uint32(d.version)
	s.conn.Notify(context.Background(), protocol.MethodTextDocumentPublishDiagnostics,
		&protocol.PublishDiagnosticsParams{URI: d.uri, Version: version, Diagnostics: diags})
}

func (s *server) stopChecks() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.checks {
		c.stop()
	}
}

func (s *server) isShutDown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shutdown
}
