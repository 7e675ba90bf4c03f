package lsp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/bocdev/boc/cli"
	"github.com/bocdev/boc/lsp"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// editor is the test's side of a session: it talks to a server over a
// pipe as an editor does, and collects what the server publishes.
type editor struct {
	t      testing.TB
	conn   jsonrpc2.Conn
	served chan error

	mu        sync.Mutex
	published map[protocol.DocumentURI][]protocol.PublishDiagnosticsParams
	changed   chan struct{} // signalled at every publish
	versions  map[protocol.DocumentURI]int32
}

// startEditor starts a server and initialises it.
func startEditor(t testing.TB) *editor {
	t.Helper()
	server, client := net.Pipe()
	e := &editor{t: t, served: make(chan error, 1), published: map[protocol.DocumentURI][]protocol.PublishDiagnosticsParams{},
		changed: make(chan struct{}, 1), versions: map[protocol.DocumentURI]int32{}}
	go func() { e.served <- lsp.Serve(context.Background(), server) }()
	e.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(client))
	e.conn.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == protocol.MethodTextDocumentPublishDiagnostics {
			var p protocol.PublishDiagnosticsParams
			if err := json.Unmarshal(req.Params(), &p); err != nil {
				t.Error(err)
			}
			e.mu.Lock()
			e.published[p.URI] = append(e.published[p.URI], p)
			e.mu.Unlock()
			select {
			case e.changed <- struct{}{}:
			default:
			}
		}
		return reply(ctx, nil, nil)
	})
	var result protocol.InitializeResult
	e.call(protocol.MethodInitialize, &protocol.InitializeParams{}, &result)
	if result.Capabilities.HoverProvider != true {
		t.Fatalf("initialize: %+v", result.Capabilities)
	}
	e.notify(protocol.MethodInitialized, &protocol.InitializedParams{})
	t.Cleanup(func() { e.conn.Close() })
	return e
}

func (e *editor) call(method string, params, result any) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := e.conn.Call(ctx, method, params, result); err != nil {
		e.t.Fatalf("%s: %v", method, err)
	}
}

func (e *editor) notify(method string, params any) {
	e.t.Helper()
	if err := e.conn.Notify(context.Background(), method, params); err != nil {
		e.t.Fatalf("%s: %v", method, err)
	}
}

// forget drops what was published so far.
func (e *editor) forget() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for u, list := range e.published {
		e.published[u] = list[len(list)-1:]
	}
}

// open opens a document at path with text and returns its URI.
func (e *editor) open(path, text string) protocol.DocumentURI {
	u := protocol.DocumentURI(uri.File(path))
	e.mu.Lock()
	e.versions[u] = 1
	e.mu.Unlock()
	e.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, LanguageID: "bo", Version: 1, Text: text}})
	return u
}

// edit replaces the document's text, as an editor in full sync does.
func (e *editor) edit(u protocol.DocumentURI, text string) {
	e.mu.Lock()
	e.versions[u]++
	v := e.versions[u]
	e.mu.Unlock()
	e.notify(protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: v},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{{Text: text}}})
}

// diagnostics waits for the diagnostics of the document's newest version.
func (e *editor) diagnostics(u protocol.DocumentURI) []protocol.Diagnostic {
	e.t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		e.mu.Lock()
		want := uint32(e.versions[u])
		list := e.published[u]
		e.mu.Unlock()
		if n := len(list); n > 0 && list[n-1].Version == want {
			return list[n-1].Diagnostics
		}
		select {
		case <-e.changed:
		case <-deadline:
			e.t.Fatalf("no diagnostics for version %d of %s in 30 s", want, u)
		}
	}
}

// checkLine is one diagnostic as `boc check` prints it.
var checkLine = regexp.MustCompile(`^(.+):(\d+):(\d+): (error|warning): (.*)$`)

// checked runs `boc check` on path and returns its diagnostics as
// "LINE:COL: severity: message[\nhint: HINT]", in order.
func checked(t testing.TB, path string) []string {
	var out, errs bytes.Buffer
	cli.Run([]string{"check", path}, nil, &out, &errs)
	var diags []string
	for _, line := range strings.Split(errs.String(), "\n") {
		if m := checkLine.FindStringSubmatch(line); m != nil && m[1] == path {
			diags = append(diags, m[2]+":"+m[3]+": "+m[4]+": "+m[5])
		} else if hint, ok := strings.CutPrefix(strings.TrimSpace(line), "hint: "); ok && len(diags) > 0 {
			diags[len(diags)-1] += "\nhint: " + hint
		}
	}
	return diags
}

