package intake

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"

	"github.com/umpire-pbem/umpire/mail/mailtest"
	"github.com/umpire-pbem/umpire/store"
)

// tiny is the poll interval given to Wait in these tests: it has passed
// by the time Wait looks, so Wait says "new mail" only when it saw some
// before idling, never because the server happened to be quick.
const tiny = time.Nanosecond

func waitWake(t *testing.T, conn *Conn) Wake {
	t.Helper()
	w, err := conn.Wait(context.Background(), tiny)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func cycle(t *testing.T, conn *Conn, want Stats) {
	t.Helper()
	if got, err := conn.Cycle(context.Background()); err != nil || got != want {
		t.Fatalf("cycle: %+v %v, want %+v", got, err, want)
	}
}

// TestWaitSeesMailDeliveredAfterTheFetch: a mail that arrives after a
// cycle fetched (here while it files the mail it handled, after its last
// IMAP command) and before Wait idles is reported at once by Wait, not
// left for the next poll: IDLE only tells of what changes while idling.
func TestWaitSeesMailDeliveredAfterTheFetch(t *testing.T) {
	srv := mailtest.StartIMAP(t)
	srv.Deliver(testMail(1, false))
	r := &recorder{}
	conn := dial(t, newIntake(t, srv, store.NewMemory(), r))
	if !conn.idle {
		t.Fatal("the test server does not offer IDLE")
	}
	Hook = func(step string) {
		if step == "moved" {
			srv.Deliver(testMail(2, false))
		}
	}
	t.Cleanup(func() { Hook = nil })
	cycle(t, conn, Stats{Fetched: 1, Processed: 1})
	Hook = nil
	if w := waitWake(t, conn); w != WokeNewMail {
		t.Fatalf("Wait returned %v with mail 2 in the inbox", w)
	}
	cycle(t, conn, Stats{Fetched: 1, Processed: 1})
	if !slices.Equal(r.got(), []int{1, 2}) {
		t.Errorf("handled %v", r.got())
	}
	if w := waitWake(t, conn); w != WokeTimer {
		t.Errorf("Wait returned %v with nothing new", w)
	}
}

// TestWaitSeesMailDeliveredBeforeWait: the same with the mail delivered
// between the end of the cycle and Wait, and on an empty inbox.
func TestWaitSeesMailDeliveredBeforeWait(t *testing.T) {
	srv := mailtest.StartIMAP(t)
	r := &recorder{}
	conn := dial(t, newIntake(t, srv, store.NewMemory(), r))
	cycle(t, conn, Stats{})
	if w := waitWake(t, conn); w != WokeTimer {
		t.Fatalf("Wait returned %v on an empty inbox", w)
	}
	srv.Deliver(testMail(1, false))
	if w := waitWake(t, conn); w != WokeNewMail {
		t.Fatalf("Wait returned %v with mail 1 in the inbox", w)
	}
	cycle(t, conn, Stats{Fetched: 1, Processed: 1})
	srv.Deliver(testMail(2, false), testMail(3, true))
	if w := waitWake(t, conn); w != WokeNewMail {
		t.Fatalf("Wait returned %v with mails 2 and 3 in the inbox", w)
	}
	cycle(t, conn, Stats{Fetched: 2, Processed: 1, Rejected: 1})
	if w := waitWake(t, conn); w != WokeTimer {
		t.Errorf("Wait returned %v with nothing new", w)
	}
}

// TestWaitNoBusyLoop: mail the intake leaves in the inbox (already handled,
// at or below the last UID, as a server that keeps moved mail would show
// it), and mail that came and went (someone else deleted it) do not make
// Wait return at once again and again.
func TestWaitNoBusyLoop(t *testing.T) {
	srv := mailtest.StartIMAP(t)
	srv.Deliver(testMail(1, false), testMail(2, false))
	inbox := srv.Folder("INBOX")
	st := store.NewMemory()
	r := &recorder{}
	in := newIntake(t, srv, st, r)
	if _, err := st.Append(context.Background(), store.Batch{Meta: map[string][]byte{
		in.metaKey("uidvalidity"): []byte(strconv.FormatUint(uint64(uidValidity(t, srv, "INBOX")), 10)),
		in.metaKey("lastuid"):     []byte(strconv.FormatUint(uint64(inbox[1].UID), 10)),
	}}); err != nil {
		t.Fatal(err)
	}
	conn := dial(t, in)
	cycle(t, conn, Stats{})
	for range 3 {
		if w := waitWake(t, conn); w != WokeTimer {
			t.Fatalf("Wait returned %v with only handled mail in the inbox", w)
		}
	}

	// A mail delivered, then deleted by someone else before the intake
	// saw it: Wait may say "new mail" once (the UIDs moved on), the cycle
	// finds nothing, and the next Wait waits.
	srv.Deliver(testMail(3, false))
	admin := srv.Client()
	defer admin.Close()
	if _, err := admin.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	gone := srv.Folder("INBOX")[2].UID
	if err := admin.Store(imap.UIDSetNum(gone), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := admin.Expunge().Close(); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Folder("INBOX")); n != 2 {
		t.Fatalf("the inbox holds %d mails", n)
	}
	if w := waitWake(t, conn); w != WokeNewMail {
		t.Fatalf("Wait returned %v after the UIDs moved on", w)
	}
	cycle(t, conn, Stats{})
	if w := waitWake(t, conn); w != WokeTimer {
		t.Errorf("Wait returned %v after a cycle that found nothing", w)
	}
	if len(r.got()) != 0 {
		t.Errorf("handled %v", r.got())
	}
}

// TestNewSinceWithoutUIDNext: a server that answers SELECT without UIDNEXT
// is asked with a UID SEARCH; mail left in the inbox does not count.
func TestNewSinceWithoutUIDNext(t *testing.T) {
	srv := mailtest.StartIMAP(t)
	srv.Deliver(testMail(1, false), testMail(2, false))
	st := store.NewMemory()
	in := newIntake(t, srv, st, &recorder{})
	uidv := uidValidity(t, srv, "INBOX")
	if _, err := st.Append(context.Background(), store.Batch{Meta: map[string][]byte{
		in.metaKey("uidvalidity"): []byte(strconv.FormatUint(uint64(uidv), 10)),
		in.metaKey("lastuid"):     []byte(strconv.FormatUint(uint64(srv.Folder("INBOX")[1].UID), 10)),
	}}); err != nil {
		t.Fatal(err)
	}
	conn := dial(t, in)
	cycle(t, conn, Stats{})
	look := func() bool {
		t.Helper()
		sel, err := conn.c.Select("INBOX", nil).Wait()
		if err != nil {
			t.Fatal(err)
		}
		cut := *sel
		cut.UIDNext = 0
		fresh, err := conn.newSince(&cut)
		if err != nil {
			t.Fatal(err)
		}
		return fresh
	}
	if look() {
		t.Error("new mail seen with only handled mail in the inbox")
	}
	srv.Deliver(testMail(3, false))
	if !look() {
		t.Error("mail 3 not seen")
	}
	// Another UIDVALIDITY, or no cycle done on this connection: new mail may be there.
	conn.seenUIDV++
	if fresh, err := conn.newSince(&imap.SelectData{UIDValidity: uidv, UIDNext: 1}); err != nil || !fresh {
		t.Errorf("UIDVALIDITY changed: %v %v", fresh, err)
	}
	conn.cycled = false
	if fresh, err := conn.newSince(&imap.SelectData{UIDValidity: uidv, UIDNext: 1}); err != nil || !fresh {
		t.Errorf("no cycle: %v %v", fresh, err)
	}
}
