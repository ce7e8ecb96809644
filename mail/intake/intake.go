// Package intake is the IMAP side of the daemon: it logs in to the
// referee's mailbox, makes sure the folders exist, and in each cycle fetches
// the new mail (UID order, which is server arrival order; BODY.PEEK so
// nothing is marked read before it is handled), hands each mail to the
// handler, and only once the handler has committed flags it \Seen and
// moves it to the processed or rejected folder. It remembers the mailbox's
// UIDVALIDITY and the last UID handled in the store's meta; when UIDVALIDITY
// changes it reads the whole inbox again and relies on the handler's
// Message-ID marks to skip what was already handled.
//
// Mails are handled by up to Intake.Workers goroutines at once, in an
// order that gives each mail the answer it would get if all were handled
// one at a time in UID order: each mail has keys (Intake.Keys; the daemon
// uses referee.Desk.Keys: the games it names, its sender, its Message-ID),
// mails that share a key are handled in UID order, one after the other;
// a mail without keys (a referee's command, an unreadable header) is
// handled alone, after every earlier mail and before every later one; only
// mails that share no key run at the same time. Whatever the order, a
// mail is filed only after its handler committed, and the last UID saved
// only moves over UIDs that all committed: a mail that failed is fetched
// again in the next cycle, with whatever came after it and was not filed,
// which the handler recognises by its Message-ID mark. See pool.go.
//
// It never decides anything about a mail's content, and never sends mail.
package intake

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/umpire-pbem/umpire/mail/config"
	"github.com/umpire-pbem/umpire/mail/referee"
	"github.com/umpire-pbem/umpire/store"
)

// ErrLogin marks a refused IMAP login: a setting to fix (imap.user, the
// password), not an outage to wait out.
var ErrLogin = errors.New("the server refused the login")

// Hook, when set (by tests only), is called at each step of handling mail:
// "fetched" (a mail is in hand, nothing recorded), "committed" (the handler
// recorded it), "flagged" (\Seen stored, not yet moved), "moved". Tests use
// it to kill the process at that step. It is nil in production. Mails are
// handled on several goroutines, but Hook is called by one at a time.
var Hook func(step string)

var hookMu sync.Mutex

func hook(step string) {
	if Hook != nil {
		hookMu.Lock()
		defer hookMu.Unlock()
		Hook(step)
	}
}

// Handler decides about one raw mail and records everything it causes; an
// error means nothing was recorded and the mail must be tried again later.
type Handler func(ctx context.Context, raw []byte) (referee.Folder, error)

// Intake is the configuration of the IMAP side.
type Intake struct {
	IMAP    config.IMAP
	Handle  Handler
	Store   store.Store // where UIDVALIDITY and the last UID are kept
	Log     *slog.Logger
	MaxSize int64 // bytes of a mail fetched at most; a larger mail is cut there (its handler sees it too large)
	// Chunk is how many mails are fetched per FETCH command (default 64).
	Chunk int
	// Timeout bounds one cycle; a server that stalls longer is hung up on
	// (default 5 minutes).
	Timeout time.Duration
	// Workers is how many mails are handled at the same time at most
	// (default runtime.GOMAXPROCS(0)); 1 handles them one at a time, in
	// UID order.
	Workers int
	// Keys, when set, names what handling a mail may read or change
	// (referee.Desk.Keys): mails that share no key may be handled at the
	// same time, mails that share one are handled in UID order, and a mail
	// without keys is handled alone (pool.go). When nil, every mail is
	// handled alone.
	Keys func(raw []byte) []string
}

// Conn is a logged-in IMAP connection with the inbox selected.
type Conn struct {
	in       *Intake
	c        *imapclient.Client
	news     chan struct{} // EXISTS seen
	idle     bool
	closeOne sync.Once
	// What the last cycle looked at, for Wait: the inbox's UIDVALIDITY
	// and the highest UID it could have seen (every mail with a UID up to
	// it was fetched then, or was already handled before). Valid only
	// when cycled is true: a cycle that fails or stops early clears it.
	cycled   bool
	seenUIDV uint32
	seenUID  imap.UID
}

