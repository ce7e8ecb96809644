package referee

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// TestGuessKeysAreIndependent: a side's count and an address's count each
// start their own pause; wrong secrets age out of the window.
func TestGuessKeysAreIndependent(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	st := &guessState{V: 1, Keys: map[string]*guessEntry{}}
	side := sideKey("g1", "red")
	// Two addresses guess for one side (say, a player's two addresses).
	for i := 0; i < 4; i++ {
		from := []string{"a@x.org", "b@x.org"}[i%2]
		f := guessFail{At: t0.Add(time.Duration(i) * time.Minute), From: from, Game: "g1", Side: "red"}
		if _, started, _ := st.fail(f, 5, time.Hour, addrKey(from), side); len(started) > 0 {
			t.Fatalf("guess %d started %v", i+1, started)
		}
	}
	f := guessFail{At: t0.Add(5 * time.Minute), From: "a@x.org", Game: "g1", Side: "red"}
	count, started, guesses := st.fail(f, 5, time.Hour, addrKey("a@x.org"), side)
	if count != 5 || len(started) != 1 || started[0] != side || len(guesses) != 5 {
		t.Fatalf("the side's fifth: count %d, started %v, %d guesses", count, started, len(guesses))
	}
	now := t0.Add(6 * time.Minute)
	if until, on := st.pausedUntil(now, addrKey("c@x.org"), sideKey("g1", "blue")); len(on) != 0 {
		t.Errorf("another address and side are paused until %v", until)
	}
	if until, on := st.pausedUntil(now, addrKey("A@X.org "), sideKey("g2", "red")); len(on) != 0 {
		t.Errorf("address a (3 guesses) is paused until %v", until)
	}
	if until, on := st.pausedUntil(now, addrKey("c@x.org"), side); len(on) != 1 || !until.Equal(t0.Add(65*time.Minute)) {
		t.Errorf("the side: paused until %v (%v)", until, on)
	}
	// An hour after the last guess everything is forgotten.
	st.prune(t0.Add(65*time.Minute), time.Hour)
	if len(st.Keys) != 0 {
		t.Errorf("left after the window: %v", st.Keys)
	}
}

// TestGuessStateIsBounded: at most limit wrong secrets per key, at most
// maxGuessKeys keys.
func TestGuessStateIsBounded(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	st := &guessState{V: 1, Keys: map[string]*guessEntry{}}
	for i := 0; i < maxGuessKeys+50; i++ {
		from := fmt.Sprintf("p%d@x.org", i)
		st.fail(guessFail{At: t0.Add(time.Duration(i) * time.Second), From: from}, 5, time.Hour, addrKey(from))
	}
	st.prune(t0.Add(time.Hour), time.Hour)
	if len(st.Keys) != maxGuessKeys {
		t.Fatalf("%d keys", len(st.Keys))
	}
	if st.Keys[addrKey("p0@x.org")] != nil || st.Keys[addrKey(fmt.Sprintf("p%d@x.org", maxGuessKeys+49))] == nil {
		t.Error("the oldest keys should go first")
	}
	e := &guessEntry{}
	st = &guessState{V: 1, Keys: map[string]*guessEntry{"k": e}}
	for i := 0; i < 3; i++ {
		st.fail(guessFail{At: t0}, 2, time.Hour, "k")
	}
	if len(e.Fails) > 2 {
		t.Errorf("%d wrong secrets kept with a limit of 2", len(e.Fails))
	}
}

func TestCut(t *testing.T) {
	for _, c := range []struct {
		in         string
		runes, max int
	}{
		{strings.Repeat("x", 1000), 200, 400},
		{strings.Repeat("é", 1000), 200, 400},
		{strings.Repeat("日", 1000), 200, 400},
		{"short", 200, 400},
		{"bad \xff utf-8", 200, 400},
	} {
		got := cut(c.in, c.runes, c.max)
		if len(got) > c.max || !utf8Valid(got) {
			t.Errorf("cut(%.20q…) = %d bytes, valid %v", c.in, len(got), utf8Valid(got))
		}
		if len(c.in) > c.max && !strings.HasSuffix(got, " …") {
			t.Errorf("cut(%.20q…) is not marked: %q", c.in, got)
		}
	}
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "?") == s }

// TestSecretValuesHiddenInMessages: an error message that repeats the
// secret given shows "(hidden)".
func TestSecretValuesHiddenInMessages(t *testing.T) {
	q := newQuoter([]byte("game: g\nsecret: 'tiger-42' # mine\nturn: x\n"), 3)
	if got := q.line(2); got != "secret: (hidden)" {
		t.Errorf("line 2: %q", got)
	}
	list := adjudicator.OrderErrors{{Line: 3, Column: 7, Code: "bad-value", Msg: "turn: tiger-42 is not a number"}}
	els, more := q.errorLines(list)
	if more != 0 || len(els) != 1 || strings.Contains(els[0].Msg, "tiger") || els[0].Line != 6 || len(els[0].Quote) != 2 {
		t.Errorf("%+v", els)
	}
}
