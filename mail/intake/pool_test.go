package intake

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store"
)

// The tests of concurrent handling use mails with keys ("X-Keys: a b",
// none for a barrier) and a handler that works like the desk's: it
// records a mail with its Message-ID mark in one store transaction, and
// recognises a mail already recorded.

// stuckAfter bounds every wait below: a safety net against a hang, never
// a timing expectation.
const stuckAfter = 2 * time.Minute

var keysRE = regexp.MustCompile(`(?m)^X-Keys: (.*?)\r?$`)

func keyedMail(n int, keys ...string) []byte {
	h := ""
	if len(keys) > 0 {
		h = "X-Keys: " + strings.Join(keys, " ") + "\r\n"
	}
	return fmt.Appendf(nil, "From: p@example.org\r\nTo: umpire@example.org\r\nMessage-ID: <%d@test>\r\nSubject: mail %d\r\n%s\r\nbody %d\r\n", n, n, h, n)
}

func mailKeys(raw []byte) []string {
	m := keysRE.FindSubmatch(raw)
	if m == nil {
		return nil
	}
	return strings.Fields(string(m[1]))
}

// desk is the handler: it records each mail once in st, and keeps a log
// of what it did ("start N", "end N", "again N", "fail N"), checking as it
// goes that no two mails sharing a key, and no barrier and another mail,
// are ever handled at the same time.
type desk struct {
	t  *testing.T
	st store.Store

	mu       sync.Mutex
	log      []string
	inFlight map[int][]string // mail → its keys (nil: a barrier)

	// before, when set, is called as mail n starts (outside the lock); an
	// error it returns fails the mail, recording nothing.
	before func(n int) error
	// after, when set, is called once mail n is recorded.
	after func(n int)
}

func newDesk(t *testing.T, st store.Store) *desk {
	return &desk{t: t, st: st, inFlight: map[int][]string{}}
}

func (d *desk) handle(ctx context.Context, raw []byte) (referee.Folder, error) {
	m := numRE.FindSubmatch(raw)
	if m == nil {
		return 0, fmt.Errorf("not a test mail: %q", raw)
	}
	n, _ := strconv.Atoi(string(m[1]))
	keys := mailKeys(raw)
	d.begin(n, keys)
	defer d.finish(n)
	if d.before != nil {
		if err := d.before(n); err != nil {
			d.note("fail", n)
			return 0, err
		}
	}
	mark := "msgid:" + strconv.Itoa(n)
	seen, err := d.st.Marked(ctx, mark)
	if err != nil {
		return 0, err
	}
	if seen {
		d.note("again", n)
		return referee.Processed, nil
	}
	if _, err := d.st.Append(ctx, store.Batch{Marks: []string{mark}}); err != nil {
		return 0, err
	}
	d.note("end", n)
	if d.after != nil {
		d.after(n)
	}
	return referee.Processed, nil
}

func (d *desk) begin(n int, keys []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for o, ok := range d.inFlight {
		switch {
		case keys == nil || ok == nil:
			d.t.Errorf("mail %d (keys %q) started while mail %d (keys %q) was in hand, and one of them is a barrier", n, keys, o, ok)
		case slices.ContainsFunc(keys, func(k string) bool { return slices.Contains(ok, k) }):
			d.t.Errorf("mail %d (keys %q) started while mail %d (keys %q) was in hand", n, keys, o, ok)
		}
	}
	d.inFlight[n] = keys
	d.log = append(d.log, fmt.Sprintf("start %d", n))
}

func (d *desk) finish(n int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.inFlight, n)
}

func (d *desk) note(what string, n int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.log = append(d.log, fmt.Sprintf("%s %d", what, n))
}

// recorded lists the mails recorded ("end"), in the order they were.
func (d *desk) recorded() []int {
	return d.numbers("end")
}

func (d *desk) numbers(what string) []int {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []int
	for _, l := range d.log {
		if n, ok := strings.CutPrefix(l, what+" "); ok {
			i, _ := strconv.Atoi(n)
			out = append(out, i)
		}
	}
	return out
}

