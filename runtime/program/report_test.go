package program

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bocdev/boc/internal/headless"
	"github.com/bocdev/boc/runtime/journal"
)

var update = flag.Bool("update", false, "rewrite the golden report in testdata")

// modelled is a recorder whose recommendation is the point observed with
// the largest value, as a maximising optimiser's would be.
type modelled struct {
	recorder
	xs [][]float64
	ys []float64
}

func (m *modelled) Observe(x []float64, y, sd float64, constraints []float64) error {
	m.xs, m.ys = append(m.xs, x), append(m.ys, y)
	return m.recorder.Observe(x, y, sd, constraints)
}

func (m *modelled) Best() ([]float64, float64, bool) {
	if len(m.ys) == 0 {
		return nil, 0, false
	}
	best := 0
	for i, y := range m.ys {
		if y > m.ys[best] {
			best = i
		}
	}
	return m.xs[best], m.ys[best], true
}

func (m *modelled) BestObserved() ([]float64, float64, bool) { return m.Best() }

// Posterior is the values' function, x[0]·(2 − x[1]), with an sd that
// grows along x[2].
func (m *modelled) Posterior(x []float64) (float64, float64, error) {
	return x[0] * (2 - x[1]), 0.5 + x[2], nil
}

// Lengthscales make v[1] the most important component, then speed, then
// v[2].
func (m *modelled) Lengthscales() ([]float64, bool) { return []float64{0.5, 0.25, 1}, true }

// ConstraintPosterior makes heat rise with speed, 0.1 + 0.1·speed ± 0.05
// with β = 4: estimated safe up to a speed of 8.
func (m *modelled) ConstraintPosterior(k int, x []float64) (float64, float64, float64, error) {
	return 0.1 + 0.1*x[0], 0.05, 4, nil
}

// SeedPoints is one point at low speed.
func (m *modelled) SeedPoints() [][]float64 { return [][]float64{{1, 0, 0}} }

func (m *modelled) Contradictions() []string {
	return []string{"constraint heat measured 2.1 (one reading) past its limit 2 by more than the noise allows"}
}

// pumpProblem is a safe problem with a scalar and a vector dimension and
// input noise, maximised.
func pumpProblem() Problem {
	return Problem{Name: "pump", Source: "pump.bo", Text: "// A pump <that> must not overheat.\nproblem pump\n...\n", Identity: "problem pump\ndomain {\n    speed in [0, 10]\n    v in [-1, 1]^2\n}\n<safety> & \"quotes\"\n",
		Budget: 20, Seed: 7, Maximize: true,
		Dims:  []Dim{{Name: "speed", Size: 1}, {Name: "v", Size: 2, Vector: true}},
		Lower: []float64{0, -1, -1}, Upper: []float64{10, 1, 1},
		Constraints: []Constraint{{Name: "heat", Limit: 1}},
		Robust:      func(x []float64, _ float64) float64 { return x[0] - 0.5 },
		InputNoise:  pumpNoise,
		NewSession:  func(uint64) Session { return &modelled{} }}
}

// pumpNoise draws n values of a triangular noise of speed on [−1, 1]
// that does not depend on x, and none of v.
func pumpNoise(_ []float64, n int) ([][]float64, error) {
	eps := make([][]float64, n)
	for j := range eps {
		u := (float64(j) + 0.5) / float64(n)
		e := math.Sqrt(2*u) - 1
		if u > 0.5 {
			e = 1 - math.Sqrt(2*(1-u))
		}
		eps[j] = []float64{e, 0, 0}
	}
	return eps, nil
}

