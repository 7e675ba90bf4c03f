// Command serve measures a built program's serve (docs/serve.md): pairs of
// ask and tell over HTTP with keep-alive connections, at several numbers
// of concurrent clients, on a journal file and on PostgreSQL; the same
// pairs made one after the other with the command line (a process each,
// as a shell script makes them); and the lab page's first load in
// headless Chromium. The study is lab.bo beside this file: four settings,
// the default model. Every level starts a fresh study, so a level's pairs
// see studies of 0 to -pairs trials.
//
//	go run ./bench/serve [-pairs 200] [-clients 1,8,32]
//
// Run it from the repository's root. PostgreSQL is the server
// BOC_TEST_POSTGRES names (by default the local one), in a schema of its
// own that is dropped at the end; without one, only the file is measured.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bocdev/boc/cli"
	"github.com/bocdev/boc/internal/headless"
	"github.com/bocdev/boc/runtime/journal/journaltest"
	"github.com/chromedp/chromedp"
)

func main() {
	pairs := flag.Int("pairs", 200, "ask+tell pairs at each level")
	levels := flag.String("clients", "1,8,32", "numbers of concurrent clients")
	flag.Parse()
	log.SetFlags(0)
	dir, err := os.MkdirTemp("", "boc-serve-bench")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "lab")
	var stderr bytes.Buffer
	if code := cli.Run([]string{"build", "-o", bin, filepath.Join("bench", "serve", "lab.bo")}, nil, os.Stdout, &stderr); code != 0 {
		log.Fatalf("boc build: %s", stderr.String())
	}

	targets := [][2]string{{"file", ""}}
	if schema, err := journaltest.NewSchema(); err == nil {
		defer schema.Drop()
		targets = append(targets, [2]string{"PostgreSQL", schema.URL})
	} else {
		log.Printf("serve bench: %v: the file journal only", err)
	}
	fmt.Printf("%d ask+tell pairs per row, each row a fresh study\n\n", *pairs)
	fmt.Println("| journal | clients | pair p50 | pair p99 | ask p50 | tell p50 | pairs/s |")
	fmt.Println("|---|---|---|---|---|---|---|")
	var pageJournal, pageStudy string // the first study, which the page then loads
	for _, target := range targets {
		for _, field := range strings.Split(*levels, ",") {
			clients, err := strconv.Atoi(field)
			if err != nil || clients < 1 {
				log.Fatalf("-clients %s", *levels)
			}
			journal := target[1]
			if journal == "" {
				journal = filepath.Join(dir, fmt.Sprintf("c%d.journal", clients))
			}
			study := fmt.Sprintf("bench-%d", clients)
			if pageJournal == "" {
				pageJournal, pageStudy = journal, study
			}
			srv := start(bin, "--journal", journal, "--study", study)
			pair, ask, tell, elapsed := load(srv, clients, *pairs)
			srv.stop()
			fmt.Printf("| %s | %d | %s | %s | %s | %s | %.0f |\n", target[0], clients, ms(quantile(pair, 0.5)), ms(quantile(pair, 0.99)),
				ms(quantile(ask, 0.5)), ms(quantile(tell, 0.5)), float64(*pairs)/elapsed.Seconds())
		}
	}
	pair := commandLine(bin, filepath.Join(dir, "cli.journal"), *pairs)
	fmt.Printf("| file, the command line | 1 | %s | %s | | | %.0f |\n", ms(quantile(pair, 0.5)), ms(quantile(pair, 0.99)), 1/mean(pair).Seconds())

	srv := start(bin, "--journal", pageJournal, "--study", pageStudy)
	firstLoad(srv)
	srv.stop()
}

// started are the servers running, which fatal stops.
var started []*server

// fatal stops the servers and exits with an error.
func fatal(v ...any) {
	for _, s := range started {
		s.stop()
	}
	log.Fatal(v...)
}

// server is a program's serve running in the background.
type server struct {
	cmd         *exec.Cmd
	base, token string
	client      *http.Client
}

func start(bin string, args ...string) *server {
	cmd := exec.Command(bin, append([]string{"serve", "--listen", "127.0.0.1:0"}, args...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fatal(err)
	}
	if err := cmd.Start(); err != nil {
		fatal(err)
	}
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if address, ok := strings.CutPrefix(strings.TrimSpace(lines.Text()), "http://"); ok {
			go func() {
				for lines.Scan() {
				}
			}()
			base, token, _ := strings.Cut(address, "/?token=")
			transport := &http.Transport{MaxIdleConnsPerHost: 64}
			s := &server{cmd, "http://" + base, token, &http.Client{Transport: transport}}
			started = append(started, s)
			return s
		}
	}
	fatal("serve printed no address")
	return nil
}

