package adjudicator

import "slices"

// Secret state. Most of a game's state is public: its events are in the
// log every side may read. A ruleset with hidden state (troops that move
// unseen, a secret ally chosen at the start, a marker drawn in secret)
// emits those changes wrapped in a Secret: the engine keeps the wrapped
// event out of the public log, sealed like a hidden order (docs/trust.md,
// "Sealed parts"), folds it into the state all the same, and reveals it
// when the ruleset emits a Reveal naming its Key, or when the game ends.
//
// The ruleset's Evolve never sees a Secret or a Reveal: it receives the
// wrapped event itself, and a Reveal changes nothing in the state. What
// each side may see of the state is the ruleset's View, as always; a
// Secret only keeps the log, the exports and the state hashes from
// telling it before its time.

// TypeSecret and TypeReveal are the stored names of Secret and Reveal.
const (
	TypeSecret = "state.sealed"
	TypeReveal = "state.reveal"
)

// Secret is a ruleset event not every side may read yet.
type Secret struct {
	// To is who may read it now: the sides (and the referee, always).
	// It must not be public.
	To Audience `json:"to"`
	// Key groups the secrets a Reveal opens together ("relations",
	// "troop-R3"); "" keeps it sealed until the game ends. A key is public:
	// it must not tell what the secret is.
	Key string `json:"key,omitempty"`
	// Event is the wrapped ruleset event.
	Event Event `json:"-"`
}

// EventType implements Event.
func (*Secret) EventType() string { return TypeSecret }

// Reveal opens every secret made so far under one of Keys: the engine
// appends their openings to the log. It changes nothing in the state.
type Reveal struct {
	Keys []string `json:"keys"`
}

// EventType implements Event.
func (*Reveal) EventType() string { return TypeReveal }

// Seal wraps ev as a secret for audience under key.
func Seal(to Audience, key string, ev Event) *Secret {
	return &Secret{To: slices.Clone(to), Key: key, Event: ev}
}

// Unwrap returns the ruleset event inside ev: the event of a Secret, nil
// for a Reveal (which changes no state), ev itself otherwise.
func Unwrap(ev Event) Event {
	switch e := ev.(type) {
	case *Secret:
		return e.Event
	case *Reveal:
		return nil
	}
	return ev
}
