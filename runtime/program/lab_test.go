package program

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bocdev/boc/internal/headless"
	"github.com/chromedp/chromedp"
)

// TestLabPageInChromium uses the lab page in headless Chromium as a
// technician at a bench would: it opens the address with the token, asks
// for a trial, enters a value the server refuses and reads why, enters
// the measurements and records them; then a script asks for a trial
// through the API and the page shows it without being reloaded.
// BOC_LAB_SCREENSHOT=FILE saves a screenshot of the page at the end.
func TestLabPageInChromium(t *testing.T) {
	browser := chromiumPath(t)
	path := filepath.Join(t.TempDir(), "j")
	ts := startServer(t, labProblem(), path)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ctx, closeBrowser, err := headless.Context(ctx, browser, 820, 1180)
	if err != nil {
		t.Fatal(err)
	}
	defer closeBrowser()

	trial := func(id, field string) chromedp.CSS { return chromedp.CSS(`form[data-trial="` + id + `"] ` + field) }
	step := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	read := func(what string, a chromedp.Action[string]) string {
		t.Helper()
		v, err := chromedp.Run(ctx, a)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return v
	}
	until := func(what, condition string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](condition)); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}

	step("opening the address with the token", chromedp.Navigate(ts.URL+"/?token="+ts.token), chromedp.WaitVisible(chromedp.CSS(`#live.on`)))
	if location := read("the address", chromedp.Location()); location != ts.URL+"/" {
		t.Errorf("the page is at %s, want the address without its token", location)
	}
	step("asking for a trial", chromedp.Click(chromedp.CSS(`#ask button`)), chromedp.WaitVisible(trial("1", `input[name=value]`)))
	step("entering a value with a decimal comma",
		chromedp.SendKeys(trial("1", `input[name=value]`), "3,5"),
		chromedp.SendKeys(trial("1", `input[name="constraint:heat"]`), "0.2"),
		chromedp.Click(trial("1", `button[type=submit]`)))
	until("the refusal", `document.querySelector('form[data-trial="1"] [data-role=error]').textContent != ""`)
	if refusal := read("the refusal", chromedp.Text(trial("1", `[data-role=error]`))); !strings.Contains(refusal, `"value" 3,5: not a finite number`) {
		t.Errorf("the page shows %q after a value with a decimal comma", refusal)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(document.querySelector('form[data-trial="1"] input[name=value]').value = "", true)`)); err != nil {
		t.Fatalf("clearing the value: %v", err)
	}
	step("recording the measurements",
		chromedp.SendKeys(trial("1", `input[name=value]`), "3.5"),
		chromedp.Click(trial("1", `button[type=submit]`)),
		chromedp.WaitNotPresent(trial("1", "")))
	until("the summary", `document.getElementById("summary").textContent.startsWith("1 of 40 evaluations")`)
	if recorded, err := os.ReadFile(path); err != nil || !strings.Contains(string(recorded), `"event":"tell","study":"lab",`) || !strings.Contains(string(recorded), `"trial":"1","y":3.5,"constraints":{"heat":0.2}}`) {
		t.Errorf("after the page's tell the journal is %s (%v)", recorded, err)
	}

	ts.ask(t, 1) // a script, not the page
	step("the trial a script asked for", chromedp.WaitVisible(trial("2", `input[name=value]`)))
	if summary := read("the summary", chromedp.Text(chromedp.CSS(`#summary`))); summary != "1 of 40 evaluations, 1 pending" {
		t.Errorf("the summary says %q", summary)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if file := os.Getenv("BOC_LAB_SCREENSHOT"); file != "" {
		if err := os.WriteFile(file, shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
