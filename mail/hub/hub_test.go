package hub

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

var quiet = log.New(io.Discard, "", 0)

// testIterations makes the tests' password hashes cheap, which keeps -race
// runs under load quick; TestHashIterations checks that only a test binary
// may do this.
const testIterations = 1000

// stuck bounds a wait for something that happens at once unless the code
// is broken: a safety net against a hang, not a timing expectation.
const stuck = 2 * time.Minute

func testConfig() Config {
	return Config{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Logger: quiet, HashIterations: testIterations}
}

// startHub opens and starts a hub on dir, closing it when the test ends.
func startHub(t *testing.T, dir string) *Hub {
	t.Helper()
	h, err := Open(dir, testConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	if err := h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	return h
}

func addUser(t *testing.T, h *Hub, name, pw string) {
	t.Helper()
	if err := h.AddUser(name, pw); err != nil {
		t.Fatal(err)
	}
}

func dialIMAP(t *testing.T, h *Hub, user, pw string, opts *imapclient.Options) *imapclient.Client {
	t.Helper()
	addr, _ := h.Addrs()
	c, err := imapclient.DialInsecure(addr, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Login(user, pw).Wait(); err != nil {
		t.Fatalf("login %s: %v", user, err)
	}
	return c
}

func testMail(from, to, subject, body string) []byte {
	return []byte(fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s@test>\r\n"+
		"Date: Mon, 02 Nov 2026 10:00:00 +0000\r\n\r\n%s\r\n", from, to, subject, randomHex(6), body))
}

func appendMsg(t *testing.T, c *imapclient.Client, mbox string, raw []byte, flags ...imap.Flag) *imap.AppendData {
	t.Helper()
	cmd := c.Append(mbox, int64(len(raw)), &imap.AppendOptions{Flags: flags})
	if _, err := cmd.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := cmd.Wait()
	if err != nil {
		t.Fatalf("append: %v", err)
	}
	return data
}

func searchUIDs(t *testing.T, c *imapclient.Client, crit *imap.SearchCriteria) []imap.UID {
	t.Helper()
	data, err := c.UIDSearch(crit, nil).Wait()
	if err != nil {
		t.Fatalf("search: %v", err)
	}
	return data.AllUIDs()
}

var unseen = &imap.SearchCriteria{NotFlag: []imap.Flag{imap.FlagSeen}}

func status(t *testing.T, c *imapclient.Client, mbox string) *imap.StatusData {
	t.Helper()
	st, err := c.Status(mbox, &imap.StatusOptions{NumMessages: true, UIDNext: true, UIDValidity: true, NumUnseen: true}).Wait()
	if err != nil {
		t.Fatalf("status %s: %v", mbox, err)
	}
	return st
}

func TestIMAPClientFlow(t *testing.T) {
	h := startHub(t, t.TempDir())
	addUser(t, h, "referee", "s3cret")
	c := dialIMAP(t, h, "referee", "s3cret", nil)

	if err := c.Create("Processed", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	list, err := c.List("", "*", nil).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range list {
		names = append(names, l.Mailbox)
	}
	if !slices.Equal(names, []string{"INBOX", "Processed"}) {
		t.Errorf("LIST = %q", names)
	}

	raw := testMail("Alice <alice@umpire.local>", "referee@umpire.local", "orders turn 3", "orders: [hold]")
	ad := appendMsg(t, c, "INBOX", raw)
	if ad.UID != 1 || ad.UIDValidity == 0 {
		t.Errorf("APPENDUID = %+v", ad)
	}
	appendMsg(t, c, "INBOX", testMail("bob@umpire.local", "referee@umpire.local", "old", "x"), imap.FlagSeen)

	sel, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if sel.NumMessages != 2 || sel.UIDNext != 3 || sel.UIDValidity != ad.UIDValidity {
		t.Errorf("SELECT = %+v", sel)
	}

	if got := searchUIDs(t, c, unseen); !slices.Equal(got, []imap.UID{1}) {
		t.Fatalf("UID SEARCH UNSEEN = %v", got)
	}

	msgs, err := c.Fetch(imap.UIDSetNum(1), &imap.FetchOptions{
		UID: true, Flags: true, InternalDate: true, RFC822Size: true, Envelope: true,
		BodySection: []*imap.FetchItemBodySection{{Peek: true}},
	}).Collect()
	if err != nil || len(msgs) != 1 {
		t.Fatalf("UID FETCH: %v, %d messages", err, len(msgs))
	}
	m := msgs[0]
	if got := m.FindBodySection(&imap.FetchItemBodySection{Peek: true}); string(got) != string(raw) {
		t.Errorf("BODY.PEEK[] = %q", got)
	}
	if m.RFC822Size != int64(len(raw)) || m.InternalDate.IsZero() || m.UID != 1 {
		t.Errorf("FETCH data %+v", m)
	}
	if m.Envelope == nil || m.Envelope.Subject != "orders turn 3" || len(m.Envelope.From) != 1 || m.Envelope.From[0].Addr() != "alice@umpire.local" {
		t.Errorf("ENVELOPE = %+v", m.Envelope)
	}
	if slices.Contains(m.Flags, imap.FlagSeen) {
		t.Errorf("PEEK set \\Seen")
	}
	if got := searchUIDs(t, c, unseen); !slices.Equal(got, []imap.UID{1}) {
		t.Fatalf("after peek, UNSEEN = %v", got)
	}

	if err := c.Store(imap.UIDSetNum(1), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagSeen}, Silent: true}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if got := searchUIDs(t, c, unseen); len(got) != 0 {
		t.Fatalf("after STORE, UNSEEN = %v", got)
	}

	md, err := c.Move(imap.UIDSetNum(1), "Processed").Wait()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(uids(md.SourceUIDs), []imap.UID{1}) || !slices.Equal(uids(md.DestUIDs), []imap.UID{1}) {
		t.Errorf("MOVE = %+v", md)
	}
	if st := status(t, c, "Processed"); *st.NumMessages != 1 || *st.NumUnseen != 0 {
		t.Errorf("Processed after MOVE: %+v", st)
	}
	if sd, err := c.UIDSearch(&imap.SearchCriteria{}, nil).Wait(); err != nil || !slices.Equal(sd.AllUIDs(), []imap.UID{2}) {
		t.Errorf("INBOX after MOVE: %v %v", sd, err)
	}

	// A non-peek fetch marks \Seen.
	appendMsg(t, c, "INBOX", testMail("carol@umpire.local", "referee@umpire.local", "new", "y"))
	if err := c.Noop().Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Fetch(imap.UIDSetNum(3), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{}}}).Collect(); err != nil {
		t.Fatal(err)
	}
	if got := searchUIDs(t, c, unseen); len(got) != 0 {
		t.Errorf("after BODY[], UNSEEN = %v", got)
	}

	// COPY, then \Deleted + UID EXPUNGE removes only the chosen message.
	cd, err := c.Copy(imap.UIDSetNum(2, 3), "Processed").Wait()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(uids(cd.DestUIDs), []imap.UID{2, 3}) {
		t.Errorf("COPY = %+v", cd)
	}
	if err := c.Store(imap.UIDSetNum(2, 3), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}, Silent: true}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	exp, err := c.UIDExpunge(imap.UIDSetNum(3)).Collect()
	if err != nil || !slices.Equal(exp, []uint32{2}) {
		t.Errorf("UID EXPUNGE = %v, %v", exp, err)
	}
	exp, err = c.Expunge().Collect()
	if err != nil || !slices.Equal(exp, []uint32{1}) {
		t.Errorf("EXPUNGE = %v, %v", exp, err)
	}
	if st := status(t, c, "INBOX"); *st.NumMessages != 0 || st.UIDNext != 4 {
		t.Errorf("INBOX at end: %+v", st)
	}
	if err := c.Logout().Wait(); err != nil {
		t.Error(err)
	}
}