// index is where an entry is in the log (-1: not there).
func (d *desk) index(entry string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Index(d.log, entry)
}

func keyedIntake(t *testing.T, srv *mailtest.IMAP, st store.Store, d *desk, workers int) *Intake {
	in := newIntake(t, srv, st, &recorder{})
	in.Handle, in.Keys, in.Workers = d.handle, mailKeys, workers
	return in
}

// wait receives from ch, or fails the test after stuckAfter.
func wait(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(stuckAfter):
		t.Fatalf("gave up waiting %v for %s", stuckAfter, what)
	}
}

// TestConcurrentKeepsKeyOrder: mails of two games, interleaved, with a
// few of both and a barrier among them, handled by four workers: the
// mails of each game are recorded in UID order, a barrier alone, and
// mails of different games at the same time (the first mail of game a
// waits until a mail of game b is in hand, which one-at-a-time handling
// would never give it).
func TestConcurrentKeepsKeyOrder(t *testing.T) {
	srv := mailtest.StartIMAP(t)
	var raws [][]byte
	keysOf := map[int][]string{}
	for n := 1; n <= 40; n++ {
		var keys []string
		switch {
		case n == 25:
			keys = nil // a barrier: a referee's command, say
		case n%10 == 7:
			keys = []string{"game:a", "game:b"}
		case n%2 == 1:
			keys = []string{"game:a"}
		default:
			keys = []string{"game:b"}
		}
		keysOf[n] = keys
		raws = append(raws, keyedMail(n, keys...))
	}
	srv.Deliver(raws...)
	st := store.NewMemory()
	d := newDesk(t, st)
	bStarted := make(chan struct{})
	var once sync.Once
	d.before = func(n int) error {
		switch n {
		case 1:
			wait(t, bStarted, "a mail of game b to start while the first of game a is in hand")
		case 2:
			once.Do(func() { close(bStarted) })
		}
		return nil
	}
	in := keyedIntake(t, srv, st, d, 4)
	conn := dial(t, in)
	got, err := conn.Cycle(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got != (Stats{Fetched: 40, Processed: 40}) {
		t.Errorf("stats %+v", got)
	}
	rec := d.recorded()
	if len(rec) != 40 {
		t.Fatalf("recorded %v", rec)
	}
	for _, key := range []string{"game:a", "game:b"} {
		var order []int
		for _, n := range rec {
			if slices.Contains(keysOf[n], key) || keysOf[n] == nil {
				order = append(order, n)
			}
		}
		if !slices.IsSorted(order) {
			t.Errorf("the mails of %s (and the barrier) were recorded in the order %v", key, order)
		}
	}
	// The barrier: after every earlier mail, before every later one.
	bar := d.index("start 25")
	for n := 1; n <= 40; n++ {
		if n < 25 && d.index(fmt.Sprintf("end %d", n)) > bar || n > 25 && d.index(fmt.Sprintf("start %d", n)) < d.index("end 25") {
			t.Errorf("mail %d crossed the barrier: %v", n, d.log)
		}
	}
	if d.index("start 2") > d.index("end 1") {
		t.Errorf("mail 2 of game b waited for mail 1 of game a: %v", d.log)
	}
	if n := len(srv.Folder("umpire-processed")); n != 40 || len(srv.Folder("INBOX")) != 0 {
		t.Errorf("%d mails filed, inbox %v", n, numbers(t, srv.Folder("INBOX")))
	}
	if last := meta(t, in, "lastuid"); last != 40 {
		t.Errorf("lastuid %d", last)
	}
}

// TestConcurrentFailure: a mail fails in the middle of a chunk. The mails
// of other keys are recorded and filed, those of its key after it are not
// started, and the last UID stops before it; the next cycle handles it and
// the rest of its key, in order, and nothing else.
func TestConcurrentFailure(t *testing.T) {
	srv := mailtest.StartIMAP(t)
	// UIDs 1..8: a1 b2 a3 b4 a5 b6 a7 b8; b4 fails once.
	for n := 1; n <= 8; n++ {
		srv.Deliver(keyedMail(n, map[bool]string{true: "game:a", false: "game:b"}[n%2 == 1]))
	}
	st := store.NewMemory()
	d := newDesk(t, st)
	failed := false
	d.before = func(n int) error {
		if n == 4 && !failed {
			failed = true // mail 4 is handled by one goroutine at a time
			return errors.New("the store is broken")
		}
		return nil
	}
	in := keyedIntake(t, srv, st, d, 4)
	conn := dial(t, in)
	got, err := conn.Cycle(context.Background())
	if err == nil || !strings.Contains(err.Error(), "UID 4") {
		t.Fatalf("cycle: %+v %v", got, err)
	}
	if got != (Stats{Fetched: 6, Processed: 5}) {
		t.Errorf("stats %+v", got)
	}
	rec := d.recorded()
	slices.Sort(rec)
	if !slices.Equal(rec, []int{1, 2, 3, 5, 7}) {
		t.Errorf("recorded %v, want the mails of game a and b's before the failure", rec)
	}
	if in, done := numbers(t, srv.Folder("INBOX")), numbers(t, srv.Folder("umpire-processed")); !slices.Equal(in, []int{4, 6, 8}) || !slices.Equal(done, []int{1, 2, 3, 5, 7}) {
		t.Errorf("inbox %v, processed %v", in, done)
	}
	if last := meta(t, in, "lastuid"); last != 3 {
		t.Errorf("lastuid %d, want 3 (mail 4 failed)", last)
	}
	conn.Close()

	conn = dial(t, in)
	if got, err := conn.Cycle(context.Background()); err != nil || got != (Stats{Fetched: 3, Processed: 3}) {
		t.Fatalf("second cycle: %+v %v", got, err)
	}
	if rec := d.recorded(); !slices.Equal(rec[len(rec)-3:], []int{4, 6, 8}) || len(rec) != 8 {
		t.Errorf("recorded %v", rec)
	}
	if again := d.numbers("again"); len(again) != 0 {
		t.Errorf("handled again: %v", again)
	}
	if last := meta(t, in, "lastuid"); last != 8 || len(srv.Folder("INBOX")) != 0 {
		t.Errorf("lastuid %d, inbox %v", last, numbers(t, srv.Folder("INBOX")))
	}
}

// TestConcurrentUnfiled: mails recorded beyond a failed one that could not
// be filed (the connection broke) are fetched again in the next cycle,
// recognised by their marks and filed, not recorded twice.
func TestConcurrentUnfiled(t *testing.T) {
	srv := mailtest.StartIMAP(t)
	// a1 b2 a3 b4: b2 fails once after a3 is recorded, and breaks the
	// connection, so that nothing is filed.
	for n := 1; n <= 4; n++ {
		srv.Deliver(keyedMail(n, map[bool]string{true: "game:a", false: "game:b"}[n%2 == 1]))
	}
	st := store.NewMemory()
	d := newDesk(t, st)
	in := keyedIntake(t, srv, st, d, 4)
	conn := dial(t, in)
	a3 := make(chan struct{})
	d.after = func(n int) {
		if n == 3 {
			close(a3)
		}
	}
	failed := false
	d.before = func(n int) error {
		if n == 2 && !failed {
			failed = true
			wait(t, a3, "mail 3 to be recorded")
			conn.Close()
			return errors.New("the store is broken")
		}
		return nil
	}
	if got, err := conn.Cycle(context.Background()); err == nil {
		t.Fatalf("cycle: %+v %v", got, err)
	}
	if rec := d.recorded(); !slices.Equal(rec, []int{1, 3}) {
		t.Errorf("recorded %v", rec)
	}
	if inbox := numbers(t, srv.Folder("INBOX")); !slices.Equal(inbox, []int{1, 2, 3, 4}) || meta(t, in, "lastuid") != 0 {
		t.Fatalf("inbox %v, lastuid %d: want all four still there", inbox, meta(t, in, "lastuid"))
	}

	d.after, d.before = nil, nil
	conn = dial(t, in)
	if got, err := conn.Cycle(context.Background()); err != nil || got != (Stats{Fetched: 4, Processed: 4}) {
		t.Fatalf("second cycle: %+v %v", got, err)
	}
	again := d.numbers("again")
	slices.Sort(again)
	if rec := d.recorded(); !slices.Equal(rec[2:], []int{2, 4}) || !slices.Equal(again, []int{1, 3}) {
		t.Errorf("recorded %v, handled again %v: want 2 and 4 recorded, 1 and 3 recognised", rec, again)
	}
	if len(srv.Folder("INBOX")) != 0 || len(srv.Folder("umpire-processed")) != 4 || meta(t, in, "lastuid") != 4 {
		t.Errorf("inbox %v, processed %v, lastuid %d", numbers(t, srv.Folder("INBOX")), numbers(t, srv.Folder("umpire-processed")), meta(t, in, "lastuid"))
	}
}

// TestConcurrentShutdown: when the context ends while mails are in hand,
// they are finished and filed, no other mail is started, and the last UID
// is theirs when they are the first ones.
func TestConcurrentShutdown(t *testing.T) {
	srv := mailtest.StartIMAP(t)
	// a1 b2 a3 b4 c5, two workers: a1 and b2 are in hand when the
	// daemon is told to stop.
	for n, k := range []string{"game:a", "game:b", "game:a", "game:b", "game:c"} {
		srv.Deliver(keyedMail(n+1, k))
	}
	st := store.NewMemory()
	d := newDesk(t, st)
	started := make(chan struct{}, 2)
	release := make(chan struct{})
	d.before = func(n int) error {
		if n <= 2 {
			started <- struct{}{}
			wait(t, release, "the test to let the mails in hand go on")
		}
		return nil
	}
	in := keyedIntake(t, srv, st, d, 2)
	conn := dial(t, in)
	ctx, cancel := context.WithCancel(context.Background())
	type cycled struct {
		st  Stats
		err error
	}
	res := make(chan cycled, 1)
	go func() {
		st, err := conn.Cycle(ctx)
		res <- cycled{st, err}
	}()
	for range 2 {
		select {
		case <-started:
		case <-time.After(stuckAfter):
			t.Fatal("the first two mails were not both taken in hand")
		}
	}
	cancel()
	close(release)
	r := <-res
	if r.err != nil || r.st != (Stats{Fetched: 2, Processed: 2}) {
		t.Fatalf("cycle: %+v %v", r.st, r.err)
	}
	if rec := d.recorded(); len(rec) != 2 {
		t.Errorf("recorded %v, want the two in hand only", rec)
	}
	if in, done := numbers(t, srv.Folder("INBOX")), numbers(t, srv.Folder("umpire-processed")); !slices.Equal(in, []int{3, 4, 5}) || !slices.Equal(done, []int{1, 2}) {
		t.Errorf("inbox %v, processed %v", in, done)
	}
	if last := meta(t, in, "lastuid"); last != 2 {
		t.Errorf("lastuid %d", last)
	}

	d.before = nil
	if got, err := conn.Cycle(context.Background()); err != nil || got != (Stats{Fetched: 3, Processed: 3}) {
		t.Fatalf("cycle after the restart: %+v %v", got, err)
	}
	if rec := d.recorded(); len(rec) != 5 || len(d.numbers("again")) != 0 {
		t.Errorf("recorded %v, again %v", rec, d.numbers("again"))
	}
}

// TestOrder: the mails each waits for (no keys, nil or empty: a barrier).
func TestOrder(t *testing.T) {
	mk := func(keys ...[]string) []*job {
		var jobs []*job
		for _, k := range keys {
			jobs = append(jobs, &job{keys: k})
		}
		return jobs
	}
	jobs := mk([]string{"a"}, []string{"b"}, []string{"a", "b"}, nil, []string{"c"}, []string{"a"}, []string{}, []string{"b"})
	jobs[1].state = gone
	order(jobs)
	want := [][]int{{-1}, nil, {-1, 0}, {0, 2, -1}, {3}, {3}, {4, 5, 3}, {6}}
	for i, j := range jobs {
		if !slices.Equal(j.after, want[i]) {
			t.Errorf("job %d waits for %v, want %v", i, j.after, want[i])
		}
	}
}
