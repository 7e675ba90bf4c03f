package program

import (
	"bytes"
	"crypto/subtle"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/bocdev/boc/runtime/journal"
)

// server answers serve's HTTP API and lab page. Every request that reads
// or changes the study is a transaction on the journal, as ask, tell and
// status are on the command line: the server keeps only a replay of the
// study for the next request, which it drops as soon as the journal has
// something it did not write.
type server struct {
	p           Problem
	journalName string
	token       string
	// cookie names the cookie that keeps the token: one per port, since a
	// browser sends a host's cookies to each of its ports.
	cookie string
	mux    *http.ServeMux

	mu   sync.Mutex // guards live, whose store is not safe for concurrent use, and statusCache
	live liveStudy
	// statusCache is the status at version statusVersion, the study's
	// event count when it was made.
	statusCache   []byte
	statusVersion int

	changes changes
	// closing is closed when the server shuts down, to end the event
	// streams, which never go idle by themselves.
	closing     chan struct{}
	closingOnce sync.Once
}

// maxRequestBody bounds a request's body, in bytes.
const maxRequestBody = 64 << 10

//go:embed lab.html
var labPage []byte

// newServer serves study f.study of store, opening it (a first
// transaction, which refuses a study another problem made).
func newServer(p Problem, store journal.Store, f studyFlags, token string, addr net.Addr) (*server, error) {
	_, port, _ := net.SplitHostPort(addr.String())
	s := &server{p: p, journalName: f.journal, token: token, cookie: "boc-token-" + port,
		live: liveStudy{p: p, store: store, name: f.study}, closing: make(chan struct{})}
	s.changes.changed = make(chan struct{})
	if err := s.transact(func(*study) ([]journal.Event, error) { return nil, nil }); err != nil {
		return nil, err
	}
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET /{$}", s.page)
	for _, r := range s.routes() {
		s.mux.HandleFunc(r.method+" "+r.path, r.handler)
	}
	return s, nil
}

// route is an endpoint of the API (docs/serve.openapi.json describes each).
type route struct {
	method, path string
	handler      http.HandlerFunc
}

func (s *server) routes() []route {
	return []route{
		{"POST", "/api/ask", s.api(s.ask)},
		{"POST", "/api/tell", s.api(s.tell)},
		{"GET", "/api/status", s.api(s.statusInfo)},
		{"GET", "/api/events", s.events},
		{"GET", "/api/report", s.report},
		{"GET", "/api/problem", s.api(s.problemInfo)},
		{"GET", "/api/charts", s.api(s.charts)},
	}
}

// ServeHTTP checks the token of every API request before routing it.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	if strings.HasPrefix(r.URL.Path, "/api/") {
		if code, msg := s.authorise(r); code != 0 {
			writeJSONError(w, code, msg)
			return
		}
	}
	s.mux.ServeHTTP(w, r)
}

// authorise returns 0 when r carries the token, in its Authorization
// header (Bearer) or in the page's cookie; else the status to answer
// (401 without a token, 403 with another) and why.
func (s *server) authorise(r *http.Request) (int, string) {
	token, bearer := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !bearer {
		if c, err := r.Cookie(s.cookie); err == nil {
			token = c.Value
		}
	}
	switch {
	case token == "":
		return http.StatusUnauthorized, "this server needs its token: send the header Authorization: Bearer TOKEN, or open the address serve printed"
	case subtle.ConstantTimeCompare([]byte(token), []byte(s.token)) != 1:
		return http.StatusForbidden, "the token is not this server's"
	}
	return 0, ""
}