// writeJournal records a study of n trials of pumpProblem at path: values
// rising and falling, trial 3 failed, the last pending, every fifth hot.
func writeJournal(t testing.TB, path string, n int) {
	t.Helper()
	p := pumpProblem()
	j, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	events := []journal.Event{{Kind: journal.KindStudy, Study: "pump", Identity: identity(p.Identity), Program: p.Identity, Problem: p.Name, Budget: p.Budget, Seed: p.Seed}}
	for i := 1; i <= n; i++ {
		id := strconv.Itoa(i)
		x := []float64{float64(i%10) + 0.5, float64(i%3) - 1, 0.25}
		events = append(events, journal.Event{Kind: journal.KindAsk, Study: "pump", Trial: id, X: x})
		switch {
		case i == n:
		case i == 3:
			events = append(events, journal.Event{Kind: journal.KindFail, Study: "pump", Trial: id, Reason: "the rig <jammed>"})
		default:
			heat := 0.5
			if i%5 == 0 {
				heat = 1.5
			}
			events = append(events, journal.Event{Kind: journal.KindTell, Study: "pump", Trial: id, Y: value(x[0] * (2 - x[1])),
				Constraints: map[string]float64{"heat": heat}})
		}
	}
	if err := j.Transact(func([]journal.Event) ([]journal.Event, error) { return events, nil }); err != nil {
		t.Fatal(err)
	}
}

// report runs the report command and returns its exit code and messages.
func report(p Problem, args ...string) (int, string) {
	var out, errs bytes.Buffer
	code := Run(context.Background(), p, append([]string{"report"}, args...), &out, &errs)
	return code, out.String() + errs.String()
}

// TestReportGolden: the report of a fixed study is testdata/report.html
// byte for byte (go test ./runtime/program -run Report -update rewrites
// it), and the same when written again.
func TestReportGolden(t *testing.T) {
	golden, err := filepath.Abs(filepath.Join("testdata", "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	// The report names its journal: a relative path keeps it the same.
	t.Chdir(t.TempDir())
	path := "pump.journal"
	writeJournal(t, path, 9)
	var pages [2][]byte
	for i := range pages {
		out := "report" + strconv.Itoa(i) + ".html"
		code, msg := report(pumpProblem(), "--journal", path, "-o", out)
		if code != ExitOK || !strings.Contains(msg, "report of study pump (7 evaluations) written to "+out) {
			t.Fatalf("exit %d: %s", code, msg)
		}
		var err error
		if pages[i], err = os.ReadFile(out); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(pages[0], pages[1]) {
		t.Error("the same journal gives different reports")
	}
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, pages[0], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pages[0], want) {
		t.Errorf("the report differs from %s (go test ./runtime/program -run Report -update rewrites it)", golden)
	}
	page := string(pages[0])
	for _, want := range []string{
		"&lt;safety&gt; &amp; &#34;quotes&#34;", // the problem's text, escaped
		"<th>v[2]</th>", "the rig &lt;jammed&gt;", "broke a safety limit", "<th>broke a safety limit</th><td>1</td>",
		"robust value E[f(x + ε)] over the input noise ε: 6", "constraint heat", "<td>safe while ≤ 1</td>",
		"<tr><th>v[1]</th><td>57.1 %</td>", "<tr><th>speed</th><td>28.6 %</td>", "<tr><th>v[2]</th><td>14.3 %</td>",
		"slice along v[2] through the recommendation",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}

// TestReportWithoutModel: a report whose model cannot be drawn says why: a
// session that gives no posterior, or no value told yet.
func TestReportWithoutModel(t *testing.T) {
	// Only the Session's methods: no posterior, as the sessions of
	// programs whose search works on input distributions.
	unmodelled := pumpProblem()
	unmodelled.NewSession = func(uint64) Session { return struct{ Session }{&modelled{}} }
	for _, tc := range []struct {
		name   string
		p      Problem
		trials int
		want   string
	}{
		{"no posterior", unmodelled, 5, "Not drawn: this program&#39;s optimiser does not give its posterior at a point"},
		{"no value", pumpProblem(), 1, "Not drawn: no value has been told yet."},
	} {
		dir := t.TempDir()
		path, out := filepath.Join(dir, "pump.journal"), filepath.Join(dir, "r.html")
		writeJournal(t, path, tc.trials)
		if code, msg := report(tc.p, "--journal", path, "-o", out); code != ExitOK {
			t.Fatalf("%s: exit %d: %s", tc.name, code, msg)
		}
		page, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(page, []byte(tc.want)) || bytes.Contains(page, []byte("Slices through")) {
			t.Errorf("%s: the report does not say %q, or draws the model", tc.name, tc.want)
		}
	}
}

// TestReportSelfContained: the report fetches nothing: no script, style
// sheet, image or font from anywhere; its one script is inline.
func TestReportSelfContained(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("testdata", "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if loc := regexp.MustCompile(`(?i)<link|<img|<iframe|<object|\b(src|href)\s*=|url\(|@import|fetch\(|XMLHttpRequest|import\(`).FindIndex(page); loc != nil {
		t.Errorf("the report refers to something outside it: %q", page[loc[0]:min(loc[1]+40, len(page))])
	}
	if n, inline := bytes.Count(page, []byte("<script")), bytes.Count(page, []byte("<script>")); n != 1 || inline != 1 {
		t.Errorf("%d scripts, %d of them inline without attributes; want the one inline", n, inline)
	}
	// Convergence, the constraint, 3 slices, 3 pairs' maps of mean and sd,
	// the noise of speed.
	if n := bytes.Count(page, []byte("<svg")); n != 12 {
		t.Errorf("%d inline SVG charts, want 12", n)
	}
}

// TestReportErrors: what report refuses, each with a message, and nothing
// written; a missing journal is not created.
func TestReportErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pump.journal")
	writeJournal(t, path, 4)
	out := filepath.Join(dir, "r.html")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no -o", []string{"--journal", path}, ExitUsage, "give the file to write: report -o report.html"},
		{"no journal", []string{"--journal", filepath.Join(dir, "none.journal"), "-o", out}, ExitFailure, "there is no journal " + filepath.Join(dir, "none.journal")},
		{"empty study", []string{"--journal", path, "--study", "other", "-o", out}, ExitFailure, "study other in " + path + " has no trials to report"},
		{"unwritable", []string{"--journal", path, "-o", filepath.Join(dir, "no", "such", "dir", "r.html")}, ExitFailure, "no such file or directory"},
		{"arguments", []string{"--journal", path, "-o", out, "extra"}, ExitUsage, "report takes no arguments"},
	} {
		code, msg := report(pumpProblem(), tc.args...)
		if code != tc.code || !strings.Contains(msg, tc.want) {
			t.Errorf("%s: exit %d, %q; want %d and a message containing %q", tc.name, code, msg, tc.code, tc.want)
		}
	}
	for _, name := range []string{"none.journal", "r.html"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s was created", name)
		}
	}
}