// Dial connects, logs in, creates the missing folders and selects nothing
// yet. The caller must Close the Conn.
func (in *Intake) Dial(ctx context.Context) (*Conn, error) {
	conn := &Conn{in: in, news: make(chan struct{}, 1)}
	opts := &imapclient.Options{
		TLSConfig: in.IMAP.TLSConfig(),
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					conn.signal()
				}
			},
		},
	}
	addr := in.IMAP.Addr()
	var c *imapclient.Client
	var err error
	switch in.IMAP.TLS {
	case config.TLSPlain:
		c, err = imapclient.DialInsecure(addr, opts)
	case config.TLSStartTLS:
		c, err = imapclient.DialStartTLS(addr, opts)
	default:
		c, err = imapclient.DialTLS(addr, opts)
	}
	if err != nil {
		return nil, fmt.Errorf("imap: connecting to %s: %w", addr, err)
	}
	conn.c = c
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if err := c.Login(in.IMAP.User, in.IMAP.Password.Value()).Wait(); err != nil {
		c.Close()
		return nil, fmt.Errorf("imap: logging in to %s as %s: %w: %w", addr, in.IMAP.User, ErrLogin, err)
	}
	if err := conn.ensureFolders(); err != nil {
		c.Close()
		return nil, err
	}
	_, conn.idle = c.Caps()[imap.CapIdle]
	if _, ok := c.Caps()[imap.CapIMAP4rev2]; ok {
		conn.idle = true
	}
	return conn, nil
}

func (c *Conn) signal() {
	select {
	case c.news <- struct{}{}:
	default:
	}
}

// Close hangs up.
func (c *Conn) Close() error {
	var err error
	c.closeOne.Do(func() { err = c.c.Close() })
	return err
}

// Closed is closed when the connection is gone.
func (c *Conn) Closed() <-chan struct{} { return c.c.Closed() }

func (c *Conn) ensureFolders() error {
	list, err := c.c.List("", "*", nil).Collect()
	if err != nil {
		return fmt.Errorf("imap: listing folders: %w", err)
	}
	have := map[string]bool{}
	for _, l := range list {
		have[l.Mailbox] = true
	}
	f := c.in.IMAP.Folders
	for _, name := range []string{f.Processed, f.Rejected} {
		if have[name] {
			continue
		}
		if err := c.c.Create(name, nil).Wait(); err != nil {
			return fmt.Errorf("imap: creating folder %q: %w", name, err)
		}
		c.in.log().Info("created folder", "folder", name)
	}
	return nil
}

func (in *Intake) log() *slog.Logger {
	if in.Log != nil {
		return in.Log
	}
	return slog.Default()
}

func (in *Intake) metaKey(what string) string {
	return "imap/" + in.IMAP.User + "@" + in.IMAP.Host + "/" + in.IMAP.Folders.Inbox + "/" + what
}

func (in *Intake) readMeta(ctx context.Context, what string) (uint64, error) {
	b, err := in.Store.Meta(ctx, in.metaKey(what))
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return strconv.ParseUint(string(b), 10, 64)
}

// Stats counts what a cycle did.
type Stats struct {
	Fetched   int
	Processed int
	Rejected  int
}

