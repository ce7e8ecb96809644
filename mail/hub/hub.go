package hub

import (
	"context"
	"errors"
	"fmt"
	"log"
	"maps"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-smtp"
)

// Defaults for zero Config fields.
const (
	DefaultIMAPAddr        = "127.0.0.1:1143"
	DefaultSMTPAddr        = "127.0.0.1:1587"
	DefaultDomain          = "umpire.local"
	DefaultMaxMessageBytes = 25 << 20
)

// Config sets up a Hub. Zero fields take the defaults above.
type Config struct {
	// IMAPAddr and SMTPAddr are the TCP addresses to listen on. Use
	// "127.0.0.1:0" to let the system pick a port (Addrs tells which).
	// Listening on a LAN address makes the hub reachable from the club's
	// other machines; there is no TLS, so keep it off untrusted networks.
	IMAPAddr string
	SMTPAddr string
	// Domain is the mail domain: user U has the address U@Domain.
	Domain string
	// MaxMessageBytes bounds a message received by SMTP, APPEND or Deliver.
	MaxMessageBytes int64
	// Logger receives protocol errors; nil means log.Default().
	Logger *log.Logger
	// HashIterations is the PBKDF2 iteration count of the password hashes
	// the hub makes; 0 means DefaultHashIterations. Only a test binary
	// (testing.Testing) may ask for fewer, to keep tests quick: Open
	// refuses a lower count anywhere else, so the umpire binary never makes
	// a cheap hash. Each hash records its count, and a login upgrades a
	// hash made with fewer iterations than the hub's.
	HashIterations int
	// Delivered, when set, is told of each message SMTP delivered, per
	// recipient (the user's name), after it is stored and outside the
	// hub's lock; it must not block for long. The daemon uses it to answer
	// orders sent to the referee's own mailbox (daemon.refereeHint).
	// Deliver (for tests and tools) does not call it.
	Delivered func(user string, raw []byte)
}

func (c Config) withDefaults() Config {
	if c.IMAPAddr == "" {
		c.IMAPAddr = DefaultIMAPAddr
	}
	if c.SMTPAddr == "" {
		c.SMTPAddr = DefaultSMTPAddr
	}
	c.Domain = strings.ToLower(strings.TrimSpace(c.Domain))
	if c.Domain == "" {
		c.Domain = DefaultDomain
	}
	if c.MaxMessageBytes <= 0 {
		c.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if c.MaxMessageBytes > 1<<31 {
		c.MaxMessageBytes = 1 << 31 // APPENDLIMIT is a 32-bit number
	}
	if c.Logger == nil {
		c.Logger = log.Default()
	}
	if c.HashIterations == 0 {
		c.HashIterations = DefaultHashIterations
	}
	return c
}

// Hub is an open hub directory, and once started, its IMAP and SMTP
// servers. Its methods are safe for concurrent use.
type Hub struct {
	dir  string
	cfg  Config
	lock *os.File

	// mu guards all users, mailboxes and messages, and every write to the
	// directory. Network writes never happen under it.
	mu              sync.Mutex
	closed          bool // no more changes; set once servers are stopped
	stopping        bool // no new IMAP sessions
	lastUIDValidity uint32
	users           map[string]*user

	// dummyHash is checked against when the user does not exist, so a
	// login takes as long for an unknown name as for a wrong password. It
	// is made on first use.
	dummyHash func() string
	// auth remembers successful logins; fullChecks counts the logins that
	// ran the slow hash (the tests read it).
	auth       *authCache
	fullChecks atomic.Int64

	started  bool
	imapSrv  *imapserver.Server
	smtpSrv  *smtp.Server
	imapLn   net.Listener
	smtpLn   net.Listener
	serving  sync.WaitGroup // Serve goroutines
	sessions sync.WaitGroup // IMAP sessions
	done     chan struct{}
	closeErr error
	once     sync.Once
}

// Open opens (creating if needed) the hub directory dir and loads every
// user and mailbox from it. Only one Hub may have a directory open at a
// time. Open does not listen; call Start.
func Open(dir string, cfg Config) (*Hub, error) {
	cfg = cfg.withDefaults()
	if err := checkHashIterations(cfg.HashIterations, testing.Testing()); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "mail"), 0o700); err != nil {
		return nil, err
	}
	lock, err := lockDir(filepath.Join(dir, "lock"))
	if err != nil {
		return nil, err
	}
	h := &Hub{dir: dir, cfg: cfg, lock: lock, users: map[string]*user{}, done: make(chan struct{}), auth: newAuthCache(authCacheSize)}
	h.dummyHash = sync.OnceValue(func() string { return h.hashPassword("not a real password") })
	h.mu.Lock()
	err = h.loadLocked()
	h.mu.Unlock()
	if err != nil {
		lock.Close()
		return nil, err
	}
	return h, nil
}