// TestReportInChromium opens the report as a person would, in headless
// Chromium, and checks that its screenshot is not blank. It skips where
// Chromium is not installed (.ci/run installs Debian's).
func TestReportInChromium(t *testing.T) {
	page, err := filepath.Abs(filepath.Join("testdata", "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(t.TempDir(), "report.png")
	chromium(t, "--screenshot="+shot, "--window-size=1200,2000", "file://"+page)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	colours := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, a := img.At(x, y).RGBA()
			colours[[4]uint32{r, g, bl, a}] = true
		}
	}
	if b.Dx() != 1200 || len(colours) < 16 {
		t.Errorf("the screenshot is %d pixels wide with %d colours: blank", b.Dx(), len(colours))
	}
}

// chromium runs headless Chromium with args and returns its standard
// output; it skips the test where Chromium is not installed (.ci/run
// installs Debian's).
func chromium(t *testing.T, args ...string) []byte {
	t.Helper()
	browser := chromiumPath(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, append([]string{"--headless", "--disable-gpu", "--no-sandbox", "--user-data-dir=" + t.TempDir()}, args...)...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errs.Bytes())
	}
	return out.Bytes()
}

// chromiumPath is Chromium's path; it skips the test where Chromium is not
// installed (.ci/run installs Debian's).
func chromiumPath(t *testing.T) string {
	t.Helper()
	browser, ok := headless.Browser()
	if !ok {
		t.Skip("chromium is not on PATH: the pages are not looked at in a browser (apt-get install chromium)")
	}
	return browser
}

