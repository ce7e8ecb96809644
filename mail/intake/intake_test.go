package intake

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/emersion/go-imap/v2"

	"github.com/umpire-pbem/umpire/mail/config"
	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store"
)

// recorder is a handler that remembers the mails it was given, in order,
// and files a mail as rejected when it says "X-Test: reject". failAt makes
// the handler fail (recording nothing) on that mail number.
type recorder struct {
	mu     sync.Mutex
	seen   []int
	failAt int
	during func(n int) // called while handling mail n
}

var numRE = regexp.MustCompile(`(?m)^Subject: mail (\d+)\r?$`)

func (r *recorder) handle(_ context.Context, raw []byte) (referee.Folder, error) {
	m := numRE.FindSubmatch(raw)
	if m == nil {
		return 0, fmt.Errorf("not a test mail: %q", raw)
	}
	n, _ := strconv.Atoi(string(m[1]))
	if r.during != nil {
		r.during(n)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = append(r.seen, n)
	if n == r.failAt {
		return 0, errors.New("the store is broken")
	}
	if regexp.MustCompile(`(?m)^X-Test: reject\r?$`).Match(raw) {
		return referee.Rejected, nil
	}
	return referee.Processed, nil
}

func (r *recorder) got() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.seen)
}

func testMail(n int, reject bool) []byte {
	extra := ""
	if reject {
		extra = "X-Test: reject\r\n"
	}
	return fmt.Appendf(nil, "From: p@example.org\r\nTo: umpire@example.org\r\nMessage-ID: <%d@test>\r\nSubject: mail %d\r\n%s\r\nbody %d\r\n", n, n, extra, n)
}