func (h *Hub) hubPath() string { return filepath.Join(h.dir, "hub.json") }

func (h *Hub) saveHubLocked() error {
	st := hubState{Version: formatVersion, LastUIDValidity: h.lastUIDValidity, Users: []userState{}}
	for _, name := range slices.Sorted(maps.Keys(h.users)) {
		u := h.users[name]
		st.Users = append(st.Users, userState{Name: u.name, Password: u.hash})
	}
	return writeJSON(h.hubPath(), &st)
}

func (h *Hub) loadLocked() error {
	cleanTemp(h.dir)
	var st hubState
	switch err := readJSON(h.hubPath(), &st); {
	case isNotExist(err):
		return h.saveHubLocked()
	case err != nil:
		return err
	}
	if st.Version > formatVersion {
		return fmt.Errorf("%s: format version %d is newer than this program's %d", h.hubPath(), st.Version, formatVersion)
	}
	h.lastUIDValidity = st.LastUIDValidity
	for _, us := range st.Users {
		name, err := normalizeUser(us.Name)
		if err != nil || name != us.Name || h.users[name] != nil {
			return fmt.Errorf("%s: bad or repeated user name %q", h.hubPath(), us.Name)
		}
		u := &user{name: name, hash: us.Password, mailboxes: map[string]*mailbox{}}
		h.users[name] = u
		if err := h.loadUserLocked(u); err != nil {
			return err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(h.users)) {
		u := h.users[name]
		if u.mailboxes[inboxName] == nil {
			if _, err := h.createMailboxLocked(u, inboxName); err != nil {
				return err
			}
		}
	}
	return nil
}

func (h *Hub) loadUserLocked(u *user) error {
	udir := filepath.Join(h.dir, "mail", u.name)
	entries, err := os.ReadDir(udir)
	if isNotExist(err) {
		return nil
	} else if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "mb-") {
			continue
		}
		dir := filepath.Join(udir, e.Name())
		mb := &mailbox{dir: dir, watchers: map[chan struct{}]struct{}{}}
		switch err := readJSON(mb.statePath(), &mb.st); {
		case isNotExist(err):
			// Left by an interrupted create or delete.
			os.RemoveAll(dir)
			continue
		case err != nil:
			return err
		}
		if mb.st.Version > formatVersion {
			return fmt.Errorf("%s: format version %d is newer than this program's %d", mb.statePath(), mb.st.Version, formatVersion)
		}
		if other := u.mailboxes[mb.st.Name]; other != nil {
			return fmt.Errorf("%s: mailbox %q is also in %s", mb.statePath(), mb.st.Name, other.dir)
		}
		if mb.st.Messages == nil {
			mb.st.Messages = []messageState{}
		}
		if mb.st.UIDValidity > h.lastUIDValidity {
			h.lastUIDValidity = mb.st.UIDValidity
		}
		cleanTemp(dir)
		h.removeStrayFiles(mb)
		mb.tracker = imapserver.NewMailboxTracker(uint32(len(mb.st.Messages)))
		u.mailboxes[mb.st.Name] = mb
	}
	return nil
}