// TestReportSortsInChromium clicks the head of the trial table's y column
// in headless Chromium, once and twice, and checks that the rows are sorted
// by y, the trials without a value first, then the other way.
func TestReportSortsInChromium(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("testdata", "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	start, end := bytes.Index(golden, []byte(`<table class="trials">`)), bytes.LastIndex(golden, []byte("</script>"))
	if start < 0 || end < start {
		t.Fatal("the report has no trial table followed by its script")
	}
	for _, tc := range []struct {
		clicks int
		want   []string
	}{
		{1, []string{"", "", "2.5", "3", "5.5", "8.5", "9", "15", "19.5"}},
		{2, []string{"19.5", "15", "9", "8.5", "5.5", "3", "2.5", "", ""}},
	} {
		page := filepath.Join(t.TempDir(), "sort.html")
		click := strings.Repeat(`document.querySelectorAll("table.trials th")[6].click();`, tc.clicks)
		html := "<!DOCTYPE html><html><body>" + string(golden[start:end]) + "</script><script>" + click + "</script></body></html>"
		if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
			t.Fatal(err)
		}
		dom := chromium(t, "--dump-dom", "file://"+page)
		var ys []string
		for _, row := range regexp.MustCompile(`<tr><td>(?:[^<]*</td><td>){6}([^<]*)</td>`).FindAllSubmatch(dom, -1) {
			ys = append(ys, string(row[1]))
		}
		if strings.Join(ys, " | ") != strings.Join(tc.want, " | ") {
			t.Errorf("after %d clicks the values are in the order %q, want %q", tc.clicks, ys, tc.want)
		}
	}
}

// BenchmarkReport writes the report of a study of 200 trials; the session
// is a stub, so the time is the report's own, not the optimiser's replay.
func BenchmarkReport(b *testing.B) {
	path := filepath.Join(b.TempDir(), "pump.journal")
	writeJournal(b, path, 200)
	out := filepath.Join(b.TempDir(), "r.html")
	for b.Loop() {
		if code, msg := report(pumpProblem(), "--journal", path, "-o", out); code != ExitOK {
			b.Fatal(msg)
		}
	}
}

// landing is a safe session whose constraint has no posterior at one aim.
type landing struct{ modelled }

func (*landing) ConstraintPosterior(int, []float64) (float64, float64, float64, error) {
	return 0, 0, 0, errors.New("constraint heat is judged where the queries land, not at one point")
}

// plain is a session that gives neither posterior: only a recorder's.
type plain struct{ recorder }

// TestReportVariants: what the report says of a robust model, of a safe
// set it cannot estimate, and of a session without a posterior or an input
// noise.
func TestReportVariants(t *testing.T) {
	robust := pumpProblem()
	robust.ModelOverInputs = true
	unestimated := pumpProblem()
	unestimated.NewSession = func(uint64) Session { return &landing{} }
	bare := pumpProblem()
	bare.NewSession, bare.InputNoise = func(uint64) Session { return &plain{} }, nil
	free := pumpProblem() // no constraint: the failure is given a value
	free.Constraints = nil
	for _, tc := range []struct {
		name string
		p    Problem
		want []string
	}{
		{"robust", robust, []string{">robust posterior mean ± 2 sd</text>", ">robust posterior sd</text>", "The model is over input distributions"}},
		{"landing", unestimated, []string{"The safe set is not drawn: constraint heat is judged where the queries land, not at one point.", "<li>speed=1 v=[0 0]</li>"}},
		{"bare", bare, []string{"Not drawn: this program&#39;s optimiser does not give its posterior at a point",
			"The safe set is not drawn: this program&#39;s optimiser does not give its constraints&#39; posterior.",
			"The input noise is not drawn: the problem has none, or its optimiser never draws it."}},
		{"failure imputed", free, []string{"1 failed trials are drawn as a series of their own", ">failed, at the value imputed</text>", ">failed, a value imputed</text>"}},
	} {
		dir := t.TempDir()
		path, out := filepath.Join(dir, "pump.journal"), filepath.Join(dir, "r.html")
		writeJournal(t, path, 6)
		if code, msg := report(tc.p, "--journal", path, "-o", out); code != ExitOK {
			t.Fatalf("%s: exit %d: %s", tc.name, code, msg)
		}
		page, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !bytes.Contains(page, []byte(w)) {
				t.Errorf("%s: the report does not say %q", tc.name, w)
			}
		}
	}
}