// shown is what the editor shows of published diagnostics, in the form
// checked gives: ASCII files, so that a UTF-16 column is a byte column.
func shown(diags []protocol.Diagnostic) []string {
	var out []string
	for _, d := range diags {
		severity := "error"
		if d.Severity == protocol.DiagnosticSeverityWarning {
			severity = "warning"
		}
		out = append(out, fmt.Sprintf("%d:%d: %s: %s", d.Range.Start.Line+1, d.Range.Start.Character+1, severity, d.Message))
	}
	return out
}

// TestDiagnosticsAsCheck: for every file of the checker's and the
// parser's error cases, and every example, the server publishes exactly
// what `boc check` prints: the same positions, messages and hints.
func TestDiagnosticsAsCheck(t *testing.T) {
	var paths []string
	for _, pattern := range []string{"../typecheck/testdata/errors/*.bo", "../parser/testdata/*.bo", "../examples/*.bo"} {
		found, err := filepath.Glob(pattern)
		if err != nil || len(found) == 0 {
			t.Fatalf("%s: %v", pattern, err)
		}
		paths = append(paths, found...)
	}
	e := startEditor(t)
	for _, path := range paths {
		abs, err := filepath.Abs(path)
		if err != nil {
			t.Fatal(err)
		}
		text, err := os.ReadFile(abs)
		if err != nil {
			t.Fatal(err)
		}
		want := checked(t, abs)
		got := shown(e.diagnostics(e.open(abs, string(text))))
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: the server publishes\n%s\nboc check prints\n%s", path, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

const quickstart = `problem q

domain {
    x1 in [-5, 10]
    x2 in [0, 15]
    tool in {"drill", "mill"}
}

let scale = 2

objective minimize branin(x1, x2) * scale

model gp(kernel = matern52(lengthscale = learn))
acquisition ei
init sobol(6)
budget 30
`

// TestFixedErrorsAreCleared: an error typed is published, and cleared once
// it is fixed; closing the document clears its diagnostics.
func TestFixedErrorsAreCleared(t *testing.T) {
	e := startEditor(t)
	path := filepath.Join(t.TempDir(), "q.bo")
	u := e.open(path, quickstart)
	if d := e.diagnostics(u); len(d) != 0 {
		t.Fatalf("the file has diagnostics: %v", shown(d))
	}
	e.edit(u, strings.Replace(quickstart, "acquisition ei", "acquisition eii", 1))
	d := e.diagnostics(u)
	if len(d) != 1 || !strings.Contains(d[0].Message, `did you mean "ei"?`) || d[0].Range.Start.Line != 13 {
		t.Fatalf("after a typo: %v", shown(d))
	}
	e.edit(u, quickstart)
	if d := e.diagnostics(u); len(d) != 0 {
		t.Errorf("after the fix: %v", shown(d))
	}
	e.notify(protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	deadline := time.After(10 * time.Second)
	for {
		e.mu.Lock()
		list := e.published[u]
		e.mu.Unlock()
		if last := list[len(list)-1]; len(list) > 3 && len(last.Diagnostics) == 0 && last.Version == 0 {
			break
		}
		select {
		case <-e.changed:
		case <-deadline:
			t.Fatal("closing the document published nothing")
		}
	}
}

// position is the editor's position of the first occurrence of marker in
// text, plus delta characters.
func position(t *testing.T, text, marker string, delta int) protocol.Position {
	i := strings.Index(text, marker)
	if i < 0 {
		t.Fatalf("no %q", marker)
	}
	i += delta
	line := strings.Count(text[:i], "\n")
	return protocol.Position{Line: uint32(line), Character: uint32(i - strings.LastIndex(text[:i], "\n") - 1)}
}

// TestHover: a plugin's documentation as list-plugins prints it, judged
// by its place; a domain variable's type; a let; a keyword.
func TestHover(t *testing.T) {
	e := startEditor(t)
	path := filepath.Join(t.TempDir(), "q.bo")
	u := e.open(path, quickstart)
	if d := e.diagnostics(u); len(d) != 0 {
		t.Fatal(shown(d))
	}
	for _, tc := range []struct {
		marker string
		delta  int
		want   []string
	}{
		{"matern52", 2, []string{"kernel matern52", "lengthscale", "learnable"}},
		{"acquisition ei", 12, []string{"acquisition ei", "expected improvement"}},
		{"gp(", 0, []string{"model gp", "kernel"}},
		{"sobol(6)", 1, []string{"init sobol"}},
		{"branin(x1", 11, []string{"x2: real in [0, 15]"}},
		{"tool in", 0, []string{`tool: one of {"drill", "mill"}`}},
		{"* scale", 3, []string{"let scale = 2"}},
		{"budget", 1, []string{"`budget`: `budget N`"}},
		{"branin(", 0, []string{"benchmark branin"}},
		{"sobol(10", 1, []string{"candidates sobol"}}, // last: the file no longer checks
	} {
		text := quickstart
		if !strings.Contains(text, tc.marker) {
			text += "candidates " + tc.marker + ")\n" // a candidates generator, in a file that does not check
			e.edit(u, text)
			e.diagnostics(u)
		}
		var h protocol.Hover
		e.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: position(t, text, tc.marker, tc.delta)}}, &h)
		for _, want := range tc.want {
			if !strings.Contains(strings.ToLower(h.Contents.Value), strings.ToLower(want)) {
				t.Errorf("hover on %q: %q, want %q", tc.marker, h.Contents.Value, want)
			}
		}
	}
}

