package hub

import (
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Errors about users. They may be wrapped; test with errors.Is.
var (
	ErrUserExists  = errors.New("hub: user already exists")
	ErrUnknownUser = errors.New("hub: no such user")
	ErrBadUserName = errors.New("hub: a user name is 1 to 64 of a-z, 0-9, '.', '_', '-', starting with a letter or digit")
)

// ErrClosed is returned by changes attempted after Close.
var ErrClosed = errors.New("hub: closed")

// Password hashing. PBKDF2-HMAC-SHA256 is in the standard library
// (crypto/pbkdf2), so the hub needs no bcrypt or scrypt module; it is a
// deliberately slow, salted KDF, unlike a single salted SHA-256, which
// matters because people pick guessable passwords and hub.json may be copied
// around with backups. The iteration count is stored with each hash, so it
// can be raised later without breaking old entries, and a hash made with
// fewer iterations than the hub's is upgraded at the next login.
const (
	hashScheme = "pbkdf2-sha256"
	saltLen    = 16
	keyLen     = 32
	// maxHashIterations bounds the count a stored hash may ask for, so a
	// damaged hub.json cannot make a login run for hours.
	maxHashIterations = 100_000_000
)

// DefaultHashIterations follows OWASP's 2023 advice for PBKDF2-HMAC-SHA256.
// It is the least count a hub makes hashes with outside a test binary (see
// Config.HashIterations).
const DefaultHashIterations = 600_000

// checkHashIterations says whether a hub may make hashes with n iterations:
// no fewer than DefaultHashIterations unless inTest, the program being a
// test binary.
func checkHashIterations(n int, inTest bool) error {
	switch {
	case n < 1 || n > maxHashIterations:
		return fmt.Errorf("hub: HashIterations %d is not between 1 and %d", n, maxHashIterations)
	case n < DefaultHashIterations && !inTest:
		return fmt.Errorf("hub: HashIterations %d is below %d; fewer are only for tests", n, DefaultHashIterations)
	}
	return nil
}

// hashPassword makes a new salted hash of password with the hub's count.
func (h *Hub) hashPassword(password string) string {
	salt := make([]byte, saltLen)
	rand.Read(salt)
	return encodeHash(password, salt, h.cfg.HashIterations)
}

func encodeHash(password string, salt []byte, iter int) string {
	key, err := pbkdf2.Key(sha256.New, password, salt, iter, keyLen)
	if err != nil {
		panic(err) // only for an invalid key length, a constant here
	}
	enc := base64.RawStdEncoding
	return fmt.Sprintf("%s$%d$%s$%s", hashScheme, iter, enc.EncodeToString(salt), enc.EncodeToString(key))
}

// decodeHash splits a stored hash into its iteration count, salt and key.
func decodeHash(encoded string) (iter int, salt, key []byte, ok bool) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 4 || parts[0] != hashScheme {
		return 0, nil, nil, false
	}
	iter, err := strconv.Atoi(parts[1])
	if err != nil || iter < 1 || iter > maxHashIterations {
		return 0, nil, nil, false
	}
	enc := base64.RawStdEncoding
	salt, err1 := enc.DecodeString(parts[2])
	key, err2 := enc.DecodeString(parts[3])
	if err1 != nil || err2 != nil || len(key) != keyLen {
		return 0, nil, nil, false
	}
	return iter, salt, key, true
}

func checkPassword(encoded, password string) bool {
	iter, salt, want, ok := decodeHash(encoded)
	if !ok {
		return false
	}
	got, err := pbkdf2.Key(sha256.New, password, salt, iter, keyLen)
	return err == nil && subtle.ConstantTimeCompare(got, want) == 1
}

var userNameRe = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)

// normalizeUser lower-cases name and checks it can be a user name (it is
// also the local part of the address and a directory name).
func normalizeUser(name string) (string, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if !userNameRe.MatchString(n) || strings.Contains(n, "..") {
		return "", fmt.Errorf("%w: %q", ErrBadUserName, name)
	}
	return n, nil
}

// loginName turns what a mail client sends as user name ("alice" or
// "alice@umpire.local") into a user name.
func (h *Hub) loginName(login string) (string, bool) {
	login = strings.TrimSpace(login)
	if i := strings.LastIndexByte(login, '@'); i >= 0 {
		if !strings.EqualFold(login[i+1:], h.cfg.Domain) {
			return "", false
		}
		login = login[:i]
	}
	n, err := normalizeUser(login)
	return n, err == nil
}

