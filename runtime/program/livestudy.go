package program

import "github.com/bocdev/boc/runtime/journal"

// liveStudy is a study kept open across transactions by a long-lived
// process (run --journal, serve). It holds nothing the journal does not:
// its study is only a replay saved for the next transaction, used while it
// is exact.
type liveStudy struct {
	p     Problem
	store journal.Store
	name  string
	// s is the study as the last transaction left it; nil when the next
	// one must replay it (see transact).
	s *study
}

// transact runs fn on the study under the journal's lock and records the
// events it returns, after the study's opening when the journal has none.
// The study is replayed from the journal unless the last transaction's
// study is still exact: nobody else wrote to it since, and its session is
// not stale (study.stale).
func (l *liveStudy) transact(fn func(s *study) ([]journal.Event, error)) error {
	err := l.store.Transact(func(all []journal.Event) ([]journal.Event, error) {
		s := l.s
		if s == nil || s.stale || studyEvents(all, l.name) != s.events {
			var err error
			if s, err = replay(l.p, l.name, all); err != nil {
				return nil, err
			}
		}
		l.s = nil // until the events are recorded
		var add []journal.Event
		if !s.opened {
			add = append(add, s.opening(l.p))
			s.opened = true
		}
		more, err := fn(s)
		if err != nil {
			return nil, err
		}
		add = append(add, more...)
		s.events += len(add)
		l.s = s
		return add, nil
	})
	if err != nil {
		l.s = nil
	}
	return err
}

// studyEvents counts the events of study name.
func studyEvents(all []journal.Event, name string) int {
	n := 0
	for _, e := range all {
		if e.Study == name {
			n++
		}
	}
	return n
}
