package intake

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/emersion/go-imap/v2"

	"github.com/umpire-pbem/umpire/mail/referee"
)

// The mails of one fetched chunk are handled by up to Workers goroutines
// at once. The order they keep is the order of their keys (Intake.Keys):
//
//   - two mails that share a key are handled one after the other, in UID
//     order: the later one starts only once the earlier one committed;
//   - a mail without keys (or every mail, when Intake.Keys is nil or
//     Workers is 1) is a barrier: it starts once every earlier mail of the
//     chunk committed, and no later mail starts before it committed;
//   - mails with disjoint keys may be handled at the same time, and a
//     later one may commit first.
//
// When a mail fails, the mails that must come after it (sharing a key,
// or any mail after a barrier that waits for it) are not started; the
// others are. Every mail that committed is filed, and the last UID saved
// is the end of the run of UIDs from the chunk's start that all committed
// (or are gone), so that the failed mail and those behind it are fetched
// again; a mail committed beyond it and not filed (the process died, the
// connection broke) is fetched again too, and the handler recognises it
// by its Message-ID mark. When ctx ends no mail is started; those in hand
// are finished and filed.

// job is one mail of a chunk.
type job struct {
	uid    imap.UID
	raw    []byte
	keys   []string
	after  []int // the indices of the earlier mails it must wait for
	state  jobState
	folder referee.Folder
	err    error
}

type jobState int

const (
	waiting   jobState = iota // not started
	running                   // given to the handler
	committed                 // the handler recorded it
	failed                    // the handler failed: nothing recorded
	gone                      // not fetched: expunged by someone else
)

func (in *Intake) workers() int {
	if in.Workers > 0 {
		return in.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// order finds, for each job, the earlier jobs it must wait for: the last
// earlier one with each of its keys, and the last barrier; a barrier waits
// for every job since the barrier before it (which waited for the rest).
func order(jobs []*job) {
	last := map[string]int{}
	barrier := -1
	var since []int
	for i, j := range jobs {
		if j.state == gone {
			continue
		}
		if len(j.keys) == 0 {
			j.after = append(since, barrier)
			barrier, since = i, nil
			clear(last)
			continue
		}
		j.after = []int{barrier}
		for _, k := range j.keys {
			if p, ok := last[k]; ok {
				j.after = append(j.after, p)
			}
			last[k] = i
		}
		since = append(since, i)
	}
}

// ready says whether job i may start: every job it waits for committed.
func ready(jobs []*job, i int) bool {
	for _, p := range jobs[i].after {
		if p >= 0 && jobs[p].state != committed {
			return false
		}
	}
	return true
}

// keys asks Intake.Keys for the keys of every job, on up to workers
// goroutines.
func (in *Intake) keys(jobs []*job, workers int) {
	var wg sync.WaitGroup
	next := make(chan *job)
	for range min(workers, len(jobs)) {
		wg.Go(func() {
			for j := range next {
				j.keys = in.Keys(j.raw)
			}
		})
	}
	for _, j := range jobs {
		if j.state != gone {
			next <- j
		}
	}
	close(next)
	wg.Wait()
}

type result struct {
	i      int
	folder referee.Folder
	err    error
}

// handleAll hands the jobs to the handler, keeping the order their keys
// require, and sets each one's state. It returns the error of the first
// mail (in UID order) that failed.
func (in *Intake) handleAll(ctx context.Context, jobs []*job, st *Stats) error {
	workers := in.workers()
	if in.Keys != nil && workers > 1 {
		in.keys(jobs, workers)
	}
	order(jobs)
	results := make(chan result, len(jobs))
	busy := 0
	for {
		if ctx.Err() == nil { // shutting down: start nothing new
			for i, j := range jobs {
				if busy == workers {
					break
				}
				if j.state != waiting {
					continue
				}
				if !ready(jobs, i) {
					continue
				}
				j.state = running
				busy++
				st.Fetched++
				go func() {
					hook("fetched")
					// The mail in hand is finished even when shutting down:
					// the handler's single transaction must not be cut in two.
					folder, err := in.Handle(context.WithoutCancel(ctx), j.raw)
					if err == nil {
						hook("committed")
					}
					results <- result{i, folder, err}
				}()
			}
		}
		if busy == 0 {
			break
		}
		r := <-results
		busy--
		j := jobs[r.i]
		if r.err != nil {
			j.state, j.err = failed, r.err
			continue
		}
		j.state, j.folder = committed, r.folder
		if r.folder == referee.Processed {
			st.Processed++
		} else {
			st.Rejected++
		}
	}
	var first *job
	n := 0
	for _, j := range jobs {
		if j.state == failed {
			if first == nil {
				first = j
			}
			n++
		}
	}
	switch {
	case n == 1:
		return fmt.Errorf("handling the mail with UID %d: %w", first.uid, first.err)
	case n > 1:
		return fmt.Errorf("handling the mail with UID %d (and %d more): %w", first.uid, n-1, first.err)
	}
	return nil
}