func uids(set imap.NumSet) []imap.UID {
	u, ok := set.(imap.UIDSet)
	if !ok {
		return nil
	}
	n, _ := u.Nums()
	return n
}

func TestIMAPAuth(t *testing.T) {
	h := startHub(t, t.TempDir())
	addUser(t, h, "alice", "pw")
	addr, _ := h.Addrs()

	for _, login := range []string{"alice", "ALICE", "alice@umpire.local", "Alice@Umpire.Local"} {
		dialIMAP(t, h, login, "pw", nil)
	}
	for _, bad := range [][2]string{{"alice", "wrong"}, {"bob", "pw"}, {"alice@elsewhere.org", "pw"}, {"", ""}} {
		c, err := imapclient.DialInsecure(addr, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Login(bad[0], bad[1]).Wait(); err == nil {
			t.Errorf("login %q/%q succeeded", bad[0], bad[1])
		}
		c.Close()
	}

	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Authenticate(sasl.NewPlainClient("", "alice", "pw")); err != nil {
		t.Fatalf("AUTHENTICATE PLAIN: %v", err)
	}
	if _, err := c.Select("inbox", nil).Wait(); err != nil {
		t.Errorf("SELECT inbox (lower case): %v", err)
	}
}

// TestIdleSeesSMTPDelivery: a client in IDLE learns of a message submitted
// by SMTP. The test checks with STATUS on a second connection that the
// message is stored when SMTP has accepted it, then waits for the EXISTS;
// the hub registers IDLE before its first poll, so the EXISTS cannot be
// lost.
func TestIdleSeesSMTPDelivery(t *testing.T) {
	h := startHub(t, t.TempDir())
	addUser(t, h, "referee", "r")
	addUser(t, h, "alice", "a")

	exists := make(chan uint32, 16)
	c := dialIMAP(t, h, "referee", "r", &imapclient.Options{
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					exists <- *d.NumMessages
				}
			},
		},
	})
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	idle, err := c.Idle()
	if err != nil {
		t.Fatal(err)
	}

	sendMail(t, h, "alice", "a", "alice@umpire.local", []string{"referee@umpire.local"},
		testMail("alice@umpire.local", "referee@umpire.local", "orders", "orders: [hold]"))

	// The hub answers the end of DATA only once the message is stored.
	poller := dialIMAP(t, h, "referee", "r", nil)
	if n := *status(t, poller, "INBOX").NumMessages; n != 1 {
		t.Fatalf("INBOX holds %d messages after SMTP said 250, want 1", n)
	}

	select {
	case n := <-exists:
		if n != 1 {
			t.Errorf("EXISTS %d, want 1", n)
		}
	case <-time.After(stuck):
		t.Fatal("no EXISTS during IDLE")
	}
	if err := idle.Close(); err != nil {
		t.Fatal(err)
	}
	if err := idle.Wait(); err != nil {
		t.Fatal(err)
	}
	got := searchUIDs(t, c, unseen)
	if !slices.Equal(got, []imap.UID{1}) {
		t.Errorf("UNSEEN after IDLE = %v", got)
	}
}