// TestCompletion: what each position accepts.
func TestCompletion(t *testing.T) {
	e := startEditor(t)
	path := filepath.Join(t.TempDir(), "q.bo")
	u := e.open(path, quickstart)
	e.diagnostics(u)
	for _, tc := range []struct {
		name, text, marker string
		delta              int
		want, not          []string
	}{
		{"after acquisition", "acquisition ei", "acquisition ei", 12, []string{"ei", "kg", "nei", "ucb"}, []string{"gp", "matern52"}},
		{"after model", "model gp(", "model gp(", 6, []string{"gp", "ugp", "mmd"}, []string{"ei"}},
		{"after kernel =", "model gp(kernel = matern52", "kernel = ", 9, []string{"matern52", "se", "rq"}, []string{"gp", "ei"}},
		{"a call's parameters", "model gp(kernel = matern52(", "matern52(", 9, []string{"lengthscale", "variance"}, []string{"matern52"}},
		{"the model's parameters", "model gp(", "gp(", 3, []string{"kernel"}, []string{"lengthscale"}},
		{"after init", "init sobol(6)", "init sobol", 5, []string{"sobol", "lhs", "random"}, []string{"grid"}},
		{"a line's start", "\n\n", "\n\n", 1, []string{"domain", "objective", "acquisition", "budget"}, []string{"x1"}},
		{"an expression", "minimize branin(", "branin(", 7, []string{"x1", "x2", "tool", "scale", `"drill"`, "exp", "hartmann6"}, []string{"acquisition"}},
		{"a distribution", "input noise { x1 ~ normal(0, 1) }", "~ ", 2, []string{"normal", "uniform"}, []string{"gp"}},
	} {
		text := quickstart
		if !strings.Contains(text, tc.text) {
			text += tc.text + "\n"
		}
		e.edit(u, text)
		var list protocol.CompletionList
		e.call(protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: position(t, text, tc.marker, tc.delta)}}, &list)
		labels := map[string]bool{}
		for _, item := range list.Items {
			labels[item.Label] = true
		}
		for _, w := range tc.want {
			if !labels[w] {
				t.Errorf("%s: no %q among %d items", tc.name, w, len(labels))
			}
		}
		for _, w := range tc.not {
			if labels[w] {
				t.Errorf("%s: %q offered", tc.name, w)
			}
		}
	}
}

