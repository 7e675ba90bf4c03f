package program

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bocdev/boc/runtime/journal"
	"github.com/bocdev/boc/runtime/journal/journaltest"
)

// labProblem is a one-component problem with an unknown constraint, whose
// optimiser (recorder) suggests the number of values observed.
func labProblem() Problem {
	return Problem{Name: "lab", Identity: "problem lab\n", Budget: 40, Seed: 1,
		Dims: []Dim{{Name: "x", Size: 1}}, Lower: []float64{0}, Upper: []float64{100},
		Constraints: []Constraint{{Name: "heat", Limit: 1, Required: true}},
		NewSession:  func(uint64) Session { return &recorder{} }}
}

// testServer is a lab server on a test listener.
type testServer struct {
	*httptest.Server
	srv   *server
	token string
}

// startServer serves study "lab" of the journal target on a test
// listener, watching the journal until the test ends.
func startServer(t *testing.T, p Problem, target string) *testServer {
	t.Helper()
	store, err := journal.OpenStore(target, "lab")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(nil)
	const token = "test-token-0123456789"
	srv, err := newServer(p, store, studyFlags{journal: target, study: "lab"}, token, ts.Listener.Addr())
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = srv
	ts.Start()
	ctx, cancel := context.WithCancel(context.Background())
	go srv.watch(ctx)
	t.Cleanup(func() {
		cancel()
		srv.closeStreams()
		ts.Close()
		store.Close()
	})
	return &testServer{ts, srv, token}
}

// call sends a request with the bearer token (none when token is "") and
// returns the status and the body; it may run on any goroutine.
func (ts *testServer) call(t *testing.T, method, path, token, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Error(err)
		return 0, ""
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Error(err)
		return 0, ""
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Error(err)
	}
	return resp.StatusCode, string(b)
}

// ask asks for n trials and returns their ids; it may run on any
// goroutine.
func (ts *testServer) ask(t *testing.T, n int) []string {
	t.Helper()
	code, body := ts.call(t, "POST", "/api/ask", ts.token, fmt.Sprintf(`{"n": %d}`, n))
	var asked struct {
		Trials []struct {
			ID string `json:"id"`
		} `json:"trials"`
	}
	if err := json.Unmarshal([]byte(body), &asked); code != http.StatusOK || err != nil {
		t.Errorf("ask: %d %s", code, body)
		return nil
	}
	var ids []string
	for _, tr := range asked.Trials {
		ids = append(ids, tr.ID)
	}
	return ids
}

// TestServeAuth: every API endpoint refuses a request without the token
// (401) or with another (403); the page's address with the token stores it
// in a strict, HttpOnly cookie and redirects to the page, which the cookie
// then opens, as it opens the API.
func TestServeAuth(t *testing.T) {
	ts := startServer(t, labProblem(), filepath.Join(t.TempDir(), "j"))
	endpoints := [][2]string{{"GET", "/api/problem"}, {"POST", "/api/ask"}, {"POST", "/api/tell"}, {"GET", "/api/status"},
		{"GET", "/api/charts"}, {"GET", "/api/report"}, {"GET", "/api/events"}, {"GET", "/api/nothing"}}
	for _, e := range endpoints {
		for _, tc := range []struct {
			token string
			want  int
		}{{"", http.StatusUnauthorized}, {"test-token-0123456788", http.StatusForbidden}, {"test", http.StatusForbidden}} {
			if code, body := ts.call(t, e[0], e[1], tc.token, ""); code != tc.want || !strings.Contains(body, `"error"`) {
				t.Errorf("%s %s with token %q: %d %s, want %d and a JSON error", e[0], e[1], tc.token, code, body, tc.want)
			}
		}
	}
	if code, body := ts.call(t, "GET", "/api/status", ts.token, ""); code != http.StatusOK {
		t.Errorf("status with the token: %d %s", code, body)
	}
	if code, _ := ts.call(t, "GET", "/", "", ""); code != http.StatusUnauthorized {
		t.Errorf("the page without a token: %d, want 401", code)
	}
	if code, _ := ts.call(t, "GET", "/?token=wrong", "", ""); code != http.StatusForbidden {
		t.Errorf("the page with a wrong token: %d, want 403", code)
	}

	client := ts.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := client.Get(ts.URL + "/?token=" + ts.token)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cookies := resp.Cookies()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" || len(cookies) != 1 ||
		cookies[0].Value != ts.token || !cookies[0].HttpOnly || cookies[0].SameSite != http.SameSiteStrictMode {
		t.Fatalf("opening the address with the token: %d to %q, cookies %v", resp.StatusCode, resp.Header.Get("Location"), cookies)
	}
	for _, path := range []string{"/", "/api/status"} {
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		req.AddCookie(cookies[0])
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s with the cookie: %d", path, resp.StatusCode)
		}
	}
}