// AddUser creates the user name with the given password and an INBOX. The
// name is lower-cased; the user's address is name@Domain.
func (h *Hub) AddUser(name, password string) error {
	n, err := normalizeUser(name)
	if err != nil {
		return err
	}
	if password == "" {
		return errors.New("hub: empty password")
	}
	hash := h.hashPassword(password) // slow: outside the lock
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	if h.users[n] != nil {
		return fmt.Errorf("%w: %s", ErrUserExists, n)
	}
	u := &user{name: n, hash: hash, mailboxes: map[string]*mailbox{}}
	h.users[n] = u
	if err := h.saveHubLocked(); err != nil {
		delete(h.users, n)
		return err
	}
	if _, err := h.createMailboxLocked(u, inboxName); err != nil {
		return err
	}
	return nil
}

// SetPassword replaces the password of an existing user.
func (h *Hub) SetPassword(name, password string) error {
	n, err := normalizeUser(name)
	if err != nil {
		return err
	}
	if password == "" {
		return errors.New("hub: empty password")
	}
	hash := h.hashPassword(password)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	u := h.users[n]
	if u == nil {
		return fmt.Errorf("%w: %s", ErrUnknownUser, n)
	}
	old := u.hash
	u.hash = hash
	if err := h.saveHubLocked(); err != nil {
		u.hash = old
		return err
	}
	h.auth.forget(n)
	return nil
}

// EnsureUser creates the user with a generated password if it does not
// exist, and returns that password; for an existing user it returns "" (the
// hub keeps only a hash and cannot tell the old password).
func (h *Hub) EnsureUser(name string) (password string, err error) {
	n, err := normalizeUser(name)
	if err != nil {
		return "", err
	}
	if h.HasUser(n) {
		return "", nil
	}
	pw := generatePassword()
	if err := h.AddUser(n, pw); err != nil {
		if errors.Is(err, ErrUserExists) {
			return "", nil // created meanwhile by someone else
		}
		return "", err
	}
	return pw, nil
}

// HasUser reports whether the user exists.
func (h *Hub) HasUser(name string) bool {
	n, err := normalizeUser(name)
	if err != nil {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.users[n] != nil
}

// Users returns the user names, sorted.
func (h *Hub) Users() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	names := make([]string, 0, len(h.users))
	for n := range h.users {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Address returns the mail address of a user name: name@Domain.
func (h *Hub) Address(name string) string {
	return strings.ToLower(name) + "@" + h.cfg.Domain
}

// generatePassword returns about 120 random bits as 24 lower-case letters
// and digits in groups of four, easy to copy by hand.
// ResetPassword gives user a new password, drawn at random, and returns
// it: the only copy (the hub keeps a hash). The user must exist.
func (h *Hub) ResetPassword(name string) (string, error) {
	pw := generatePassword()
	if err := h.SetPassword(name, pw); err != nil {
		return "", err
	}
	return pw, nil
}

func generatePassword() string {
	const alphabet = "abcdefghijkmnopqrstuvwxyz23456789" // no l, 0, 1
	b := make([]byte, 24)
	rand.Read(b)
	var sb strings.Builder
	for i, c := range b {
		if i > 0 && i%4 == 0 {
			sb.WriteByte('-')
		}
		sb.WriteByte(alphabet[int(c)%len(alphabet)])
	}
	return sb.String()
}

// authenticate checks a login. The slow hash runs outside the hub lock,
// and only when this user has not logged in with this password before
// (see authCache): a wrong password always pays it in full.
func (h *Hub) authenticate(login, password string) (*user, error) {
	name, ok := h.loginName(login)
	var u *user
	var hash string
	if ok {
		h.mu.Lock()
		if u = h.users[name]; u != nil {
			hash = u.hash
		}
		h.mu.Unlock()
	}
	if u != nil && h.auth.ok(u.name, hash, password) {
		return u, nil
	}
	if u == nil {
		hash = h.dummyHash()
	}
	h.fullChecks.Add(1)
	if !checkPassword(hash, password) || u == nil {
		return nil, ErrAuthFailed
	}
	if iter, _, _, _ := decodeHash(hash); iter < h.cfg.HashIterations {
		hash = h.upgradeHash(u, hash, password)
	}
	h.auth.remember(u.name, hash, password)
	return u, nil
}

// upgradeHash replaces old, the hash u just logged in with, by one with
// the hub's iteration count: for hashes from an older default, or from a
// hub directory a test wrote. It is best effort: the login succeeds anyway.
// It returns the user's hash for password now: the new one, or old when
// it could not be replaced.
func (h *Hub) upgradeHash(u *user, old, password string) string {
	hash := h.hashPassword(password)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || h.users[u.name] != u || u.hash != old {
		return old // closed, or the password changed meanwhile
	}
	u.hash = hash
	if err := h.saveHubLocked(); err != nil {
		u.hash = old
		h.cfg.Logger.Printf("hub: upgrading the password hash of %s: %v", u.name, err)
		return old
	}
	return hash
}

// ErrAuthFailed is returned for a wrong user name or password.
var ErrAuthFailed = errors.New("hub: authentication failed")