// TestFormattingNavigationAndFixes: formatting is boc fmt's text; a let's
// definition and references; the outline; a "did you mean" quick fix.
func TestFormattingNavigationAndFixes(t *testing.T) {
	e := startEditor(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "q.bo")
	messy := strings.ReplaceAll(strings.ReplaceAll(quickstart, "    ", "  "), "budget 30", "budget   30")
	u := e.open(path, messy)
	e.diagnostics(u)
	var edits []protocol.TextEdit
	e.call(protocol.MethodTextDocumentFormatting, &protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &edits)
	os.WriteFile(path, []byte(messy), 0o644)
	var out, errs bytes.Buffer
	cli.Run([]string{"fmt", path}, nil, &out, &errs)
	if len(edits) != 1 || edits[0].NewText != out.String() || edits[0].Range.Start != (protocol.Position{}) {
		t.Errorf("formatting: %v, want boc fmt's\n%s", edits, out.String())
	}

	e.edit(u, quickstart)
	e.diagnostics(u)
	at := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: position(t, quickstart, "* scale", 3)}
	var defs []protocol.Location
	e.call(protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: at}, &defs)
	if len(defs) != 1 || defs[0].Range.Start != position(t, quickstart, "scale = 2", 0) {
		t.Errorf("definition of scale: %v", defs)
	}
	var refs []protocol.Location
	e.call(protocol.MethodTextDocumentReferences, &protocol.ReferenceParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: at.TextDocument, Position: position(t, quickstart, "x1 in", 0)}, Context: protocol.ReferenceContext{IncludeDeclaration: true}}, &refs)
	if len(refs) != 2 || refs[1].Range.Start != position(t, quickstart, "x1, x2", 0) {
		t.Errorf("references of x1: %v", refs)
	}
	var outline []protocol.DocumentSymbol
	e.call(protocol.MethodTextDocumentDocumentSymbol, &protocol.DocumentSymbolParams{TextDocument: at.TextDocument}, &outline)
	var names []string
	for _, s := range outline {
		names = append(names, s.Name)
		for _, c := range s.Children {
			names = append(names, "  "+c.Name)
		}
	}
	if got := strings.Join(names, "|"); got != "problem q|domain|  x1|  x2|  tool|scale|objective|model|acquisition|init|budget" {
		t.Errorf("outline: %s", got)
	}

	for _, tc := range []struct{ from, to, typo, fix string }{
		{"matern52(", "matern25(", "matern25", "matern52"},                          // a plugin
		{"acquisition ei", "aquisition ei", "aquisition", "acquisition"},            // a keyword, hinted by the parser
		{"branin(x1, x2)", "branin(x1, x3)", "x3", "x1"},                            // a variable
		{"* scale", `* scale + (if tool == "dril" then 1 else 0)`, "dril", "drill"}, // a level
	} {
		typo := strings.Replace(quickstart, tc.from, tc.to, 1)
		e.edit(u, typo)
		diags := e.diagnostics(u)
		if len(diags) == 0 {
			t.Fatalf("%s: no diagnostic", tc.typo)
		}
		var actions []protocol.CodeAction
		e.call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: at.TextDocument, Range: diags[0].Range,
			Context: protocol.CodeActionContext{Diagnostics: diags[:1]}}, &actions)
		if len(actions) != 1 || actions[0].Title != "Change to "+tc.fix {
			t.Errorf("quick fixes of %v: %+v", shown(diags), actions)
			continue
		}
		edit := actions[0].Edit.Changes[u][0]
		before := typo[:strings.LastIndex(typo, tc.typo)] // the typo is the last occurrence of its text
		if edit.Range.Start != position(t, typo, before, len(before)) || edit.Range.End != position(t, typo, before, len(before)+len(tc.typo)) || edit.NewText != tc.fix {
			t.Errorf("the fix of %s: %+v", tc.typo, edit)
		}
	}
}