// Cycle handles every mail that arrived since the last cycle. When a mail
// fails it finishes the chunk of mails in hand without that mail and those
// that must come after it, files the mails handled, and returns the error;
// the rest wait for the next cycle. When ctx ends it starts no new mail,
// finishes and files the mails in hand, and returns; the connection is not
// cut under a command.
func (c *Conn) Cycle(ctx context.Context) (Stats, error) {
	var st Stats
	in := c.in
	timeout := in.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Minute
	}
	watchdog := time.AfterFunc(timeout, func() {
		in.log().Warn("the IMAP server stalled; hanging up", "timeout", timeout)
		c.Close()
	})
	defer watchdog.Stop()

	c.cycled = false
	// An EXISTS heard before this SELECT is for mail this cycle sees.
	select {
	case <-c.news:
	default:
	}
	sel, err := c.c.Select(in.IMAP.Folders.Inbox, nil).Wait()
	if err != nil {
		return st, fmt.Errorf("imap: selecting %s: %w", in.IMAP.Folders.Inbox, err)
	}
	known, err := in.readMeta(ctx, "uidvalidity")
	if err != nil {
		return st, err
	}
	last, err := in.readMeta(ctx, "lastuid")
	if err != nil {
		return st, err
	}
	if known != uint64(sel.UIDValidity) {
		if known != 0 {
			in.log().Warn("the inbox's UIDVALIDITY changed: reading it all again (mail already handled is recognised by its Message-ID)",
				"old", known, "new", sel.UIDValidity)
		}
		last = 0
	}
	// Every mail below UIDNEXT at the SELECT is in the search below (or
	// at or below last, handled before).
	top := imap.UID(last)
	if sel.UIDNext > 0 {
		top = max(top, sel.UIDNext-1)
	}
	if sel.NumMessages == 0 {
		if err := in.saveMeta(ctx, sel.UIDValidity, last, known); err != nil {
			return st, err
		}
		c.saw(sel.UIDValidity, top)
		return st, nil
	}
	var set imap.UIDSet
	set.AddRange(imap.UID(last+1), 0)
	res, err := c.c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{set}}, nil).Wait()
	if err != nil {
		return st, fmt.Errorf("imap: searching %s: %w", in.IMAP.Folders.Inbox, err)
	}
	var uids []imap.UID
	for _, u := range res.AllUIDs() {
		top = max(top, u)
		if uint64(u) > last {
			uids = append(uids, u)
		}
	}
	slices.Sort(uids)
	chunk := in.Chunk
	if chunk <= 0 {
		chunk = 64
	}
	for len(uids) > 0 {
		n := min(chunk, len(uids))
		handled, prefix, err := c.batch(ctx, uids[:n], &st)
		if len(handled) > 0 {
			if ferr := c.file(handled); ferr != nil {
				return st, errors.Join(err, ferr)
			}
		}
		if prefix > 0 {
			last = uint64(prefix)
			// Saved even when shutting down: the mails just filed are done.
			if merr := in.saveMeta(context.WithoutCancel(ctx), sel.UIDValidity, last, known); merr != nil {
				return st, errors.Join(err, merr)
			}
			known = uint64(sel.UIDValidity)
		}
		if err != nil {
			return st, err
		}
		if ctx.Err() != nil {
			break
		}
		uids = uids[n:]
	}
	if err := in.saveMeta(context.WithoutCancel(ctx), sel.UIDValidity, last, known); err != nil {
		return st, err
	}
	if len(uids) == 0 {
		c.saw(sel.UIDValidity, top)
	}
	return st, nil
}

// saw records what a cycle that handled everything it found looked at.
func (c *Conn) saw(uidv uint32, top imap.UID) {
	c.cycled, c.seenUIDV, c.seenUID = true, uidv, top
}

// newSince reports whether the inbox, as a SELECT just showed it, may hold
// mail the last cycle did not see: mail with a UID above the highest one
// it could have seen. It compares UIDNEXT, so mail the intake leaves in
// the inbox (handled already, at or below the last UID) does not count;
// a server that sent no UIDNEXT is asked with a UID SEARCH.
func (c *Conn) newSince(sel *imap.SelectData) (bool, error) {
	if !c.cycled || sel.UIDValidity != c.seenUIDV {
		return true, nil
	}
	if sel.UIDNext > 0 {
		return sel.UIDNext > c.seenUID+1, nil
	}
	if sel.NumMessages == 0 {
		return false, nil
	}
	var set imap.UIDSet
	set.AddRange(c.seenUID+1, 0)
	res, err := c.c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{set}}, nil).Wait()
	if err != nil {
		return false, fmt.Errorf("imap: searching %s: %w", c.in.IMAP.Folders.Inbox, err)
	}
	// "n:*" also matches the highest UID when it is below n.
	return slices.ContainsFunc(res.AllUIDs(), func(u imap.UID) bool { return u > c.seenUID }), nil
}

func (in *Intake) saveMeta(ctx context.Context, uidv uint32, last, known uint64) error {
	if known == uint64(uidv) && last == 0 {
		return nil
	}
	cur, err := in.readMeta(ctx, "lastuid")
	if err == nil && cur == last && known == uint64(uidv) {
		return nil
	}
	_, err = in.Store.Append(ctx, store.Batch{Meta: map[string][]byte{
		in.metaKey("uidvalidity"): []byte(strconv.FormatUint(uint64(uidv), 10)),
		in.metaKey("lastuid"):     []byte(strconv.FormatUint(last, 10)),
	}})
	return err
}

type handled struct {
	uid    imap.UID
	folder referee.Folder
}

