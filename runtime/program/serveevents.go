package program

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/bocdev/boc/runtime/journal"
)

// The event stream of serve: the study's status, sent again whenever the
// journal changes, whoever changed it.

const (
	// watchInterval is how often the server looks for what other
	// processes recorded.
	watchInterval = 500 * time.Millisecond
	// streamKeepAlive is how often an idle event stream sends a comment,
	// so that proxies do not cut it.
	streamKeepAlive = 25 * time.Second
)

// watch looks at the journal every watchInterval until ctx ends, so that
// the event streams hear of what other processes record (the command
// line, runs, other servers). It reads the events only, without
// replaying the study.
func (s *server) watch(ctx context.Context) {
	tick := time.NewTicker(watchInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		s.mu.Lock()
		n := -1
		err := s.live.store.Transact(func(all []journal.Event) ([]journal.Event, error) {
			n = studyEvents(all, s.live.name)
			return nil, nil
		})
		s.mu.Unlock()
		if err == nil {
			s.changes.set(n)
		}
	}
}

// closeStreams ends the event streams, for a shutdown.
func (s *server) closeStreams() { s.closingOnce.Do(func() { close(s.closing) }) }

// changes announces new versions of the study (its event count).
type changes struct {
	mu      sync.Mutex
	version int
	changed chan struct{} // closed when version changes
}

func (c *changes) set(version int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if version != c.version {
		c.version = version
		close(c.changed)
		c.changed = make(chan struct{})
	}
}

// next returns the channel closed at the next change.
func (c *changes) next() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.changed
}

// events streams the study's status (server-sent events): now, and again
// whenever the journal changes, whoever changed it.
func (s *server) events(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	if err := rc.SetWriteDeadline(time.Time{}); err != nil {
		writeJSONError(w, http.StatusInternalServerError, "this connection cannot stream events: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	keepAlive := time.NewTicker(streamKeepAlive)
	defer keepAlive.Stop()
	sent := -1
	for {
		changed := s.changes.next()
		b, version, err := s.status()
		switch {
		case err != nil:
			fmt.Fprintf(w, "event: failure\ndata: %s\n\n", jsonString(err.Error()))
		case version != sent:
			fmt.Fprintf(w, "event: status\ndata: %s\n\n", b)
			sent = version
		}
		if err := rc.Flush(); err != nil {
			return
		}
		select {
		case <-changed:
		case <-keepAlive.C:
			fmt.Fprint(w, ": keep-alive\n\n")
		case <-r.Context().Done():
			return
		case <-s.closing:
			return
		}
	}
}

// jsonString is s as a JSON string.
func jsonString(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}