// TestServeAskTellStatus: ask, tell and status answer as the commands do,
// and a repeated tell is recognised.
func TestServeAskTellStatus(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	ts := startServer(t, labProblem(), path)
	if ids := ts.ask(t, 2); !slices.Equal(ids, []string{"1", "2"}) {
		t.Fatalf("asked %v, want trials 1 and 2", ids)
	}
	for _, body := range []string{`{"id": "1", "value": 3.5, "constraints": {"heat": 0.5}}`, `{"id": "1", "value": "3.5", "constraints": {"heat": "0.5"}}`} {
		if code, got := ts.call(t, "POST", "/api/tell", ts.token, body); code != http.StatusOK {
			t.Fatalf("tell %s: %d %s", body, code, got)
		}
	}
	if code, got := ts.call(t, "POST", "/api/tell", ts.token, `{"id": "2", "failed": true, "reason": "the pump jammed"}`); code != http.StatusOK {
		t.Fatalf("tell a failure: %d %s", code, got)
	}
	_, got := ts.call(t, "GET", "/api/status", ts.token, "")
	var st status
	if err := json.Unmarshal([]byte(got), &st); err != nil {
		t.Fatal(err)
	}
	if st.Evaluations != 1 || st.Failed != 1 || len(st.Pending) != 0 || st.Unmet == nil || *st.Unmet != 0 {
		t.Errorf("status after a value and a failure: %s", got)
	}
	var out, errs bytes.Buffer
	if code := Run(context.Background(), labProblem(), []string{"status", "--journal", path, "--study", "lab", "--json"}, &out, &errs); code != ExitOK ||
		strings.TrimSpace(out.String()) != strings.TrimSpace(got) {
		t.Errorf("status --json says\n%s\nthe API\n%s", out.String(), got)
	}
	code, body := ts.call(t, "GET", "/api/charts", ts.token, "")
	var charts struct{ Charts []string }
	if err := json.Unmarshal([]byte(body), &charts); code != http.StatusOK || err != nil || len(charts.Charts) != 2 || !strings.HasPrefix(charts.Charts[1], "<svg") {
		t.Errorf("charts: %d %.200s, want the convergence and the constraint's", code, body)
	}
	if code, report := ts.call(t, "GET", "/api/report", ts.token, ""); code != http.StatusOK || !strings.HasPrefix(report, "<!DOCTYPE html>") || !strings.Contains(report, "the pump jammed") {
		t.Errorf("report: %d %.80s", code, report)
	}
}