// TestShutdown: after shutdown and exit the server ends cleanly; an exit
// without a shutdown is an error, as the protocol says.
func TestShutdown(t *testing.T) {
	for _, shutdown := range []bool{true, false} {
		e := startEditor(t)
		if shutdown {
			e.call(protocol.MethodShutdown, nil, nil)
		}
		e.notify(protocol.MethodExit, nil)
		select {
		case err := <-e.served:
			if (err == nil) != shutdown {
				t.Errorf("shutdown %v: Serve returned %v", shutdown, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the server did not end")
		}
	}
}

// FuzzEdits types random edits into an example quickly, without
// waiting: the server never fails, and the diagnostics it publishes last
// are those of the last text (never stale). go test runs the seeds below;
// go test -fuzz FuzzEdits ./lsp looks for more.
func FuzzEdits(f *testing.F) {
	base, err := os.ReadFile("../examples/constrained.bo")
	if err != nil {
		f.Fatal(err)
	}
	for seed := range uint64(3) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		e := startEditor(t)
		path := filepath.Join(t.TempDir(), "c.bo")
		u := e.open(path, string(base))
		text := string(base)
		state := seed
		random := func(n int) int {
			state = state*6364136223846793005 + 1442695040888963407
			return int(state>>33) % n
		}
		pieces := []string{"(", ")", "{", "}", "\n", " ", "x", "ei", "[0, 1]", "\"", "~", "=", "//", "1e", "é"}
		for range 60 {
			i := random(len(text) + 1)
			if random(2) == 0 && len(text) > 0 {
				text = text[:i] + text[min(len(text), i+random(8)):]
			} else {
				text = text[:i] + pieces[random(len(pieces))] + text[i:]
			}
			text = strings.ToValidUTF8(text, "")
			e.edit(u, text)
		}
		got := shown(e.diagnostics(u))
		os.WriteFile(path, []byte(text), 0o644)
		if want := inUTF16(text, checked(t, path)); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("published\n%s\nboc check\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

// inUTF16 converts the byte columns of checked's diagnostics of text
// into the UTF-16 columns an editor counts.
func inUTF16(text string, diags []string) []string {
	lines := strings.Split(text, "\n")
	out := make([]string, len(diags))
	for i, d := range diags {
		var line, col int
		fmt.Sscanf(d, "%d:%d:", &line, &col)
		rest := d[strings.Index(d, ": "):]
		if line >= 1 && line <= len(lines) && col-1 <= len(lines[line-1]) {
			col = len(utf16.Encode([]rune(lines[line-1][:col-1]))) + 1
		}
		out[i] = fmt.Sprintf("%d:%d%s", line, col, rest)
	}
	return out
}

// TestBocLSP: `boc lsp` serves on its standard input and output, and ends
// with exit status 0 after shutdown and exit.
func TestBocLSP(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	code := make(chan int, 1)
	var errs bytes.Buffer
	go func() { code <- cli.Run([]string{"lsp"}, inR, outW, &errs) }()
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(pipe{outR, inW}))
	conn.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, _ jsonrpc2.Request) error {
		return reply(ctx, nil, nil)
	})
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var result protocol.InitializeResult
	if _, err := conn.Call(ctx, protocol.MethodInitialize, &protocol.InitializeParams{}, &result); err != nil || result.ServerInfo.Name != "boc" {
		t.Fatalf("initialize: %v %+v", err, result.ServerInfo)
	}
	if _, err := conn.Call(ctx, protocol.MethodShutdown, nil, nil); err != nil {
		t.Fatal(err)
	}
	conn.Notify(ctx, protocol.MethodExit, nil)
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("boc lsp exited %d: %s", c, errs.String())
		}
	case <-ctx.Done():
		t.Fatal("boc lsp did not end after exit")
	}
}

// pipe joins the two ends the test holds of boc lsp's standard streams.
type pipe struct {
	io.Reader
	io.WriteCloser
}

// TestPositionsBeyondTheText: requests at positions past the end of the
// text (an editor a keystroke ahead) answer without failing.
func TestPositionsBeyondTheText(t *testing.T) {
	e := startEditor(t)
	u := e.open(filepath.Join(t.TempDir(), "q.bo"), quickstart)
	e.diagnostics(u)
	far := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: 999, Character: 999}}
	var list protocol.CompletionList
	e.call(protocol.MethodTextDocumentCompletion, &protocol.CompletionParams{TextDocumentPositionParams: far}, &list)
	var h *protocol.Hover
	e.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: far}, &h)
	var defs []protocol.Location
	e.call(protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: far}, &defs)
	if len(list.Items) == 0 || h != nil || len(defs) != 0 {
		t.Errorf("beyond the text: %d items, hover %v, definitions %v", len(list.Items), h, defs)
	}
}

// TestBadNotificationsKeepTheSession: a notification whose parameters
// cannot be read is dropped, and the session goes on.
func TestBadNotificationsKeepTheSession(t *testing.T) {
	e := startEditor(t)
	e.notify(protocol.MethodTextDocumentDidOpen, map[string]any{"textDocument": 42})
	e.notify(protocol.MethodTextDocumentDidChange, "not an object")
	u := e.open(filepath.Join(t.TempDir(), "q.bo"), quickstart)
	if d := e.diagnostics(u); len(d) != 0 {
		t.Errorf("after bad notifications: %v", shown(d))
	}
}