// removeStrayFiles deletes message files the state does not list: what a
// crash between writing a message and saving the state leaves behind.
func (h *Hub) removeStrayFiles(mb *mailbox) {
	files, _ := filepath.Glob(filepath.Join(mb.dir, "*.eml"))
	for _, f := range files {
		uid, err := parseUID(strings.TrimSuffix(filepath.Base(f), ".eml"))
		if err != nil || mb.index(uid) < 0 {
			os.Remove(f)
		}
	}
}

// Start listens on the configured addresses and serves IMAP and SMTP in the
// background. It returns once both listeners are bound. When ctx is done
// the hub closes, as if by Close.
func (h *Hub) Start(ctx context.Context) error {
	h.mu.Lock()
	if h.closed || h.stopping {
		h.mu.Unlock()
		return ErrClosed
	}
	if h.started {
		h.mu.Unlock()
		return errors.New("hub: already started")
	}
	h.started = true
	h.mu.Unlock()

	imapLn, err := net.Listen("tcp", h.cfg.IMAPAddr)
	if err != nil {
		return fmt.Errorf("hub: IMAP: %w", err)
	}
	smtpLn, err := net.Listen("tcp", h.cfg.SMTPAddr)
	if err != nil {
		imapLn.Close()
		return fmt.Errorf("hub: SMTP: %w", err)
	}
	imapSrv := imapserver.New(&imapserver.Options{
		NewSession: h.newIMAPSession,
		Caps: imap.CapSet{
			imap.CapIMAP4rev1: {},
			imap.CapUIDPlus:   {},
			imap.CapMove:      {},
			imap.CapNamespace: {},
		},
		Logger:       h.cfg.Logger,
		InsecureAuth: true, // loopback or LAN, no TLS: see the package doc
	})
	smtpSrv := h.newSMTPServer()
	h.mu.Lock()
	if h.stopping { // Close ran meanwhile
		h.mu.Unlock()
		imapLn.Close()
		smtpLn.Close()
		return ErrClosed
	}
	h.imapLn, h.smtpLn = imapLn, smtpLn
	h.imapSrv, h.smtpSrv = imapSrv, smtpSrv
	h.serving.Add(2)
	h.mu.Unlock()

	go func() {
		defer h.serving.Done()
		if err := imapSrv.Serve(imapLn); err != nil && !h.isDone() {
			h.cfg.Logger.Printf("hub: IMAP: %v", err)
		}
	}()
	go func() {
		defer h.serving.Done()
		if err := smtpSrv.Serve(smtpLn); err != nil && !h.isDone() {
			h.cfg.Logger.Printf("hub: SMTP: %v", err)
		}
	}()
	go func() {
		select {
		case <-ctx.Done():
			h.Close()
		case <-h.done:
		}
	}()
	return nil
}

func (h *Hub) isDone() bool {
	select {
	case <-h.done:
		return true
	default:
		return false
	}
}

// Close stops the servers, gives SMTP clients a few seconds to finish the
// message they are sending, closes IMAP connections, and releases the
// directory. Everything already acknowledged is on disk. Close is safe to
// call more than once.
func (h *Hub) Close() error {
	h.once.Do(func() {
		close(h.done)
		h.mu.Lock()
		h.stopping = true
		imapSrv, smtpSrv := h.imapSrv, h.smtpSrv
		h.mu.Unlock()
		var errs []error
		if smtpSrv != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			if err := smtpSrv.Shutdown(ctx); err != nil {
				smtpSrv.Close()
				if !errors.Is(err, context.DeadlineExceeded) {
					errs = append(errs, err)
				}
			}
			cancel()
		}
		// The listeners are closed, and the Serve goroutines have returned,
		// before the IMAP server is closed: its Close waits on a WaitGroup
		// that its Serve adds to only after registering the listener, so a
		// Close while a Serve is still starting is a data race (seen under
		// the race detector when a hub is closed right after it started).
		// Closing the listener ends Serve's accept loop whether or not it
		// had registered it.
		h.mu.Lock()
		if h.imapLn != nil {
			h.imapLn.Close()
			h.smtpLn.Close()
		}
		h.mu.Unlock()
		h.serving.Wait()
		if imapSrv != nil {
			if err := imapSrv.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
				errs = append(errs, err)
			}
		}
		h.sessions.Wait()
		h.mu.Lock()
		h.closed = true
		h.mu.Unlock()
		errs = append(errs, h.lock.Close())
		h.closeErr = errors.Join(errs...)
	})
	return h.closeErr
}