func (s *server) stop() {
	s.cmd.Process.Kill()
	s.cmd.Wait()
	started = slices.DeleteFunc(started, func(t *server) bool { return t == s })
}

// call posts body to path (GET without one) and decodes the answer into v.
func (s *server) call(path string, body any, v any) (int, error) {
	method, payload := "GET", []byte(nil)
	if body != nil {
		method = "POST"
		payload, _ = json.Marshal(body)
	}
	req, _ := http.NewRequest(method, s.base+path, bytes.NewReader(payload))
	req.Header.Set("Authorization", "Bearer "+s.token)
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	n, _ := b.ReadFrom(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return int(n), fmt.Errorf("%s: %d %s", path, resp.StatusCode, b.String())
	}
	if v != nil {
		return int(n), json.Unmarshal(b.Bytes(), v)
	}
	return int(n), nil
}

// load makes pairs ask+tell pairs from clients goroutines and returns each
// pair's, ask's and tell's time and the time of all.
func load(s *server, clients, pairs int) (pair, ask, tell []time.Duration, elapsed time.Duration) {
	var mu sync.Mutex
	var next atomic.Int64
	var wg sync.WaitGroup
	begin := time.Now()
	for range clients {
		wg.Go(func() {
			for next.Add(1) <= int64(pairs) {
				t0 := time.Now()
				var asked struct {
					Trials []struct {
						ID string
						X  struct{ X []float64 }
					}
				}
				if _, err := s.call("/api/ask", map[string]int{"n": 1}, &asked); err != nil {
					fatal(err)
				}
				t1 := time.Now()
				t := asked.Trials[0]
				if _, err := s.call("/api/tell", map[string]any{"id": t.ID, "value": measure(t.X.X)}, nil); err != nil {
					fatal(err)
				}
				t2 := time.Now()
				mu.Lock()
				pair, ask, tell = append(pair, t2.Sub(t0)), append(ask, t1.Sub(t0)), append(tell, t2.Sub(t1))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return pair, ask, tell, time.Since(begin)
}

// measure is the lab's value at x.
func measure(x []float64) float64 {
	v := 0.0
	for i, xi := range x {
		v += float64(i+1) * (xi - 0.3) * (xi - 0.3)
	}
	return v
}

// commandLine makes pairs ask+tell pairs with the program's commands, one
// process each, and returns each pair's time.
func commandLine(bin, journal string, pairs int) []time.Duration {
	var out []time.Duration
	for range pairs {
		t0 := time.Now()
		b, err := exec.Command(bin, "ask", "--json", "--journal", journal).Output()
		if err != nil {
			fatal(fmt.Sprintf("ask: %v", err))
		}
		var asked struct {
			Trials []struct {
				ID string
				X  map[string][]float64
			}
		}
		if err := json.Unmarshal(b, &asked); err != nil {
			fatal(err)
		}
		t := asked.Trials[0]
		if err := exec.Command(bin, "tell", t.ID, "--value", fmt.Sprint(measure(t.X["x"])), "--journal", journal).Run(); err != nil {
			fatal(fmt.Sprintf("tell: %v", err))
		}
		out = append(out, time.Since(t0))
	}
	return out
}

// firstLoad prints the bytes of the page's first load (the page, the
// problem, the status and the charts) and the time headless Chromium takes
// from the address with the token to the page with its charts drawn.
func firstLoad(s *server) {
	total := 0
	for _, path := range []string{"/", "/api/problem", "/api/status", "/api/charts"} {
		n, err := s.call(path, nil, nil)
		if err != nil {
			fatal(err)
		}
		fmt.Printf("\nfirst load: %s %d bytes", path, n)
		total += n
	}
	fmt.Printf("\nfirst load: %d bytes in all\n", total)
	browser, ok := headless.Browser()
	if !ok {
		fmt.Println("first load: chromium is not on PATH, the time is not measured")
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ctx, closeBrowser, err := headless.Context(ctx, browser, 1200, 1000)
	if err != nil {
		fatal(err)
	}
	defer closeBrowser()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		fatal(err)
	}
	var times []time.Duration
	for range 5 {
		t0 := time.Now()
		err := chromedp.Do(ctx, chromedp.Navigate(s.base+"/?token="+s.token))
		if err == nil {
			_, err = chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector("#live.on") != null && document.querySelector("#charts svg") != null`))
		}
		if err != nil {
			fatal(err)
		}
		times = append(times, time.Since(t0))
	}
	fmt.Printf("first load: %s to the page with its charts in headless Chromium (median of 5)\n", ms(quantile(times, 0.5)))
}

func quantile(d []time.Duration, q float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[max(int(math.Ceil(q*float64(len(s))))-1, 0)]
}

func mean(d []time.Duration) time.Duration {
	var sum time.Duration
	for _, v := range d {
		sum += v
	}
	return sum / time.Duration(len(d))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
