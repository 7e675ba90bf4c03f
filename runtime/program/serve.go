package program

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/bocdev/boc/runtime/journal"
)

// The command serve: a study on the web, for the people who tell its
// results from a browser at the bench and for scripts on other machines.
// The server is one more process sharing the journal (docs/serve.md).

// Timeouts of the server's connections. An ask may replay a long study
// and fit its model, so a response may take a while; the event stream
// lifts the write deadline for itself.
const (
	serveReadHeaderTimeout = 10 * time.Second
	serveReadTimeout       = time.Minute
	serveWriteTimeout      = 2 * time.Minute
	serveIdleTimeout       = 2 * time.Minute
	serveShutdownTimeout   = 5 * time.Second
)

func serveCommand(ctx context.Context, p Problem, args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet(p.Name+" serve", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	var f studyFlags
	f.registerStudy(p, flags)
	listen := flags.String("listen", "127.0.0.1:8080", "")
	tokenFile := flags.String("token-file", "", "")
	if code, ok := parseFlags(p, flags, "serve", args, stdout, stderr); !ok {
		return code
	}
	if p.NewSession == nil {
		fmt.Fprintf(stderr, "%s: serve: this program was built without ask and tell\n", p.Name)
		return ExitUsage
	}
	token, err := serveToken(*listen, *tokenFile)
	if err != nil {
		fmt.Fprintf(stderr, "%s: serve: %v\n", p.Name, err)
		return ExitUsage
	}
	store, err := journal.OpenStore(f.journal, f.study)
	if err != nil {
		printError(stderr, p, err)
		return ExitFailure
	}
	defer store.Close()
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		printError(stderr, p, err)
		return ExitFailure
	}
	srv, err := newServer(p, store, f, token, ln.Addr())
	if err != nil {
		ln.Close()
		printError(stderr, p, err)
		return ExitFailure
	}
	for _, w := range store.Warnings() {
		fmt.Fprintf(stderr, "%s: warning: %s\n", p.Name, w)
	}
	fmt.Fprintf(stdout, "%s: serving study %s of journal %s; open\n    %s\n", p.Name, f.study, f.journal, pageAddress(ln.Addr(), token))
	httpServer := &http.Server{Handler: srv, ReadHeaderTimeout: serveReadHeaderTimeout, ReadTimeout: serveReadTimeout,
		WriteTimeout: serveWriteTimeout, IdleTimeout: serveIdleTimeout}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go srv.watch(ctx)
	go func() {
		<-ctx.Done()
		shutdown, done := context.WithTimeout(context.Background(), serveShutdownTimeout)
		defer done()
		srv.closeStreams()
		httpServer.Shutdown(shutdown)
	}()
	if err := httpServer.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		printError(stderr, p, err)
		return ExitFailure
	}
	return ExitOK
}

// serveToken returns the token every request to a server listening at
// listen must carry: the first line of tokenFile, or a random one. A
// server beyond the loopback needs a token file, so that the token is one
// the people who use it chose to share, not one printed on a console.
func serveToken(listen, tokenFile string) (string, error) {
	host, _, err := net.SplitHostPort(listen)
	if err != nil {
		return "", fmt.Errorf("--listen %s: want HOST:PORT, as 127.0.0.1:8080", listen)
	}
	if tokenFile == "" {
		if !loopback(host) {
			return "", fmt.Errorf("--listen %s reaches beyond this machine: give the token with --token-file F (a file only you can read), "+
				"or listen on 127.0.0.1 and put a reverse proxy with TLS in front (docs/serve.md)", listen)
		}
		return rand.Text(), nil
	}
	b, err := os.ReadFile(tokenFile)
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	token, _, _ := strings.Cut(string(b), "\n")
	token = strings.TrimSpace(token)
	if len(token) < minTokenLength || strings.IndexFunc(token, func(r rune) bool { return !urlSafe(r) }) >= 0 {
		return "", fmt.Errorf("--token-file %s: the token (its first line) must be at least %d letters, digits, '-', '_', '.' or '~'", tokenFile, minTokenLength)
	}
	return token, nil
}

// minTokenLength bounds a token from a file from below: 16 characters of
// 66 are 96 bits, beyond guessing over a network.
const minTokenLength = 16

// urlSafe reports whether r may appear unescaped in a URL's query.
func urlSafe(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.~", r)
}

// loopback reports whether host names this machine's loopback interface.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// pageAddress is the address of the lab page with its token, as serve
// prints it: the listener's, with this machine's name for an unspecified
// host (0.0.0.0).
func pageAddress(addr net.Addr, token string) string {
	host, port, _ := net.SplitHostPort(addr.String())
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
		if name, err := os.Hostname(); err == nil {
			host = name
		}
	}
	return "http://" + net.JoinHostPort(host, port) + "/?token=" + token
}
