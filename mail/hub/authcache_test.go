package hub

import (
	"errors"
	"fmt"
	"sync"
	"testing"
)

// openHub opens a hub (not started) that the test closes.
func openHub(t *testing.T) *Hub {
	t.Helper()
	h, err := Open(t.TempDir(), testConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// login authenticates and says whether it passed and whether it ran the
// slow hash.
func login(t *testing.T, h *Hub, user, pw string) (ok, slow bool) {
	t.Helper()
	before := h.fullChecks.Load()
	_, err := h.authenticate(user, pw)
	if err != nil && !errors.Is(err, ErrAuthFailed) {
		t.Fatal(err)
	}
	return err == nil, h.fullChecks.Load() != before
}

// TestLoginRemembered: the first login runs the slow hash, a second one
// with the same password does not, in any spelling of the user name.
func TestLoginRemembered(t *testing.T) {
	h := openHub(t)
	addUser(t, h, "alice", "pw")
	if ok, slow := login(t, h, "alice", "pw"); !ok || !slow {
		t.Fatalf("first login: ok=%v slow=%v, want a full check that passes", ok, slow)
	}
	for _, name := range []string{"alice", "ALICE", "alice@" + DefaultDomain} {
		if ok, slow := login(t, h, name, "pw"); !ok || slow {
			t.Errorf("login again as %q: ok=%v slow=%v, want a remembered pass", name, ok, slow)
		}
	}
}

// TestWrongPasswordNeverCheap: a wrong password pays the full hash every
// time, before and after the right one was remembered, and is never taken
// for good; nor is an unknown user.
func TestWrongPasswordNeverCheap(t *testing.T) {
	h := openHub(t)
	addUser(t, h, "alice", "pw")
	try := func(user, pw string) {
		t.Helper()
		for range 2 {
			if ok, slow := login(t, h, user, pw); ok || !slow {
				t.Errorf("login %s/%q: ok=%v slow=%v, want a full check that fails", user, pw, ok, slow)
			}
		}
	}
	try("alice", "wrong")
	login(t, h, "alice", "pw") // remembered now
	try("alice", "wrong")
	try("alice", "pw ")
	try("alice", "")
	try("bob", "pw")
	if ok, slow := login(t, h, "alice", "pw"); !ok || slow {
		t.Errorf("the right password after wrong ones: ok=%v slow=%v, want a remembered pass", ok, slow)
	}
}

// TestPasswordChangeForgets: after SetPassword or ResetPassword the old
// password fails (with a full check) and the new one is checked in full
// once before it is remembered.
func TestPasswordChangeForgets(t *testing.T) {
	h := openHub(t)
	addUser(t, h, "alice", "old")
	login(t, h, "alice", "old")
	if err := h.SetPassword("alice", "new"); err != nil {
		t.Fatal(err)
	}
	if ok, slow := login(t, h, "alice", "old"); ok || !slow {
		t.Errorf("the old password after SetPassword: ok=%v slow=%v", ok, slow)
	}
	if ok, slow := login(t, h, "alice", "new"); !ok || !slow {
		t.Errorf("the new password, first time: ok=%v slow=%v", ok, slow)
	}
	if ok, slow := login(t, h, "alice", "new"); !ok || slow {
		t.Errorf("the new password, again: ok=%v slow=%v", ok, slow)
	}
	pw, err := h.ResetPassword("alice")
	if err != nil {
		t.Fatal(err)
	}
	if ok, _ := login(t, h, "alice", "new"); ok {
		t.Error("the password before ResetPassword still logs in")
	}
	if ok, slow := login(t, h, "alice", pw); !ok || !slow {
		t.Errorf("the reset password: ok=%v slow=%v", ok, slow)
	}
}

// TestRememberedHashIsBound: an entry is tied to the stored hash it was
// checked against, so even if a password change were not told to the
// cache, the old password would not pass against the new hash.
func TestRememberedHashIsBound(t *testing.T) {
	h := openHub(t)
	addUser(t, h, "alice", "old")
	login(t, h, "alice", "old")
	newHash := h.hashPassword("new")
	h.mu.Lock()
	h.users["alice"].hash = newHash // as SetPassword, without forget
	h.mu.Unlock()
	if h.auth.ok("alice", newHash, "old") {
		t.Fatal("the old password is remembered against the new hash")
	}
	if ok, _ := login(t, h, "alice", "old"); ok {
		t.Error("the old password logs in against the new hash")
	}
}

// TestAuthCacheBounded: no more users are remembered than the bound, and
// a user pushed out is checked in full again.
func TestAuthCacheBounded(t *testing.T) {
	h := openHub(t)
	h.auth = newAuthCache(3)
	for i := range 5 {
		addUser(t, h, fmt.Sprintf("u%d", i), "pw")
	}
	slow := 0
	for range 2 {
		for i := range 5 {
			ok, s := login(t, h, fmt.Sprintf("u%d", i), "pw")
			if !ok {
				t.Fatalf("u%d refused", i)
			}
			if s {
				slow++
			}
		}
		if n := h.auth.len(); n > 3 {
			t.Fatalf("%d users remembered, bound 3", n)
		}
	}
	// Five users take turns through three places: some of the second
	// round must have been pushed out and checked again.
	if slow <= 5 {
		t.Errorf("%d full checks for 10 logins of 5 users through 3 places, want more than 5", slow)
	}
}

// TestAuthCacheConcurrent: logins, failures and password changes from many
// goroutines at once (run with -race) leave the right answers.
func TestAuthCacheConcurrent(t *testing.T) {
	h := openHub(t)
	addUser(t, h, "alice", "a")
	addUser(t, h, "bob", "b")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 20 {
				if _, err := h.authenticate("alice", "a"); err != nil {
					t.Error("alice refused")
				}
				if _, err := h.authenticate("alice", "b"); err == nil {
					t.Error("alice let in with bob's password")
				}
				if i == 0 {
					if err := h.SetPassword("bob", "b"); err != nil {
						t.Error(err)
					}
				} else if _, err := h.authenticate("bob", "b"); err != nil {
					t.Error("bob refused")
				}
			}
		})
	}
	wg.Wait()
}
