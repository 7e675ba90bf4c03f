package lsp

import (
	"path/filepath"
	"sync"

	"github.com/bocdev/boc/driver"
	"github.com/bocdev/boc/dsl"
	"go.lsp.dev/protocol"
)

// unit is a check of one version of a document: the driver's unit, what
// hover, completion and navigation read.
type unit struct {
	doc *document
	*driver.Unit
}

// checker checks one document on a goroutine of its own, one version at a
// time: edits that arrive while a check runs are coalesced, and only the
// newest is checked next, so diagnostics follow typing however slow a
// check (a Go package loaded for a binding) and are never left stale.
type checker struct {
	publish func(*document, []protocol.Diagnostic)

	mu      sync.Mutex
	next    *document // the version to check next; nil when none waits
	running bool
	stopped bool
	done    *unit // the newest version checked
}

// schedule asks for d to be checked.
func (c *checker) schedule(d *document) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return
	}
	c.next = d
	if !c.running {
		c.running = true
		go c.run()
	}
}

func (c *checker) run() {
	for {
		c.mu.Lock()
		d := c.next
		c.next = nil
		if d == nil || c.stopped {
			c.running = false
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		u := check(d)
		c.mu.Lock()
		c.done = u
		stopped := c.stopped
		c.mu.Unlock()
		if !stopped {
			c.publish(d, u.diagnostics())
		}
	}
}

// last is the newest check done, nil before the first.
func (c *checker) last() *unit {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.done
}

func (c *checker) stop() {
	c.mu.Lock()
	c.stopped = true
	c.mu.Unlock()
}

// check runs the driver on the document's text, as `boc check` runs it on
// the file: Go bindings and candidate files resolve from its folder.
func check(d *document) *unit {
	return &unit{doc: d, Unit: driver.Compile(d.path, []byte(d.text), driver.Options{Dir: filepath.Dir(d.path)})}
}

// diagnostics are the unit's diagnostics as the editor shows them: each at
// its range, its hint on a line of its own after the message (and kept in
// Data for the quick fixes).
func (u *unit) diagnostics() []protocol.Diagnostic {
	out := []protocol.Diagnostic{}
	for _, d := range u.Diagnostics {
		out = append(out, u.doc.diagnostic(d))
	}
	return out
}

// diagnostic converts one of boc's diagnostics. One about another file
// (a candidates file) is shown at the top of this one, naming it.
func (d *document) diagnostic(diag dsl.Diagnostic) protocol.Diagnostic {
	severity := protocol.DiagnosticSeverityError
	if diag.Severity == dsl.Warning {
		severity = protocol.DiagnosticSeverityWarning
	}
	msg, span := diag.Message, diag.Span
	if f := diag.Span.Start.File; f != "" && f != d.path {
		msg, span = diag.Span.Start.String()+": "+msg, dsl.Span{}
	}
	out := protocol.Diagnostic{Range: d.rangeOf(span), Severity: severity, Source: "boc", Message: msg}
	if diag.Hint != "" {
		out.Message += "\nhint: " + diag.Hint
		out.Data = diagnosticData{Hint: diag.Hint}
	}
	return out
}

// diagnosticData is what a published diagnostic carries for the quick
// fixes.
type diagnosticData struct {
	Hint string `json:"hint"`
}