// TestIdleRace starts IDLE and delivers at once, many times, to exercise
// the window right after "+ idling" where imapmemserver loses updates.
func TestIdleRace(t *testing.T) {
	h := startHub(t, t.TempDir())
	addUser(t, h, "referee", "r")
	exists := make(chan uint32, 64)
	c := dialIMAP(t, h, "referee", "r", &imapclient.Options{
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					exists <- *d.NumMessages
				}
			},
		},
	})
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 20; i++ {
		idle, err := c.Idle()
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Deliver("referee", testMail("a@umpire.local", "referee@umpire.local", "x", "y")); err != nil {
			t.Fatal(err)
		}
		select {
		case n := <-exists:
			if n != uint32(i) {
				t.Fatalf("EXISTS %d, want %d", n, i)
			}
		case <-time.After(stuck):
			t.Fatalf("round %d: no EXISTS during IDLE", i)
		}
		if err := idle.Close(); err != nil {
			t.Fatal(err)
		}
		if err := idle.Wait(); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot is everything a client can remember about a user's mail.
type snapshot struct {
	Mailbox     string
	UIDValidity uint32
	UIDNext     imap.UID
	Messages    []string // "UID flags size"
}

func takeSnapshot(t *testing.T, c *imapclient.Client) []snapshot {
	t.Helper()
	list, err := c.List("", "*", nil).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []snapshot
	for _, l := range list {
		sel, err := c.Select(l.Mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
		if err != nil {
			t.Fatal(err)
		}
		s := snapshot{Mailbox: l.Mailbox, UIDValidity: sel.UIDValidity, UIDNext: sel.UIDNext}
		if sel.NumMessages > 0 {
			all, err := c.Fetch(imap.UIDSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{UID: true, Flags: true, RFC822Size: true, InternalDate: true}).Collect()
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range all {
				fl := slices.Clone(m.Flags)
				slices.Sort(fl)
				s.Messages = append(s.Messages, fmt.Sprintf("%d %v %d %s", m.UID, fl, m.RFC822Size, m.InternalDate.UTC().Format(time.RFC3339Nano)))
			}
		}
		out = append(out, s)
	}
	return out
}

func TestPersistence(t *testing.T) {
	dir := t.TempDir()
	h := startHub(t, dir)
	addUser(t, h, "referee", "r")
	pw, err := h.EnsureUser("alice")
	if err != nil || pw == "" {
		t.Fatalf("EnsureUser: %q, %v", pw, err)
	}
	c := dialIMAP(t, h, "referee", "r", nil)
	for _, name := range []string{"Processed", "Archive/2026"} {
		if err := c.Create(name, nil).Wait(); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 4 {
		appendMsg(t, c, "INBOX", testMail("alice@umpire.local", "referee@umpire.local", fmt.Sprint("m", i), "body"))
	}
	appendMsg(t, c, "Archive/2026", testMail("x@umpire.local", "referee@umpire.local", "old", "z"), imap.FlagAnswered, "$Orders")
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	c.Store(imap.UIDSetNum(2), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagSeen, imap.FlagFlagged}, Silent: true}, nil).Close()
	if _, err := c.Move(imap.UIDSetNum(1), "Processed").Wait(); err != nil {
		t.Fatal(err)
	}
	c.Store(imap.UIDSetNum(4), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}, Silent: true}, nil).Close()
	if _, err := c.Expunge().Collect(); err != nil {
		t.Fatal(err)
	}
	if err := h.Deliver("alice", testMail("referee@umpire.local", "alice@umpire.local", "result", "ok")); err != nil {
		t.Fatal(err)
	}
	before := takeSnapshot(t, c)
	ca := dialIMAP(t, h, "alice", pw, nil)
	beforeAlice := takeSnapshot(t, ca)
	c.Close()
	ca.Close()
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}

	h2 := startHub(t, dir)
	if got := h2.Users(); !slices.Equal(got, []string{"alice", "referee"}) {
		t.Errorf("users after reopen: %q", got)
	}
	c2 := dialIMAP(t, h2, "referee", "r", nil)
	after := takeSnapshot(t, c2)
	if fmt.Sprint(before) != fmt.Sprint(after) {
		t.Errorf("referee's mail changed across restart:\nbefore %+v\nafter  %+v", before, after)
	}
	ca2 := dialIMAP(t, h2, "alice", pw, nil)
	if got := takeSnapshot(t, ca2); fmt.Sprint(beforeAlice) != fmt.Sprint(got) {
		t.Errorf("alice's mail changed across restart:\nbefore %+v\nafter  %+v", beforeAlice, got)
	}
	if len(before) != 3 || before[0].Mailbox != "Archive/2026" || before[1].Mailbox != "INBOX" ||
		len(before[1].Messages) != 2 || before[1].UIDNext != 5 || before[2].Mailbox != "Processed" {
		t.Errorf("unexpected state %+v", before)
	}

	// New mail continues the UIDs; a deleted and re-created mailbox gets a
	// new UIDVALIDITY.
	if _, err := c2.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if ad := appendMsg(t, c2, "INBOX", testMail("a@umpire.local", "referee@umpire.local", "n", "n")); ad.UID != 5 || ad.UIDValidity != before[1].UIDValidity {
		t.Errorf("APPEND after restart = %+v", ad)
	}
	if err := c2.Delete("Processed").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c2.Create("Processed", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if st := status(t, c2, "Processed"); st.UIDValidity == before[2].UIDValidity || *st.NumMessages != 0 || st.UIDNext != 1 {
		t.Errorf("re-created Processed: %+v (old UIDVALIDITY %d)", st, before[2].UIDValidity)
	}
}