func mailNumber(t *testing.T, raw []byte) int {
	t.Helper()
	m := numRE.FindSubmatch(raw)
	if m == nil {
		t.Fatalf("not a test mail: %q", raw)
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

func newIntake(t *testing.T, srv *mailtest.IMAP, st store.Store, r *recorder) *Intake {
	t.Helper()
	host, port, err := net.SplitHostPort(srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := strconv.Atoi(port)
	var c config.IMAP
	c.Server = config.Server{Host: host, Port: p, TLS: config.TLSPlain, User: srv.User}
	c.Password.Set(srv.Password)
	c.Folders = config.Folders{Inbox: "INBOX", Processed: "umpire-processed", Rejected: "umpire-rejected"}
	return &Intake{IMAP: c, Store: st, Handle: r.handle, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

func dial(t *testing.T, in *Intake) *Conn {
	t.Helper()
	conn, err := in.Dial(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

func meta(t *testing.T, in *Intake, what string) uint64 {
	t.Helper()
	v, err := in.readMeta(context.Background(), what)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// uidValidity asks the server for a folder's UIDVALIDITY.
func uidValidity(t *testing.T, srv *mailtest.IMAP, folder string) uint32 {
	t.Helper()
	c := srv.Client()
	defer c.Close()
	d, err := c.Status(folder, &imap.StatusOptions{UIDValidity: true}).Wait()
	if err != nil {
		t.Fatal(err)
	}
	return d.UIDValidity
}

func numbers(t *testing.T, msgs []mailtest.Message) []int {
	t.Helper()
	var out []int
	for _, m := range msgs {
		out = append(out, mailNumber(t, m.Raw))
	}
	return out
}

func allSeen(msgs []mailtest.Message) bool {
	for _, m := range msgs {
		if !slices.Contains(m.Flags, imap.FlagSeen) {
			return false
		}
	}
	return true
}

func TestFoldersCreated(t *testing.T) {
	srv := mailtest.StartIMAP(t)
	in := newIntake(t, srv, store.NewMemory(), &recorder{})
	in.IMAP.Folders.Processed, in.IMAP.Folders.Rejected = "done", "bounced"
	if srv.Folder("done") != nil || srv.Folder("bounced") != nil {
		t.Fatal("the folders exist before the first Dial")
	}
	dial(t, in).Close()
	if srv.Folder("done") == nil || srv.Folder("bounced") == nil {
		t.Fatal("the folders were not created")
	}
	// Existing folders are fine.
	conn := dial(t, in)
	if _, err := conn.Cycle(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestCycle: mail is handled in UID order, across FETCH chunks, and filed
// \Seen in the processed or rejected folder; the last UID is remembered.
func TestCycle(t *testing.T) {
	srv := mailtest.StartIMAP(t)
	var raws [][]byte
	for n := 1; n <= 7; n++ {
		raws = append(raws, testMail(n, n%3 == 0))
	}
	srv.Deliver(raws...)
	r := &recorder{}
	st := store.NewMemory()
	in := newIntake(t, srv, st, r)
	in.Chunk = 3
	conn := dial(t, in)
	got, err := conn.Cycle(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got != (Stats{Fetched: 7, Processed: 5, Rejected: 2}) {
		t.Errorf("stats %+v", got)
	}
	if !slices.Equal(r.got(), []int{1, 2, 3, 4, 5, 6, 7}) {
		t.Errorf("handled %v", r.got())
	}
	if inbox := srv.Folder("INBOX"); len(inbox) != 0 {
		t.Errorf("the inbox still holds %v", numbers(t, inbox))
	}
	done, bounced := srv.Folder("umpire-processed"), srv.Folder("umpire-rejected")
	if !slices.Equal(numbers(t, done), []int{1, 2, 4, 5, 7}) || !allSeen(done) {
		t.Errorf("processed: %v %+v", numbers(t, done), done)
	}
	if !slices.Equal(numbers(t, bounced), []int{3, 6}) || !allSeen(bounced) {
		t.Errorf("rejected: %v %+v", numbers(t, bounced), bounced)
	}
	if v, last := meta(t, in, "uidvalidity"), meta(t, in, "lastuid"); v != uint64(uidValidity(t, srv, "INBOX")) || last != 7 {
		t.Errorf("meta: uidvalidity %d, lastuid %d", v, last)
	}
	// Nothing new: nothing happens.
	if got, err := conn.Cycle(context.Background()); err != nil || got != (Stats{}) {
		t.Errorf("second cycle: %+v %v", got, err)
	}
	// New mail on the same connection.
	srv.Deliver(testMail(8, false))
	if got, err := conn.Cycle(context.Background()); err != nil || got != (Stats{Fetched: 1, Processed: 1}) {
		t.Errorf("third cycle: %+v %v", got, err)
	}
	if last := meta(t, in, "lastuid"); last != 8 {
		t.Errorf("lastuid %d", last)
	}
}

// TestPeek: the mail stays unread in the inbox while it is fetched and
// handled, is flagged \Seen only after the handler committed, and is moved
// after that.
func TestPeek(t *testing.T) {
	srv := mailtest.StartIMAP(t)
	srv.Deliver(testMail(1, false))
	type view struct {
		step        string
		inbox, done []mailtest.Message
	}
	var views []view
	look := func(step string) {
		views = append(views, view{step, srv.Folder("INBOX"), srv.Folder("umpire-processed")})
	}
	Hook = look
	t.Cleanup(func() { Hook = nil })
	r := &recorder{during: func(int) { look("handling") }}
	conn := dial(t, newIntake(t, srv, store.NewMemory(), r))
	if _, err := conn.Cycle(context.Background()); err != nil {
		t.Fatal(err)
	}
	var steps []string
	for _, v := range views {
		steps = append(steps, v.step)
		inSeen := len(v.inbox) == 1 && slices.Contains(v.inbox[0].Flags, imap.FlagSeen)
		switch v.step {
		case "fetched", "handling", "committed":
			if len(v.inbox) != 1 || inSeen || len(v.done) != 0 {
				t.Errorf("%s: inbox %+v, processed %+v: want the mail unread in the inbox", v.step, v.inbox, v.done)
			}
		case "flagged":
			if !inSeen || len(v.done) != 0 {
				t.Errorf("%s: inbox %+v, processed %+v: want the mail \\Seen in the inbox", v.step, v.inbox, v.done)
			}
		case "moved":
			if len(v.inbox) != 0 || len(v.done) != 1 || !allSeen(v.done) {
				t.Errorf("%s: inbox %+v, processed %+v: want the mail \\Seen in processed", v.step, v.inbox, v.done)
			}
		}
	}
	if !slices.Equal(steps, []string{"fetched", "handling", "committed", "flagged", "moved"}) {
		t.Errorf("steps %v", steps)
	}
}

// TestResumeFromMeta: mail at or below the last UID in the store's meta is
// not handled again (nor touched); the rest is.
func TestResumeFromMeta(t *testing.T) {
	srv := mailtest.StartIMAP(t)
	srv.Deliver(testMail(1, false), testMail(2, false), testMail(3, false))
	inbox := srv.Folder("INBOX")
	st := store.NewMemory()
	r := &recorder{}
	in := newIntake(t, srv, st, r)
	// As a previous run would have left it, after handling the first two
	// (a server keeping moved mail in the inbox, say).
	uidv := uidValidity(t, srv, "INBOX")
	if _, err := st.Append(context.Background(), store.Batch{Meta: map[string][]byte{
		in.metaKey("uidvalidity"): []byte(strconv.FormatUint(uint64(uidv), 10)),
		in.metaKey("lastuid"):     []byte(strconv.FormatUint(uint64(inbox[1].UID), 10)),
	}}); err != nil {
		t.Fatal(err)
	}
	conn := dial(t, in)
	if got, err := conn.Cycle(context.Background()); err != nil || got != (Stats{Fetched: 1, Processed: 1}) {
		t.Fatalf("cycle: %+v %v", got, err)
	}
	if !slices.Equal(r.got(), []int{3}) {
		t.Errorf("handled %v", r.got())
	}
	left := srv.Folder("INBOX")
	if !slices.Equal(numbers(t, left), []int{1, 2}) || slices.ContainsFunc(left, func(m mailtest.Message) bool { return len(m.Flags) > 0 }) {
		t.Errorf("inbox %+v", left)
	}
	if last := meta(t, in, "lastuid"); last != uint64(inbox[2].UID) {
		t.Errorf("lastuid %d", last)
	}
}

// TestRestart: a handler failure stops the cycle after filing what was
// handled; after a restart (a new connection and intake on the same store)
// the failed mail and the later ones are handled, the filed ones are not.
func TestRestart(t *testing.T) {
	srv := mailtest.StartIMAP(t)
	srv.Deliver(testMail(1, false), testMail(2, true), testMail(3, false), testMail(4, false))
	st := store.NewMemory()
	r := &recorder{failAt: 3}
	in := newIntake(t, srv, st, r)
	conn := dial(t, in)
	got, err := conn.Cycle(context.Background())
	if err == nil || got != (Stats{Fetched: 3, Processed: 1, Rejected: 1}) {
		t.Fatalf("cycle: %+v %v", got, err)
	}
	if !slices.Equal(numbers(t, srv.Folder("INBOX")), []int{3, 4}) {
		t.Errorf("inbox after the failure: %v", numbers(t, srv.Folder("INBOX")))
	}
	lastBefore := meta(t, in, "lastuid")
	conn.Close()

	srv.Deliver(testMail(5, false))
	r2 := &recorder{}
	in2 := newIntake(t, srv, st, r2)
	conn2 := dial(t, in2)
	if got, err := conn2.Cycle(context.Background()); err != nil || got != (Stats{Fetched: 3, Processed: 3}) {
		t.Fatalf("cycle after restart: %+v %v", got, err)
	}
	if !slices.Equal(r2.got(), []int{3, 4, 5}) {
		t.Errorf("handled after restart %v", r2.got())
	}
	if lastBefore != 2 || meta(t, in2, "lastuid") != 5 {
		t.Errorf("lastuid %d then %d", lastBefore, meta(t, in2, "lastuid"))
	}
	if !slices.Equal(numbers(t, srv.Folder("umpire-processed")), []int{1, 3, 4, 5}) || !slices.Equal(numbers(t, srv.Folder("umpire-rejected")), []int{2}) {
		t.Errorf("filed %v and %v", numbers(t, srv.Folder("umpire-processed")), numbers(t, srv.Folder("umpire-rejected")))
	}
}

// TestUIDValidityChange: when the inbox is recreated (new UIDVALIDITY, UIDs
// from 1 again) its mail is handled although the UIDs are below the last
// one remembered.
func TestUIDValidityChange(t *testing.T) {
	srv := mailtest.StartIMAP(t)
	admin := srv.Client()
	defer admin.Close()
	if err := admin.Create("orders", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 3; n++ {
		mailtest.Append(t, admin, "orders", testMail(n, false))
	}
	st := store.NewMemory()
	r := &recorder{}
	in := newIntake(t, srv, st, r)
	in.IMAP.Folders.Inbox = "orders"
	conn := dial(t, in)
	if got, err := conn.Cycle(context.Background()); err != nil || got.Fetched != 3 {
		t.Fatalf("cycle: %+v %v", got, err)
	}
	oldV := uidValidity(t, srv, "orders")
	if meta(t, in, "lastuid") != 3 || meta(t, in, "uidvalidity") != uint64(oldV) {
		t.Fatalf("meta %d %d", meta(t, in, "lastuid"), meta(t, in, "uidvalidity"))
	}
	conn.Close()

	if err := admin.Delete("orders").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := admin.Create("orders", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	newV := uidValidity(t, srv, "orders")
	if newV == oldV {
		t.Fatal("the server kept the UIDVALIDITY of a recreated folder")
	}
	// An empty new inbox: the new UIDVALIDITY is remembered.
	conn = dial(t, in)
	if got, err := conn.Cycle(context.Background()); err != nil || got != (Stats{}) {
		t.Fatalf("cycle on the empty new inbox: %+v %v", got, err)
	}
	if meta(t, in, "uidvalidity") != uint64(newV) || meta(t, in, "lastuid") != 0 {
		t.Errorf("meta after the change %d %d", meta(t, in, "uidvalidity"), meta(t, in, "lastuid"))
	}
	conn.Close()

	// Same again with mail already waiting in the recreated inbox.
	if err := admin.Delete("orders").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := admin.Create("orders", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	for n := 4; n <= 5; n++ {
		mailtest.Append(t, admin, "orders", testMail(n, false))
	}
	if uids := srv.Folder("orders"); uids[len(uids)-1].UID > 3 {
		t.Fatalf("the recreated folder's UIDs go on from the old ones: %+v", uids)
	}
	conn = dial(t, in)
	if got, err := conn.Cycle(context.Background()); err != nil || got != (Stats{Fetched: 2, Processed: 2}) {
		t.Fatalf("cycle after the change: %+v %v", got, err)
	}
	if !slices.Equal(r.got(), []int{1, 2, 3, 4, 5}) {
		t.Errorf("handled %v", r.got())
	}
	if meta(t, in, "uidvalidity") != uint64(uidValidity(t, srv, "orders")) || meta(t, in, "lastuid") != 2 {
		t.Errorf("meta after the change %d %d", meta(t, in, "uidvalidity"), meta(t, in, "lastuid"))
	}
}