// TestServeRefuses: a request the study cannot take answers 400, 404, 409
// or 413 with a JSON error that says why, and leaves the journal as it was.
func TestServeRefuses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	p := labProblem()
	p.Budget = 3
	ts := startServer(t, p, path)
	ts.ask(t, 2)
	if code, body := ts.call(t, "POST", "/api/tell", ts.token, `{"id": "1", "value": 2, "constraints": {"heat": 0}}`); code != http.StatusOK {
		t.Fatalf("tell: %d %s", code, body)
	}
	for _, tc := range []struct {
		method, path, body string
		code               int
		want               string
	}{
		{"POST", "/api/tell", `{"id": "2", "value": 2`, 400, "the request's JSON"},
		{"POST", "/api/tell", `{"id": "2", "valu": 2}`, 400, `unknown field \"valu\"`},
		{"POST", "/api/tell", `{"id": "2", "value": 2} {}`, 400, "more than one value"},
		{"POST", "/api/tell", `{"id": "9", "value": 2, "constraints": {"heat": 0}}`, 404, "has no trial 9"},
		{"POST", "/api/tell", `{"id": "2", "value": 1e999, "constraints": {"heat": 0}}`, 400, `\"value\" 1e999: not a finite number`},
		{"POST", "/api/tell", `{"id": "2", "value": "NaN", "constraints": {"heat": 0}}`, 400, "not a finite number"},
		{"POST", "/api/tell", `{"id": "2", "value": true, "constraints": {"heat": 0}}`, 400, "want a number"},
		{"POST", "/api/tell", `{"id": "2", "value": {"y": 1}, "constraints": {"heat": 0}}`, 400, "the problem has one objective"},
		{"POST", "/api/tell", `{"id": "2", "value": 2}`, 400, `give constraint heat's measured value: \"constraints\": {\"heat\": V}`},
		{"POST", "/api/tell", `{"id": "2", "value": 2, "constraints": {"heat": 0, "cold": 1}}`, 400, "no unknown constraint cold"},
		{"POST", "/api/tell", `{"id": "2", "value": 2, "failed": true}`, 400, "records a failure"},
		{"POST", "/api/tell", `{"value": 2}`, 400, "give the trial's id"},
		{"POST", "/api/tell", `{"id": "1", "value": 3, "constraints": {"heat": 0}}`, 409, "a tell cannot change it"},
		{"POST", "/api/tell", `{"id": "2", "reason": "` + strings.Repeat("x", maxRequestBody) + `"}`, 413, "request body too large"},
		{"POST", "/api/ask", `{"n": 0}`, 400, "ask for at least one trial"},
		{"POST", "/api/ask", `{"n": 2}`, 409, "leave 1 of the budget of 3"},
		{"GET", "/api/ask", ``, 405, ""},
		{"GET", "/api/nothing", ``, 404, ""},
	} {
		before, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		code, body := ts.call(t, tc.method, tc.path, ts.token, tc.body)
		if code != tc.code || !strings.Contains(body, tc.want) {
			t.Errorf("%s %s %.60s: %d %s, want %d and %q", tc.method, tc.path, tc.body, code, body, tc.code, tc.want)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
			t.Errorf("%s %s %.60s changed the journal", tc.method, tc.path, tc.body)
		}
	}
}

// TestServeParallelAsks: 20 asks at once, to two servers on one journal,
// reserve 20 distinct trials, on a file and on PostgreSQL.
func TestServeParallelAsks(t *testing.T) {
	for _, backend := range []string{"file", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			target := filepath.Join(t.TempDir(), "j")
			if backend == "postgres" {
				target = journaltest.For(t).URL
			}
			servers := []*testServer{startServer(t, labProblem(), target), startServer(t, labProblem(), target)}
			ids := make([][]string, 20)
			var wg sync.WaitGroup
			for i := range ids {
				wg.Go(func() { ids[i] = servers[i%2].ask(t, 1) })
			}
			wg.Wait()
			seen := map[string]bool{}
			for _, got := range ids {
				for _, id := range got {
					if seen[id] {
						t.Errorf("trial %s handed out twice", id)
					}
					seen[id] = true
				}
			}
			if len(seen) != 20 {
				t.Errorf("%d trials handed out, want 20", len(seen))
			}
		})
	}
}

// TestServeEvents: the event stream sends the status at once, and again
// when another process tells a result; a server started again on the
// journal has lost nothing.
func TestServeEvents(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	ts := startServer(t, labProblem(), path)
	ts.ask(t, 1)
	req, _ := http.NewRequest("GET", ts.URL+"/api/events", nil)
	req.Header.Set("Authorization", "Bearer "+ts.token)
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("events are %s", ct)
	}
	statuses := make(chan status)
	go func() {
		r := bufio.NewReader(resp.Body)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				close(statuses)
				return
			}
			if data, ok := strings.CutPrefix(line, "data: "); ok {
				var st status
				json.Unmarshal([]byte(data), &st)
				statuses <- st
			}
		}
	}()
	next := func() status {
		select {
		case st := <-statuses:
			return st
		case <-time.After(10 * time.Second):
			t.Fatal("no event in 10 s")
		}
		return status{}
	}
	if st := next(); len(st.Pending) != 1 || st.Evaluations != 0 {
		t.Fatalf("first event: %+v", st)
	}
	var out, errs bytes.Buffer
	if code := Run(context.Background(), labProblem(), []string{"tell", "1", "--value", "4", "--constraint", "heat=0.2", "--journal", path, "--study", "lab"}, &out, &errs); code != ExitOK {
		t.Fatalf("tell: %s", errs.String())
	}
	if st := next(); len(st.Pending) != 0 || st.Evaluations != 1 {
		t.Fatalf("after a tell from the command line: %+v", st)
	}

	again := startServer(t, labProblem(), path)
	again.ask(t, 1)
	_, body := again.call(t, "GET", "/api/status", again.token, "")
	if !strings.Contains(body, `"evaluations":1`) || !strings.Contains(body, `"pending":[{"id":"2"`) {
		t.Errorf("a server started again: %s", body)
	}
}

