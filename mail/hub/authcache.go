package hub

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"sync"
)

// Logins are remembered so that a mail program that logs in again (every
// SMTP submission, every IMAP reconnection) does not pay PBKDF2 each time:
// at the default count that is over 100 ms of CPU per login. After a
// successful full check, the hub keeps, per user, an HMAC-SHA256 under a
// key drawn at random when the hub opens (never written anywhere) of the
// user name, the stored hash the password was checked against, and the
// password. A later login with the same password against the same stored
// hash matches that HMAC and succeeds at once.
//
// What it must never do:
//   - accept a password that did not pass the full check: only a success
//     is remembered, and the HMAC binds the very hash it passed against,
//     so a new password (SetPassword, ResetPassword, an upgraded hash)
//     makes the old entry useless even before it is dropped;
//   - make a wrong password cheaper to try: a miss runs the full PBKDF2,
//     exactly as without the cache, and a failure is never remembered;
//   - keep anything a copy of memory could turn into the password more
//     easily than hub.json's hashes: the key lives only in this process
//     and dies with it, and an HMAC under a random 256-bit key reveals
//     nothing without it;
//   - grow without bound: at most authCacheSize users are remembered.

// authCacheSize bounds the users remembered at once; a club's hub has a
// few dozen.
const authCacheSize = 1024

type authCache struct {
	key  []byte
	size int

	mu sync.Mutex
	m  map[string][sha256.Size]byte // user → HMAC
}

func newAuthCache(size int) *authCache {
	key := make([]byte, 32)
	rand.Read(key)
	return &authCache{key: key, size: size, m: map[string][sha256.Size]byte{}}
}

func (c *authCache) mac(user, hash, password string) [sha256.Size]byte {
	m := hmac.New(sha256.New, c.key)
	// Each part is preceded by its length, so no two triples collide.
	for _, s := range []string{user, hash, password} {
		n := len(s)
		m.Write([]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)})
		m.Write([]byte(s))
	}
	var out [sha256.Size]byte
	m.Sum(out[:0])
	return out
}

// ok reports whether user logged in with password against hash before.
func (c *authCache) ok(user, hash, password string) bool {
	c.mu.Lock()
	want, found := c.m[user]
	c.mu.Unlock()
	if !found {
		return false
	}
	got := c.mac(user, hash, password)
	return hmac.Equal(got[:], want[:])
}

// remember records that password passed the full check against hash.
func (c *authCache) remember(user, hash, password string) {
	mac := c.mac(user, hash, password)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, found := c.m[user]; !found && len(c.m) >= c.size {
		for other := range c.m { // make room: drop any one
			delete(c.m, other)
			break
		}
	}
	c.m[user] = mac
}

// forget drops what is remembered of user (its password changed).
func (c *authCache) forget(user string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, user)
}

func (c *authCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
