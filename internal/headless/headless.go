// Package headless starts headless Chromium for the tests and benchmarks
// that use boc's pages as a person would (chromedp over the DevTools
// protocol). Debian's chromium is what .ci/run installs.
package headless

import (
	"context"
	"os"
	"os/exec"

	"github.com/chromedp/chromedp"
)

// Browser is the path of the chromium command, and whether it is installed.
func Browser() (string, bool) {
	path, err := exec.LookPath("chromium")
	return path, err == nil
}

// Context starts browser, headless and without a sandbox (CI runs as
// root), with a profile of its own in a temporary folder and a window of
// width×height pixels, and returns a chromedp context on its first tab.
// cancel closes the browser and removes the profile.
func Context(parent context.Context, browser string, width, height int) (ctx context.Context, cancel func(), err error) {
	profile, err := os.MkdirTemp("", "boc-chromium")
	if err != nil {
		return nil, nil, err
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox,
		chromedp.UserDataDir(profile), chromedp.WindowSize(width, height))
	allocated, stopAllocator := chromedp.NewExecAllocator(parent, opts...)
	ctx, stopTab := chromedp.NewContext(allocated)
	return ctx, func() {
		stopTab()
		stopAllocator()
		os.RemoveAll(profile)
	}, nil
}