// page serves the lab page. Its address with ?token= stores the token in
// a cookie and redirects to the address without it, so that the token
// stays out of the history and of what the page's address shows.
func (s *server) page(w http.ResponseWriter, r *http.Request) {
	if token := r.URL.Query().Get("token"); token != "" {
		if subtle.ConstantTimeCompare([]byte(token), []byte(s.token)) != 1 {
			writePageError(w, http.StatusForbidden, "This is not the token of this server. Open the address serve printed.")
			return
		}
		http.SetCookie(w, &http.Cookie{Name: s.cookie, Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	if code, _ := s.authorise(r); code != 0 {
		writePageError(w, code, "Open the address serve printed, with its token, to use this page.")
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; form-action 'self'; base-uri 'none'")
	w.Write(labPage)
}

// writePageError answers a page request that cannot be served.
func writePageError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	fmt.Fprintf(w, "<!DOCTYPE html><title>%d</title><p>%s</p>\n", code, msg)
}

// transact runs fn on the study as liveStudy.transact does, one request at
// a time, and announces a change to the event streams.
func (s *server) transact(fn func(st *study) ([]journal.Event, error)) error {
	s.mu.Lock()
	err := s.live.transact(fn)
	version := -1
	if err == nil {
		version = s.live.s.events
	}
	s.mu.Unlock()
	if version >= 0 {
		s.changes.set(version)
	}
	return err
}

// An apiFunc answers an API request with a value to send as JSON, or an
// error whose kind sets the status (apiStatus).
type apiFunc func(r *http.Request) (any, error)

func (s *server) api(fn apiFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, maxRequestBody)
		v, err := fn(r)
		if err != nil {
			writeJSONError(w, apiStatus(err), err.Error())
			return
		}
		b, err := json.Marshal(v)
		if err != nil {
			writeJSONError(w, http.StatusInternalServerError, err.Error())
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(append(b, '\n'))
	}
}

// badRequest marks an error in a request's form or values.
type badRequest struct{ error }

func (b badRequest) Unwrap() error { return b.error }

// apiStatus is the HTTP status an API error answers with.
func apiStatus(err error) int {
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return http.StatusRequestEntityTooLarge
	case errors.As(err, new(badRequest)):
		return http.StatusBadRequest
	case errors.As(err, new(notFound)):
		return http.StatusNotFound
	case errors.As(err, new(conflict)):
		return http.StatusConflict
	}
	return http.StatusInternalServerError
}

func writeJSONError(w http.ResponseWriter, code int, msg string) {
	b, _ := json.Marshal(struct {
		Error string `json:"error"`
	}{msg})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(append(b, '\n'))
}

// decodeBody decodes r's JSON body into v, refusing unknown fields and
// anything after the value; an empty body leaves v as it is.
func decodeBody(r *http.Request, v any) error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(body))
	d.DisallowUnknownFields()
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		return badRequest{fmt.Errorf("the request's JSON: %v", err)}
	}
	if d.More() {
		return badRequest{errors.New("the request's JSON: more than one value")}
	}
	return nil
}

// problemInfo is what the page needs to know of the problem to ask for
// its measurements.
func (s *server) problemInfo(*http.Request) (any, error) {
	type constraint struct {
		Name     string  `json:"name"`
		Limit    float64 `json:"limit"`
		AtLeast  bool    `json:"at_least"`
		Required bool    `json:"required"`
	}
	info := struct {
		Name     string `json:"name"`
		Study    string `json:"study"`
		Budget   int    `json:"budget"`
		Maximize bool   `json:"maximize"`
		// Objectives names several objectives; null for one.
		Objectives  []string     `json:"objectives"`
		ReportsSD   bool         `json:"reports_sd"`
		Constraints []constraint `json:"constraints"`
	}{Name: s.p.Name, Study: s.live.name, Budget: s.p.Budget, Maximize: s.p.Maximize, Objectives: s.p.objectiveNames(), ReportsSD: s.p.ReportsSD,
		Constraints: []constraint{}}
	if !s.p.several() {
		info.Objectives = nil
	}
	for _, c := range s.p.Constraints {
		info.Constraints = append(info.Constraints, constraint{c.Name, c.Limit, c.AtLeast, c.Required})
	}
	return info, nil
}

// ask reserves trials as the command ask does: {"n": K}, 1 by default.
func (s *server) ask(r *http.Request) (any, error) {
	var req struct {
		N *int `json:"n"`
	}
	if err := decodeBody(r, &req); err != nil {
		return nil, err
	}
	n := 1
	if req.N != nil {
		n = *req.N
	}
	if n < 1 {
		return nil, badRequest{fmt.Errorf("n = %d: ask for at least one trial", n)}
	}
	var asked []pendingTrial
	err := s.transact(func(st *study) ([]journal.Event, error) {
		add, trials, err := st.ask(s.p, n)
		asked = trials
		return add, err
	})
	if err != nil {
		return nil, err
	}
	return struct {
		Trials []pendingTrial `json:"trials"`
	}{asked}, nil
}

// tellRequest is the body of a tell: the fields of the command tell. Its
// numbers may also be strings of decimal digits, as a form sends them.
type tellRequest struct {
	ID string `json:"id"`
	// Value is a number, or an object with each objective's.
	Value       json.RawMessage            `json:"value"`
	SD          json.RawMessage            `json:"sd"`
	Constraints map[string]json.RawMessage `json:"constraints"`
	Failed      bool                       `json:"failed"`
	Reason      string                     `json:"reason"`
}

