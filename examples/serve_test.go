package examples

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bocdev/boc/cli"
	"github.com/bocdev/boc/internal/headless"
	"github.com/chromedp/chromedp"
)

// TestLabPages serves examples' studies from their built programs and
// measures them from the lab page in headless Chromium, as a person at a
// bench would: ask for a trial, read its settings, enter the measurements
// there (one value, or each objective's), record them, three times; the
// page then shows the recommendation (or the Pareto set) and the
// convergence. Then the server is killed with SIGKILL and started again
// on the journal: nothing told is lost. BOC_LAB_SCREENSHOT=FILE saves the
// quickstart's page (docs/serve.md's picture).
func TestLabPages(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	browser, ok := headless.Browser()
	if !ok {
		t.Skip("chromium is not on PATH: the lab page is not used in a browser (apt-get install chromium)")
	}
	for _, tc := range []struct {
		example string
		measure func(x map[string]float64) map[string]float64 // the form's fields by name
		shows   string                                        // a condition on the page at the end
	}{
		{"quickstart.bo", func(x map[string]float64) map[string]float64 {
			return map[string]float64{"value": branin(x["x1"], x["x2"])}
		}, `document.getElementById("recommendation").textContent.includes("posterior mean")`},
		{"branincurrin.bo", func(x map[string]float64) map[string]float64 {
			return map[string]float64{"objective:branin": branin(15*x["x"]-5, 15*x["y"]), "objective:currin": x["x"] + x["y"]}
		}, `document.querySelector("#recommendation table.pareto tr td") != null`},
	} {
		t.Run(tc.example, func(t *testing.T) {
			labPage(t, browser, tc.example, tc.measure, tc.shows)
		})
	}
}

func labPage(t *testing.T, browser, example string, measure func(map[string]float64) map[string]float64, shows string) {
	dir := t.TempDir()
	bin, journal, tokenFile := filepath.Join(dir, "lab"), filepath.Join(dir, "j"), filepath.Join(dir, "token")
	var stdout, stderr bytes.Buffer
	if code := cli.Run([]string{"build", "-o", bin, example}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("boc build: %s", stderr.String())
	}
	if err := os.WriteFile(tokenFile, []byte("bench-token-for-the-test\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	first := serveInBackground(t, bin, "--journal", journal, "--token-file", tokenFile)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ctx, closeBrowser, err := headless.Context(ctx, browser, 820, 1180)
	if err != nil {
		t.Fatal(err)
	}
	defer closeBrowser()
	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	do("opening the page", chromedp.Navigate(first.address), chromedp.WaitVisible(chromedp.CSS(`#live.on`)))
	for i := 1; i <= 3; i++ {
		trial := func(field string) chromedp.CSS {
			return chromedp.CSS(fmt.Sprintf(`form[data-trial="%d"] %s`, i, field))
		}
		do("asking for a trial", chromedp.Click(chromedp.CSS(`#ask button`)), chromedp.WaitVisible(trial(`button[type=submit]`)))
		settings, err := chromedp.Run(ctx, chromedp.Text(trial(`table`)))
		if err != nil {
			t.Fatal(err)
		}
		x := map[string]float64{}
		for _, row := range strings.Split(settings, "\n") {
			name, value, _ := strings.Cut(row, "\t")
			if x[name], err = strconv.ParseFloat(value, 64); err != nil {
				t.Fatalf("the trial's settings %q: %v", settings, err)
			}
		}
		for field, v := range measure(x) {
			do("entering "+field, chromedp.SendKeys(trial(`input[name="`+field+`"]`), fmt.Sprint(v)))
		}
		do("recording the measurements", chromedp.Click(trial(`button[type=submit]`)), chromedp.WaitNotPresent(trial("")))
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("summary").textContent.startsWith("3 of ") &&
		document.getElementById("summary").textContent.endsWith(" evaluations, 0 pending") && document.querySelector("#charts svg") != null && `+shows)); err != nil {
		t.Fatalf("the page after three values: %v", err)
	}
	if file := os.Getenv("BOC_LAB_SCREENSHOT"); file != "" && example == "quickstart.bo" {
		shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err == nil {
			err = os.WriteFile(file, shot, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}

	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	first.cmd.Wait()
	again := serveInBackground(t, bin, "--journal", journal, "--token-file", tokenFile)
	base, token, _ := strings.Cut(again.address, "/?token=")
	req, _ := http.NewRequest("GET", base+"/api/status", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st struct{ Evaluations int }
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil || st.Evaluations != 3 {
		t.Errorf("a server started again after SIGKILL: %d evaluations (%v), want 3", st.Evaluations, err)
	}
}

// served is a program's server running in the background.
type served struct {
	cmd     *exec.Cmd
	address string // the page's, with the token
}

// serveInBackground starts bin serve with args on a free port and returns
// it with the address it printed; the test's end kills it.
func serveInBackground(t *testing.T, bin string, args ...string) served {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--listen", "127.0.0.1:0"}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if address, ok := strings.CutPrefix(strings.TrimSpace(lines.Text()), "http://"); ok {
			go func() { // keep reading, so that the server never blocks on its output
				for lines.Scan() {
				}
			}()
			return served{cmd, "http://" + address}
		}
	}
	t.Fatal("serve printed no address")
	return served{}
}

func branin(x1, x2 float64) float64 {
	b, c := 5.1/(4*math.Pi*math.Pi), 5/math.Pi
	return math.Pow(x2-b*x1*x1+c*x1-6, 2) + 10*(1-1/(8*math.Pi))*math.Cos(x1) + 10
}