// TestServeToken: a random token on the loopback; beyond it only with a
// token file, whose token must be long and URL-safe.
func TestServeToken(t *testing.T) {
	dir := t.TempDir()
	good, short := filepath.Join(dir, "good"), filepath.Join(dir, "short")
	os.WriteFile(good, []byte("  lab-bench_token.2026~x \nsecond line\n"), 0o600)
	os.WriteFile(short, []byte("abc\n"), 0o600)
	for _, tc := range []struct {
		listen, file string
		want, err    string
	}{
		{"127.0.0.1:8080", "", "random", ""},
		{"localhost:0", "", "random", ""},
		{"[::1]:8080", "", "random", ""},
		{"0.0.0.0:8080", "", "", "reaches beyond this machine: give the token with --token-file"},
		{":8080", "", "", "reaches beyond this machine"},
		{"lab.example.org:8080", "", "", "reaches beyond this machine"},
		{"0.0.0.0:8080", good, "lab-bench_token.2026~x", ""},
		{"0.0.0.0:8080", short, "", "must be at least 16"},
		{"0.0.0.0:8080", filepath.Join(dir, "missing"), "", "--token-file"},
		{"8080", "", "", "want HOST:PORT"},
	} {
		token, err := serveToken(tc.listen, tc.file)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s %s: %v, want an error with %q", tc.listen, tc.file, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%s %s: %v", tc.listen, tc.file, err)
		case tc.want == "random" && len(token) < 26:
			t.Errorf("%s: random token %q", tc.listen, token)
		case tc.want != "random" && tc.err == "" && token != tc.want:
			t.Errorf("%s %s: token %q, want %q", tc.listen, tc.file, token, tc.want)
		}
	}
}

// TestServeMatchesOpenAPI: docs/serve.openapi.json describes every
// endpoint of the API, and only those.
func TestServeMatchesOpenAPI(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "serve.openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec struct {
		Paths map[string]map[string]json.RawMessage
	}
	if err := json.Unmarshal(b, &spec); err != nil {
		t.Fatal(err)
	}
	var described, served []string
	for path, ops := range spec.Paths {
		for method := range ops {
			described = append(described, strings.ToUpper(method)+" "+path)
		}
	}
	ts := startServer(t, labProblem(), filepath.Join(t.TempDir(), "j"))
	for _, r := range ts.srv.routes() {
		served = append(served, r.method+" "+r.path)
	}
	slices.Sort(described)
	slices.Sort(served)
	if !slices.Equal(described, served) {
		t.Errorf("docs/serve.openapi.json describes\n%v\nthe server serves\n%v", described, served)
	}
}

// TestServeCommandRefuses: serve refuses to start beyond the loopback
// without a token file, and on a study another problem made, saying why.
func TestServeCommandRefuses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	other := labProblem()
	other.Identity = "problem other\n"
	var out, errs bytes.Buffer
	if code := Run(context.Background(), other, []string{"ask", "--journal", path, "--study", "lab"}, &out, &errs); code != ExitOK {
		t.Fatal(errs.String())
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--listen", "0.0.0.0:0"}, ExitUsage, "reaches beyond this machine: give the token with --token-file"},
		{[]string{"--listen", "127.0.0.1:0", "--study", "lab"}, ExitFailure, "study lab was made by another problem"},
		{[]string{"--listen", "127.0.0.1"}, ExitUsage, "want HOST:PORT"},
	} {
		errs.Reset()
		code := Run(context.Background(), labProblem(), append([]string{"serve", "--journal", path}, tc.args...), &out, &errs)
		if code != tc.code || !strings.Contains(errs.String(), tc.want) {
			t.Errorf("serve %v: exit %d, %q; want %d and %q", tc.args, code, errs.String(), tc.code, tc.want)
		}
	}
}