// tell records a trial's result as the command tell does.
func (s *server) tell(r *http.Request) (any, error) {
	var req tellRequest
	if err := decodeBody(r, &req); err != nil {
		return nil, err
	}
	in, err := req.input(s.p)
	if err != nil {
		return nil, err
	}
	told, msg := tellEvent(s.p, in, jsonSyntax)
	if msg != "" {
		return nil, badRequest{errors.New(msg)}
	}
	again := false
	err = s.transact(func(st *study) ([]journal.Event, error) {
		add, repeated, err := st.tell(s.p, told)
		again = repeated
		return add, err
	})
	if err != nil {
		return nil, err
	}
	return struct {
		ID    string `json:"id"`
		Again bool   `json:"already_recorded"`
	}{req.ID, again}, nil
}

// input is the request as tellEvent reads it for problem p: each number
// as its text, the objectives' as NAME=V in name order.
func (req tellRequest) input(p Problem) (tellInput, error) {
	in := tellInput{id: req.ID, failed: req.Failed, reason: req.Reason, constraints: map[string]string{}}
	var err error
	switch v := bytes.TrimSpace(req.Value); {
	case len(v) == 0 || string(v) == "null":
	case v[0] == '{' && !p.several():
		return in, badRequest{errors.New(`"value" is an object, which gives each objective's value; the problem has one objective: give a number`)}
	case v[0] == '{':
		var named map[string]json.RawMessage
		if err := json.Unmarshal(v, &named); err != nil {
			return in, badRequest{fmt.Errorf(`"value": %v`, err)}
		}
		for _, name := range slices.Sorted(maps.Keys(named)) {
			text, err := numberText(`"value" `+name, named[name])
			if err != nil {
				return in, err
			}
			in.values = append(in.values, name+"="+text)
		}
	default:
		text, err := numberText(`"value"`, v)
		if err != nil {
			return in, err
		}
		in.values = []string{text}
	}
	if in.sd, err = numberText(`"sd"`, req.SD); err != nil {
		return in, err
	}
	for name, raw := range req.Constraints {
		if in.constraints[name], err = numberText(`"constraints" `+name, raw); err != nil {
			return in, err
		}
	}
	return in, nil
}

// numberText is the text of a JSON number, or of a string (which tellEvent
// then reads as a number); "" for null or nothing.
func numberText(field string, raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if raw[0] == '"' {
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			return "", badRequest{fmt.Errorf("%s: %v", field, err)}
		}
		return strings.TrimSpace(text), nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return "", badRequest{fmt.Errorf("%s %s: want a number", field, raw)}
	}
	return n.String(), nil
}

// statusInfo is the study's status, as status --json prints it.
func (s *server) statusInfo(*http.Request) (any, error) {
	b, _, err := s.status()
	return json.RawMessage(b), err
}

// status is the study's status as JSON and the version it describes,
// made again only when the journal changed.
func (s *server) status() ([]byte, int, error) {
	var made []byte
	var version int
	err := s.transact(func(st *study) ([]journal.Event, error) {
		version = st.events
		if s.statusCache != nil && s.statusVersion == version {
			made = s.statusCache
			return nil, nil
		}
		b, err := json.Marshal(newStatus(s.p, st))
		if err != nil {
			return nil, err
		}
		made, s.statusCache, s.statusVersion = b, b, version
		return nil, nil
	})
	return made, version, err
}

// charts are the report's charts of the values told (drawProgress), as
// SVG documents.
func (s *server) charts(*http.Request) (any, error) {
	var page reportPage
	err := s.transact(func(st *study) ([]journal.Event, error) {
		return nil, drawProgress(&page, s.p, newStatus(s.p, st), toldValues(st))
	})
	if err != nil {
		return nil, err
	}
	out := []string{}
	for _, svg := range append(append([]template.HTML{page.Convergence}, page.Fronts...), page.Constraints...) {
		if svg != "" {
			out = append(out, string(svg))
		}
	}
	return struct {
		Charts []string `json:"charts"`
	}{out}, nil
}

// report is the study's report, as the command report writes it now.
func (s *server) report(w http.ResponseWriter, r *http.Request) {
	var b bytes.Buffer
	err := s.transact(func(st *study) ([]journal.Event, error) {
		return nil, writeReport(&b, s.p, s.journalName, st)
	})
	if err != nil {
		writeJSONError(w, apiStatus(err), err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes())
}
