package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
	"github.com/umpire-pbem/umpire/mail/config"
	"github.com/umpire-pbem/umpire/mail/hub"
)

// The local hub's users: the daemon's own mailbox and the human referee.
const (
	HubDaemonUser  = "umpire"
	HubRefereeUser = "referee"
)

// Local is a running local mail hub and the configuration that points the
// daemon at it.
type Local struct {
	Hub    *hub.Hub
	Config *config.Config
	// NewPasswords are the passwords of the users created just now (user →
	// password), to show the operator once; the hub keeps only hashes.
	NewPasswords map[string]string
}

// StartLocalHub opens the hub in dataDir/hub, starts it on the given
// loopback (or LAN) addresses ("" for the defaults), makes sure the daemon's
// and the referee's mailboxes exist, and returns a configuration that
// reaches it over plain IMAP and SMTP, like any provider.
func StartLocalHub(ctx context.Context, dataDir, imapAddr, smtpAddr string, log *slog.Logger) (*Local, error) {
	return StartLocalHubWith(ctx, dataDir, hub.Config{IMAPAddr: imapAddr, SMTPAddr: smtpAddr}, log)
}

// StartLocalHubWith is StartLocalHub with the whole hub configuration (tests
// set cheap password hashing there, which only a test binary may); a nil
// hc.Logger logs the hub's warnings to log.
func StartLocalHubWith(ctx context.Context, dataDir string, hc hub.Config, log *slog.Logger) (*Local, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, err
	}
	if hc.Logger == nil {
		hc.Logger = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	}
	// Orders or a command sent to the referee's own mailbox get a hint
	// with umpire's address in the sender's inbox (hint.go).
	var h *hub.Hub
	hc.Delivered = func(user string, raw []byte) {
		if user != HubRefereeUser || h == nil {
			return
		}
		to, msg, ok := refereeHint(raw, h.Address(HubDaemonUser), h.Address(HubRefereeUser), h.Domain(), time.Now())
		if !ok {
			return
		}
		name, _, _ := strings.Cut(to, "@")
		if err := h.Deliver(name, msg); err != nil {
			log.Warn("could not hint a player who wrote to the referee's mailbox", "to", to, "err", err)
			return
		}
		log.Info("hinted a player who sent orders to the referee's mailbox", "to", to)
	}
	h, err := hub.Open(filepath.Join(dataDir, "hub"), hc)
	if err != nil {
		return nil, err
	}
	l := &Local{Hub: h, NewPasswords: map[string]string{}}
	pwFile := filepath.Join(dataDir, "hub-umpire.password")
	daemonPW, err := l.daemonPassword(pwFile)
	if err != nil {
		h.Close()
		return nil, err
	}
	if pw, err := h.EnsureUser(HubRefereeUser); err != nil {
		h.Close()
		return nil, err
	} else if pw != "" {
		l.NewPasswords[HubRefereeUser] = pw
	}
	if err := h.Start(ctx); err != nil {
		h.Close()
		return nil, err
	}
	ia, sa := h.Addrs()
	l.Config, err = hubConfig(dataDir, ia, sa, h.Address(HubDaemonUser), h.Address(HubRefereeUser), daemonPW)
	if err != nil {
		h.Close()
		return nil, err
	}
	return l, nil
}

// daemonPassword returns the daemon's hub password, kept in a file of the
// data directory (mode 0600); it is made anew when the file is missing.
func (l *Local) daemonPassword(file string) (string, error) {
	if b, err := readSmall(file); err == nil && l.Hub.HasUser(HubDaemonUser) {
		if pw := strings.TrimSpace(string(b)); pw != "" {
			return pw, nil
		}
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	pw, err := l.Hub.EnsureUser(HubDaemonUser)
	if err != nil {
		return "", err
	}
	if pw == "" { // the user exists but its password file is gone: set a new one
		pw = randomPassword()
		if err := l.Hub.SetPassword(HubDaemonUser, pw); err != nil {
			return "", err
		}
	}
	if err := os.WriteFile(file, []byte(pw+"\n"), 0o600); err != nil {
		return "", err
	}
	return pw, nil
}

func hubConfig(dataDir, imapAddr, smtpAddr, daemonAddr, refereeAddr, pw string) (*config.Config, error) {
	ih, ip, err := splitAddr(imapAddr)
	if err != nil {
		return nil, err
	}
	sh, sp, err := splitAddr(smtpAddr)
	if err != nil {
		return nil, err
	}
	c := &config.Config{Data: dataDir, File: "(local hub)"}
	c.IMAP.Server = config.Server{Host: ih, Port: ip, TLS: config.TLSPlain, User: HubDaemonUser}
	c.IMAP.Password.Set(pw)
	c.IMAP.Folders = config.Folders{Inbox: "INBOX", Processed: "umpire-processed", Rejected: "umpire-rejected"}
	c.IMAP.Poll = config.DefaultPoll
	c.SMTP.Server = config.Server{Host: sh, Port: sp, TLS: config.TLSPlain, User: HubDaemonUser}
	c.SMTP.Password.Set(pw)
	c.SMTP.Auth = config.AuthPlain
	c.From = config.From{Address: daemonAddr, Name: config.DefaultName}
	c.Referee.Address = refereeAddr
	c.Limits = config.Limits{Message: config.DefaultMessageLimit, Orders: config.DefaultOrdersLimit}
	return c, nil
}

func splitAddr(a string) (string, int, error) {
	host, port, err := net.SplitHostPort(a)
	if err != nil {
		return "", 0, err
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	p, err := strconv.Atoi(port)
	return host, p, err
}

// PrepareAddresses opens a hub mailbox for each player address of the hub's
// domain, and says which passwords were made. Addresses elsewhere cannot be
// reached from the hub.
func (l *Local) PrepareAddresses(_ context.Context, addrs []string) (string, error) {
	dom := "@" + l.Hub.Domain()
	var lines []string
	for _, a := range addrs {
		if !strings.HasSuffix(strings.ToLower(a), dom) {
			return "", fmt.Errorf("the local hub delivers only to addresses %s, not %s", dom, a)
		}
		user := strings.TrimSuffix(strings.ToLower(a), dom)
		pw, err := l.Hub.EnsureUser(user)
		if err != nil {
			return "", err
		}
		if pw != "" {
			lines = append(lines, fmt.Sprintf("  %s: user %s, password %s", a, user, pw))
		}
	}
	if len(lines) == 0 {
		return "", nil
	}
	return "New mailboxes on the local hub (give each player theirs; the hub keeps only a hash):\n" + strings.Join(lines, "\n") + "\n\n" + l.Hub.HowTo(), nil
}

// readSmall reads a file of a few bytes (a password), refusing a large one.
func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return yamlx.ReadAll(f, 4<<10, path, "password files")
}