// Addrs returns the IMAP and SMTP addresses the hub listens on: the ones
// actually bound once started (with the real port for ":0"), the configured
// ones before.
func (h *Hub) Addrs() (imapAddr, smtpAddr string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.imapLn != nil {
		return h.imapLn.Addr().String(), h.smtpLn.Addr().String()
	}
	return h.cfg.IMAPAddr, h.cfg.SMTPAddr
}

// Domain returns the hub's mail domain.
func (h *Hub) Domain() string { return h.cfg.Domain }

// Deliver stores raw in the INBOX of user, as SMTP delivery would (without
// adding trace headers). It is meant for tests and tools.
func (h *Hub) Deliver(user string, raw []byte) error {
	name, err := normalizeUser(user)
	if err != nil {
		return err
	}
	if int64(len(raw)) > h.cfg.MaxMessageBytes {
		return fmt.Errorf("hub: message of %d bytes is over the %d-byte limit", len(raw), h.cfg.MaxMessageBytes)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.deliverLocked(name, raw)
}

func (h *Hub) deliverLocked(name string, raw []byte) error {
	if h.closed {
		return ErrClosed
	}
	u := h.users[name]
	if u == nil {
		return fmt.Errorf("%w: %s", ErrUnknownUser, name)
	}
	mb := u.mailboxes[inboxName]
	if mb == nil {
		var err error
		if mb, err = h.createMailboxLocked(u, inboxName); err != nil {
			return err
		}
	}
	_, err := mb.appendLocked([]newMessage{{raw: raw, date: time.Now(), size: int64(len(raw))}})
	return err
}

// HowTo tells a person how to set up a mail program for the hub. The
// daemon prints it at startup.
func (h *Hub) HowTo() string {
	imapAddr, smtpAddr := h.Addrs()
	ih, ip := splitHostPort(imapAddr)
	sh, sp := splitHostPort(smtpAddr)
	d := h.cfg.Domain
	names := h.Users()
	example := "alice"
	if len(names) > 0 {
		example = names[0]
	}
	if len(names) > 8 {
		names = append(names[:8], "...")
	}
	users := ""
	if len(names) > 0 {
		users = " (" + strings.Join(names, ", ") + ")"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Mail hub for %s: set up your mail program with\n", d)
	fmt.Fprintf(&b, "  Incoming mail (IMAP):  server %s  port %s  connection security: none  authentication: normal password\n", ih, ip)
	fmt.Fprintf(&b, "  Outgoing mail (SMTP):  server %s  port %s  connection security: none  authentication: normal password\n", sh, sp)
	fmt.Fprintf(&b, "  User name: your name on the hub%s, or your address, e.g. %s@%s\n", users, example, d)
	fmt.Fprintf(&b, "  Password:  the one the referee gave you\n")
	fmt.Fprintf(&b, "  Address:   NAME@%s. The hub delivers only to addresses @%s and sends nothing elsewhere.\n", d, d)
	fmt.Fprintf(&b, "  From another machine, use this machine's LAN address (the hub must be listening on it).\n")
	fmt.Fprintf(&b, "  Nothing is encrypted: use the hub only on this machine or a network you trust.\n")
	return b.String()
}

func splitHostPort(addr string) (string, string) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr, "?"
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "this machine's address"
	}
	return host, port
}