func TestOpenTwice(t *testing.T) {
	dir := t.TempDir()
	h, err := Open(dir, testConfig())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, testConfig()); err == nil {
		t.Error("second Open of the same directory succeeded")
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	h, err = Open(dir, testConfig())
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	h.Close()
	if err := h.Deliver("x", nil); !errors.Is(err, ErrClosed) && !errors.Is(err, ErrUnknownUser) {
		t.Errorf("Deliver after Close: %v", err)
	}
}

func TestStartContextCloses(t *testing.T) {
	h, err := Open(t.TempDir(), testConfig())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := h.Start(ctx); err != nil {
		t.Fatal(err)
	}
	cancel()
	<-h.done
	// Close from the context and Close here must both be safe.
	h.Close()
	addUser := h.AddUser("late", "pw")
	if !errors.Is(addUser, ErrClosed) {
		t.Errorf("AddUser after close: %v", addUser)
	}
}

func TestUsers(t *testing.T) {
	dir := t.TempDir()
	h, err := Open(dir, testConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for _, bad := range []string{"", "-x", "a b", "a/b", "..", "a..b", "x@y", strings.Repeat("a", 65), "é"} {
		if err := h.AddUser(bad, "pw"); !errors.Is(err, ErrBadUserName) {
			t.Errorf("AddUser(%q) = %v", bad, err)
		}
	}
	addUser(t, h, "Alice", "pw")
	if err := h.AddUser("alice", "pw2"); !errors.Is(err, ErrUserExists) {
		t.Errorf("duplicate AddUser: %v", err)
	}
	if pw, err := h.EnsureUser("alice"); err != nil || pw != "" {
		t.Errorf("EnsureUser(existing) = %q, %v", pw, err)
	}
	pw, err := h.EnsureUser("bob")
	if err != nil || len(pw) < 20 {
		t.Fatalf("EnsureUser(new) = %q, %v", pw, err)
	}
	if _, err := h.authenticate("bob", pw); err != nil {
		t.Errorf("generated password does not work: %v", err)
	}
	if err := h.SetPassword("bob", "new"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.authenticate("bob", pw); err == nil {
		t.Error("old password still works")
	}
	if _, err := h.authenticate("bob@umpire.local", "new"); err != nil {
		t.Errorf("new password: %v", err)
	}
	if got := h.Address("alice"); got != "alice@umpire.local" {
		t.Errorf("Address = %q", got)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "hub.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), pw) || strings.Contains(string(raw), `"pw"`) || !strings.Contains(string(raw), "pbkdf2-sha256$") {
		t.Errorf("hub.json does not look hashed:\n%s", raw)
	}
	if err := h.Deliver("carol", []byte("x")); !errors.Is(err, ErrUnknownUser) {
		t.Errorf("Deliver to unknown user: %v", err)
	}
}

func TestPasswordHash(t *testing.T) {
	h := &Hub{cfg: testConfig().withDefaults()}
	enc := h.hashPassword("correct horse")
	if !checkPassword(enc, "correct horse") || checkPassword(enc, "correct horsE") {
		t.Error("hash does not check")
	}
	if h.hashPassword("correct horse") == enc {
		t.Error("no salt")
	}
	if iter, _, _, ok := decodeHash(enc); !ok || iter != testIterations {
		t.Errorf("the hash %q does not record its %d iterations", enc, testIterations)
	}
	for _, bad := range []string{"", "plain", "pbkdf2-sha256$x$y$z", "pbkdf2-sha256$0$AAAA$AAAA", "md5$1$a$b"} {
		if checkPassword(bad, "") {
			t.Errorf("checkPassword(%q) accepted", bad)
		}
	}
	// A known vector pins the scheme: changing it would lock every user out.
	// (Cross-checked with Python's hashlib.pbkdf2_hmac.)
	const known = "pbkdf2-sha256$1000$c2FsdHNhbHRzYWx0c2FsdA$dClvKSmj66n6MdMWNv3Go4mvH1Ym2WIGiJvquqa+mfE"
	if got := encodeHash("secret", []byte("saltsaltsaltsalt"), 1000); got != known {
		t.Errorf("encodeHash = %q, want %q", got, known)
	}
	if !checkPassword(known, "secret") {
		t.Error("known hash rejected")
	}
}

// TestHashIterations is the policy that keeps cheap hashes out of the
// umpire binary: a Config that does not say otherwise hashes with OWASP's
// count, and a lower count is refused unless the program is a test binary.
func TestHashIterations(t *testing.T) {
	if DefaultHashIterations < 600_000 {
		t.Errorf("DefaultHashIterations = %d, below OWASP's 600000", DefaultHashIterations)
	}
	if got := (Config{}).withDefaults().HashIterations; got != DefaultHashIterations {
		t.Errorf("default HashIterations = %d, want %d", got, DefaultHashIterations)
	}
	for _, c := range []struct {
		n      int
		inTest bool
		ok     bool
	}{
		{DefaultHashIterations, false, true},
		{2 * DefaultHashIterations, false, true},
		{DefaultHashIterations - 1, false, false}, // the umpire binary
		{testIterations, false, false},
		{1, false, false},
		{testIterations, true, true}, // a test binary
		{1, true, true},
		{0, true, false}, // withDefaults has turned 0 into the default before
		{-5, true, false},
		{maxHashIterations + 1, false, false}, // could not be checked at login
	} {
		if err := checkHashIterations(c.n, c.inTest); (err == nil) != c.ok {
			t.Errorf("checkHashIterations(%d, inTest=%v) = %v, want ok=%v", c.n, c.inTest, err, c.ok)
		}
	}
	// Open applies the policy; in a test binary it lets testIterations through.
	if !testing.Testing() {
		t.Fatal("testing.Testing() is false in a test")
	}
	if _, err := Open(t.TempDir(), Config{HashIterations: -1}); err == nil {
		t.Error("Open accepted HashIterations -1")
	}
}

// TestHashUpgrade: a hash made with fewer iterations than the hub's (an
// older default, or a directory a test wrote) is replaced at the next
// successful login, and only then.
func TestHashUpgrade(t *testing.T) {
	dir := t.TempDir()
	h, err := Open(dir, testConfig())
	if err != nil {
		t.Fatal(err)
	}
	addUser(t, h, "alice", "pw")
	h.Close()

	cfg := testConfig()
	cfg.HashIterations = 2 * testIterations
	h, err = Open(dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	stored := func() int {
		var st hubState
		if err := readJSON(filepath.Join(dir, "hub.json"), &st); err != nil {
			t.Fatal(err)
		}
		iter, _, _, ok := decodeHash(st.Users[0].Password)
		if !ok {
			t.Fatalf("bad stored hash %q", st.Users[0].Password)
		}
		return iter
	}
	if _, err := h.authenticate("alice", "wrong"); err == nil {
		t.Fatal("wrong password accepted")
	}
	if got := stored(); got != testIterations {
		t.Errorf("after a failed login the hash has %d iterations, want %d unchanged", got, testIterations)
	}
	if _, err := h.authenticate("alice", "pw"); err != nil {
		t.Fatal(err)
	}
	if got := stored(); got != 2*testIterations {
		t.Errorf("after a login the hash has %d iterations, want %d", got, 2*testIterations)
	}
	if _, err := h.authenticate("alice", "pw"); err != nil {
		t.Errorf("the upgraded hash does not check: %v", err)
	}
}

func TestHowTo(t *testing.T) {
	h := startHub(t, t.TempDir())
	addUser(t, h, "alice", "pw")
	imapAddr, smtpAddr := h.Addrs()
	text := h.HowTo()
	for _, want := range []string{portOf(imapAddr), portOf(smtpAddr), "127.0.0.1", "alice", "umpire.local", "connection security: none"} {
		if !strings.Contains(text, want) {
			t.Errorf("HowTo lacks %q:\n%s", want, text)
		}
	}
}

func portOf(addr string) string { return addr[strings.LastIndexByte(addr, ':')+1:] }

// sendMail submits one message over plaintext loopback SMTP with AUTH PLAIN.
// smtp.SendMail insists on STARTTLS, so the client is driven by hand.
func sendMail(t *testing.T, h *Hub, user, pw, from string, to []string, raw []byte) {
	t.Helper()
	if err := trySend(h, sasl.NewPlainClient("", user, pw), from, to, raw); err != nil {
		t.Fatalf("send: %v", err)
	}
}

func trySend(h *Hub, auth sasl.Client, from string, to []string, raw []byte) error {
	_, addr := h.Addrs()
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Hello("client.test"); err != nil {
		return err
	}
	if auth != nil {
		if err := c.Auth(auth); err != nil {
			return err
		}
	}
	if err := c.SendMail(from, to, strings.NewReader(string(raw))); err != nil {
		return err
	}
	return c.Quit()
}

func smtpCode(err error) int {
	var se *smtp.SMTPError
	if errors.As(err, &se) {
		return se.Code
	}
	return 0
}

func TestSMTPSubmission(t *testing.T) {
	h := startHub(t, t.TempDir())
	addUser(t, h, "referee", "r")
	addUser(t, h, "alice", "a")
	addUser(t, h, "bob", "b")

	// Referee mails two players in one transaction, with AUTH LOGIN.
	msg := testMail("Umpire <referee@umpire.local>", "alice@umpire.local, bob@umpire.local", "turn 4", "results")
	if err := trySend(h, sasl.NewLoginClient("referee", "r"), "referee@umpire.local",
		[]string{"alice@umpire.local", "BOB@UMPIRE.LOCAL"}, msg); err != nil {
		t.Fatalf("AUTH LOGIN send: %v", err)
	}
	// Alice answers with AUTH PLAIN.
	sendMail(t, h, "alice", "a", "alice@umpire.local", []string{"referee@umpire.local"},
		testMail("alice@umpire.local", "referee@umpire.local", "orders", "orders: [hold]"))

	for _, who := range [][2]string{{"alice", "a"}, {"bob", "b"}, {"referee", "r"}} {
		c := dialIMAP(t, h, who[0], who[1], nil)
		if _, err := c.Select("INBOX", nil).Wait(); err != nil {
			t.Fatal(err)
		}
		msgs, err := c.Fetch(imap.UIDSetNum(1), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
		if err != nil || len(msgs) != 1 {
			t.Fatalf("%s: fetch: %v (%d)", who[0], err, len(msgs))
		}
		body := string(msgs[0].FindBodySection(&imap.FetchItemBodySection{Peek: true}))
		if !strings.HasPrefix(body, "Return-Path: <") || !strings.Contains(body, "Received: from 127.0.0.1") {
			t.Errorf("%s: no trace headers:\n%s", who[0], body)
		}
		want := "turn 4"
		if who[0] == "referee" {
			want = "orders"
		}
		if !strings.Contains(body, "Subject: "+want) {
			t.Errorf("%s got:\n%s", who[0], body)
		}
	}
}

func TestSMTPRejections(t *testing.T) {
	cfg := testConfig()
	cfg.MaxMessageBytes = 4096
	h, err := Open(t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	if err := h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	addUser(t, h, "alice", "a")
	addUser(t, h, "referee", "r")
	good := testMail("alice@umpire.local", "referee@umpire.local", "s", "b")
	plain := sasl.NewPlainClient("", "alice", "a")

	cases := []struct {
		name    string
		auth    sasl.Client
		from    string
		to      []string
		raw     []byte
		code    int
		message string
	}{
		{"non-local recipient", plain, "alice@umpire.local", []string{"someone@example.org"}, good, 550, "does not relay"},
		{"unknown user", plain, "alice@umpire.local", []string{"nobody@umpire.local"}, good, 550, "no such user"},
		{"wrong password", sasl.NewPlainClient("", "alice", "wrong"), "alice@umpire.local", []string{"referee@umpire.local"}, good, 535, ""},
		{"unknown login", sasl.NewLoginClient("mallory", "x"), "alice@umpire.local", []string{"referee@umpire.local"}, good, 535, ""},
		{"no auth", nil, "alice@umpire.local", []string{"referee@umpire.local"}, good, 502, ""},
		{"forged envelope", plain, "referee@umpire.local", []string{"referee@umpire.local"}, good, 553, "only send as"},
		{"forged From header", plain, "alice@umpire.local", []string{"referee@umpire.local"},
			testMail("referee@umpire.local", "referee@umpire.local", "s", "b"), 553, "own address"},
		{"too large", plain, "alice@umpire.local", []string{"referee@umpire.local"},
			slices.Concat(good, []byte(strings.Repeat("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\r\n", 200))), 552, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := trySend(h, c.auth, c.from, c.to, c.raw)
			if smtpCode(err) != c.code {
				t.Fatalf("err = %v, want code %d", err, c.code)
			}
			if c.message != "" && !strings.Contains(err.Error(), c.message) {
				t.Errorf("err = %v, want text %q", err, c.message)
			}
		})
	}
	ca := dialIMAP(t, h, "referee", "r", nil)
	if st := status(t, ca, "INBOX"); *st.NumMessages != 0 {
		t.Errorf("a rejected message was delivered: %+v", st)
	}

	big := slices.Concat(good, []byte(strings.Repeat("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\r\n", 200)))
	if err := h.Deliver("referee", big); err == nil {
		t.Error("Deliver over the limit succeeded")
	}
	cmd := ca.Append("INBOX", int64(len(big)), nil)
	cmd.Write(big)
	cmd.Close()
	if _, err := cmd.Wait(); err == nil || !strings.Contains(err.Error(), "TOOBIG") {
		t.Errorf("APPEND over the limit: %v", err)
	}
}

// TestFormatV1 opens a hub directory written in format version 1 (kept in
// testdata/v1) and checks that everything a client remembers is as stored.
func TestFormatV1(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/v1")); err != nil {
		t.Fatal(err)
	}
	h := startHub(t, dir)
	c := dialIMAP(t, h, "referee", "secret", nil)
	got := takeSnapshot(t, c)
	want := []snapshot{
		{Mailbox: "INBOX", UIDValidity: 1700000000, UIDNext: 8, Messages: []string{
			`3 [\Seen] 94 2026-11-01T18:00:00Z`,
			`7 [] 95 2026-11-02T09:30:00Z`,
		}},
		{Mailbox: "Processed", UIDValidity: 1700000001, UIDNext: 5},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	msgs, err := c.Fetch(imap.UIDSetNum(7), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil || len(msgs) != 1 || !strings.Contains(string(msgs[0].FindBodySection(&imap.FetchItemBodySection{Peek: true})), "orders: [advance]") {
		t.Errorf("UID 7: %v %+v", err, msgs)
	}
	// A new mailbox gets a UIDVALIDITY above every stored one.
	if err := c.Create("New", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if st := status(t, c, "New"); st.UIDValidity <= 1700000001 {
		t.Errorf("new UIDVALIDITY %d", st.UIDValidity)
	}
}