// batch fetches uids and hands the mails to the handler (see handleAll).
// It returns every mail handled, in UID order, and the highest UID up to
// which every mail of uids was handled or is gone (0 for none).
func (c *Conn) batch(ctx context.Context, uids []imap.UID, st *Stats) ([]handled, imap.UID, error) {
	in := c.in
	section := &imap.FetchItemBodySection{Peek: true}
	if in.MaxSize > 0 {
		section.Partial = &imap.SectionPartial{Offset: 0, Size: in.MaxSize + 1}
	}
	set := imap.UIDSetNum(uids...)
	bufs, err := c.c.Fetch(set, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		return nil, 0, fmt.Errorf("imap: fetching: %w", err)
	}
	raw := map[imap.UID][]byte{}
	for _, b := range bufs {
		raw[b.UID] = b.FindBodySection(section)
	}
	jobs := make([]*job, len(uids))
	for i, uid := range uids {
		body, ok := raw[uid]
		jobs[i] = &job{uid: uid, raw: body}
		if !ok {
			jobs[i].state = gone // expunged meanwhile by someone else
		}
	}
	err = in.handleAll(ctx, jobs, st)
	var done []handled
	var prefix imap.UID
	inPrefix := true
	for _, j := range jobs {
		switch j.state {
		case committed:
			done = append(done, handled{j.uid, j.folder})
		case gone:
		default:
			inPrefix = false
		}
		if inPrefix {
			prefix = j.uid
		}
	}
	return done, prefix, err
}

// file flags the handled mails \Seen and moves them to their folders.
func (c *Conn) file(hs []handled) error {
	var all imap.UIDSet
	byFolder := map[referee.Folder]*imap.UIDSet{}
	for _, h := range hs {
		all.AddNum(h.uid)
		s := byFolder[h.folder]
		if s == nil {
			s = &imap.UIDSet{}
			byFolder[h.folder] = s
		}
		s.AddNum(h.uid)
	}
	if err := c.c.Store(all, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}, nil).Close(); err != nil {
		return fmt.Errorf("imap: flagging handled mail \\Seen: %w", err)
	}
	hook("flagged")
	f := c.in.IMAP.Folders
	for _, folder := range []referee.Folder{referee.Processed, referee.Rejected} {
		s := byFolder[folder]
		if s == nil {
			continue
		}
		name := f.Processed
		if folder == referee.Rejected {
			name = f.Rejected
		}
		if _, err := c.c.Move(*s, name).Wait(); err != nil {
			return fmt.Errorf("imap: moving handled mail to %s: %w", name, err)
		}
	}
	hook("moved")
	return nil
}

// Wake says why Wait returned.
type Wake int

const (
	// WokeTimer: the poll interval passed without a sign of new mail.
	WokeTimer Wake = iota
	// WokeNewMail: the server showed that new mail may be in the inbox.
	WokeNewMail
)

func (w Wake) String() string {
	switch w {
	case WokeTimer:
		return "timer"
	case WokeNewMail:
		return "new mail"
	}
	return "Wake(" + strconv.Itoa(int(w)) + ")"
}

// Wait returns when new mail may have arrived: at once if the server told
// so already or if the inbox holds mail the last cycle did not see (mail
// delivered after its fetch: IDLE only tells of what changes while
// idling), when the server tells so during IDLE, or after d. It says
// which; it returns the context's error when ctx ends. After a Cycle that
// failed or stopped early it returns at once.
func (c *Conn) Wait(ctx context.Context, d time.Duration) (Wake, error) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-c.news:
		return WokeNewMail, nil
	default:
	}
	if !c.idle || !c.in.IMAP.UseIdle() {
		select {
		case <-ctx.Done():
			return WokeTimer, ctx.Err()
		case <-timer.C:
			return WokeTimer, nil
		case <-c.news:
			return WokeNewMail, nil
		case <-c.c.Closed():
			return WokeTimer, errors.New("imap: the connection was closed")
		}
	}
	sel, err := c.c.Select(c.in.IMAP.Folders.Inbox, nil).Wait()
	if err != nil {
		return WokeTimer, fmt.Errorf("imap: selecting %s: %w", c.in.IMAP.Folders.Inbox, err)
	}
	// The EXISTS that the SELECT answers with goes into sel, not to the
	// unilateral handler: look at it here.
	if fresh, err := c.newSince(sel); err != nil || fresh {
		return WokeNewMail, err
	}
	idle, err := c.c.Idle()
	if err != nil {
		return WokeTimer, fmt.Errorf("imap: IDLE: %w", err)
	}
	wake := WokeTimer
	var werr error
	select {
	case <-ctx.Done():
		werr = ctx.Err()
	case <-timer.C:
	case <-c.news:
		wake = WokeNewMail
	case <-c.c.Closed():
		return WokeTimer, errors.New("imap: the connection was closed")
	}
	if err := idle.Close(); err != nil && werr == nil {
		werr = fmt.Errorf("imap: ending IDLE: %w", err)
	}
	if err := idle.Wait(); err != nil && werr == nil {
		werr = fmt.Errorf("imap: IDLE: %w", err)
	}
	return wake, werr
}
