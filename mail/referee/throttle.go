package referee

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates"
)

// Guessing secrets is throttled. Every order mail whose secret is given
// but wrong counts against two keys: the sender's address and the game's
// side. When one key has SecretGuesses wrong secrets within SecretWindow,
// a pause begins: for SecretWindow, every order mail from that address or
// for that side is refused WITHOUT reading its secret, even a right one
// (so a guesser learns nothing more, and the real player is not told
// "right" by accident); the side's player and the game's referee are
// mailed a notice once, in the transaction that began the pause; the
// referee may lift it with "command: unlock". A mail without a secret is
// not a guess and does not count.
//
// The counts live in the store under one global Meta key, written in the
// same transaction as the rejection that changes them, so that they
// survive a restart or a kill; each write drops wrong secrets older than
// the window and keys with nothing left, and keeps at most maxGuessKeys
// keys. Their read-modify-write is serialised by Desk.guessMu (the daemon
// is the data file's only writer).

const (
	// DefaultSecretGuesses is Desk.SecretGuesses when not set.
	DefaultSecretGuesses = 5
	// DefaultSecretWindow is Desk.SecretWindow when not set.
	DefaultSecretWindow = time.Hour

	guessesKey       = "secret-guesses" // the store Meta key
	maxGuessKeys     = 1000
	maxGuessesListed = 20 // wrong secrets listed in a notice
	codeBadSecret    = "bad-secret"
	timeLayout       = "2006-01-02 15:04:05 UTC"
)

// guessState is what guessesKey holds.
type guessState struct {
	V    int                    `json:"v"`
	Keys map[string]*guessEntry `json:"keys"` // "addr:ADDRESS" or "side:GAME/SIDE"
}

type guessEntry struct {
	Fails []guessFail `json:"fails,omitempty"` // within the window, oldest first
	Until time.Time   `json:"until"`           // paused until then; zero if never
}

// guessFail is one wrong secret: who, for what, when — never the secret.
type guessFail struct {
	At   time.Time `json:"at"`
	From string    `json:"from"`
	Game string    `json:"game"`
	Side string    `json:"side"`
}

func (d *Desk) guessLimits() (int, time.Duration) {
	n, w := d.SecretGuesses, d.SecretWindow
	if n == 0 {
		n = DefaultSecretGuesses
	}
	if w <= 0 {
		w = DefaultSecretWindow
	}
	return n, w
}

// lockGuesses serialises the changes to the counts.
func (d *Desk) lockGuesses() func() {
	d.guessMu.Lock()
	return d.guessMu.Unlock
}

func (d *Desk) loadGuesses(ctx context.Context) (*guessState, error) {
	st := &guessState{V: 1, Keys: map[string]*guessEntry{}}
	b, err := d.Games.Store.Meta(ctx, guessesKey)
	if errors.Is(err, store.ErrNotFound) {
		return st, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, st); err != nil || st.Keys == nil {
		d.log().Error("the counts of wrong secrets do not decode; starting again from zero", "key", guessesKey, "err", err)
		return &guessState{V: 1, Keys: map[string]*guessEntry{}}, nil
	}
	return st, nil
}

func (s *guessState) encode() map[string][]byte {
	b, _ := json.Marshal(s)
	return map[string][]byte{guessesKey: b}
}

func addrKey(addr string) string { return "addr:" + strings.ToLower(strings.TrimSpace(addr)) }
func sideKey(gameID string, side adjudicator.Side) string {
	return "side:" + gameID + "/" + string(side)
}

// prune drops the wrong secrets older than window, the keys with nothing
// left, and, beyond maxGuessKeys, the keys least recently active.
func (s *guessState) prune(now time.Time, window time.Duration) {
	for k, e := range s.Keys {
		e.Fails = slices.DeleteFunc(e.Fails, func(f guessFail) bool { return !f.At.After(now.Add(-window)) })
		if len(e.Fails) == 0 && !e.Until.After(now) {
			delete(s.Keys, k)
		}
	}
	if len(s.Keys) <= maxGuessKeys {
		return
	}
	keys := make([]string, 0, len(s.Keys))
	for k := range s.Keys {
		keys = append(keys, k)
	}
	last := func(k string) time.Time {
		e := s.Keys[k]
		t := e.Until
		if n := len(e.Fails); n > 0 && e.Fails[n-1].At.After(t) {
			t = e.Fails[n-1].At
		}
		return t
	}
	sort.Slice(keys, func(i, j int) bool { return last(keys[i]).After(last(keys[j])) })
	for _, k := range keys[maxGuessKeys:] {
		delete(s.Keys, k)
	}
}

// pausedUntil is when the pause on any of keys ends, zero if none is on.
func (s *guessState) pausedUntil(now time.Time, keys ...string) (until time.Time, on []string) {
	for _, k := range keys {
		if e := s.Keys[k]; e != nil && e.Until.After(now) {
			on = append(on, k)
			if e.Until.After(until) {
				until = e.Until
			}
		}
	}
	return until, on
}

// fail records f against keys. A key that reaches limit wrong secrets
// within the window is paused for window from now; its wrong secrets are
// returned (for the notice) and forgotten, so that it starts from zero
// when the pause ends. count is the most wrong secrets any key has now.
func (s *guessState) fail(f guessFail, limit int, window time.Duration, keys ...string) (count int, started []string, guesses []guessFail) {
	for _, k := range keys {
		e := s.Keys[k]
		if e == nil {
			e = &guessEntry{}
			s.Keys[k] = e
		}
		e.Fails = append(e.Fails, f)
		if n := len(e.Fails); n > limit {
			e.Fails = e.Fails[n-limit:]
		}
		count = max(count, len(e.Fails))
		if len(e.Fails) >= limit && !e.Until.After(f.At) {
			e.Until = f.At.Add(window)
			started = append(started, k)
			guesses = append(guesses, e.Fails...)
			e.Fails = nil
		}
	}
	// The same wrong secret counted under both keys is listed once.
	sort.Slice(guesses, func(i, j int) bool { return guesses[i].At.Before(guesses[j].At) })
	guesses = slices.Compact(guesses)
	return count, started, guesses
}

// isWrongSecret reports whether err says the secret was wrong and orders
// gave one (a mail without a secret is a mistake, not a guess).
func isWrongSecret(err error, orders []byte) bool {
	var list adjudicator.OrderErrors
	var e *adjudicator.OrderError
	switch {
	case errors.As(err, &list):
	case errors.As(err, &e):
		list = adjudicator.OrderErrors{e}
	}
	if !slices.ContainsFunc(list, func(e *adjudicator.OrderError) bool { return e.Code == codeBadSecret }) {
		return false
	}
	root, perr := yamlx.Parse(orders)
	if perr != nil || root.Kind != yaml.MappingNode {
		return true // the engine read a secret from it: count it
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "secret" {
			v := root.Content[i+1]
			return v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) != ""
		}
	}
	return false
}

// pauseGame names g in the pause mails, with the referee who can lift the
// pause: the game's own, or the one of umpire.yaml.
func (d *Desk) pauseGame(g *game.Game) templates.Game {
	info := gameInfo(g)
	if info.Referee == "" {
		info.Referee = d.Referee
	}
	return info
}

func (d *Desk) pause(until time.Time, on []string, addr string, side adjudicator.Side) templates.Pause {
	limit, window := d.guessLimits()
	p := templates.Pause{Until: until.UTC().Format(timeLayout), Window: duration(window), Limit: limit}
	for _, k := range on {
		if strings.HasPrefix(k, "addr:") {
			p.Address = strings.ToLower(strings.TrimSpace(addr))
		} else {
			p.Side = string(side)
		}
	}
	return p
}

// duration says a window in words: "1 hour", "30 minutes", "1h30m0s".
func duration(w time.Duration) string {
	switch {
	case w%time.Hour == 0:
		return plural(int(w/time.Hour), "hour")
	case w%time.Minute == 0:
		return plural(int(w/time.Minute), "minute")
	}
	return w.String()
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// refuseIfPaused answers an order mail for side of g without reading it
// when guessing secrets is paused for its sender or its side; done says
// whether it did.
func (h *handling) refuseIfPaused(ctx context.Context, g *game.Game, side adjudicator.Side) (done bool, err error) {
	d := h.d
	if limit, _ := d.guessLimits(); limit < 0 {
		return false, nil
	}
	st, err := d.loadGuesses(ctx)
	if err != nil {
		return false, err
	}
	until, on := st.pausedUntil(d.now(), addrKey(h.m.From), sideKey(g.ID, side))
	if len(on) == 0 {
		return false, nil
	}
	d.log().Info("order mail refused unread: guessing the secret is paused", "from", h.m.From, "game", g.ID, "side", side,
		"until", until.UTC().Format(time.RFC3339), "message_id", h.id)
	data := templates.PausedData{Game: d.pauseGame(g), Side: string(side), Pause: d.pause(until, on, h.m.From, side)}
	msg, err := d.reply(h.m, g.ID, "paused", templates.Paused, data)
	h.out.Game = g.ID
	if err != nil {
		d.log().Error("cannot build the reply to a paused side; filing the mail without a reply", "message_id", h.id, "err", err)
		return true, h.reject(ctx, "paused+unanswered", nil)
	}
	return true, h.reject(ctx, "paused", []store.Message{msg})
}

// wrongSecret rejects an order mail whose secret is wrong, counting it in
// the same transaction; the mail that reaches the limit begins a pause
// and queues its notices with the rejection.
func (h *handling) wrongSecret(ctx context.Context, g *game.Game, side adjudicator.Side, data templates.RejectedData) error {
	d := h.d
	limit, window := d.guessLimits()
	if limit < 0 {
		return h.rejectWith(ctx, "bad-secret", g.ID, data)
	}
	defer d.lockGuesses()()
	st, err := d.loadGuesses(ctx)
	if err != nil {
		return err
	}
	now := d.now()
	st.prune(now, window)
	f := guessFail{At: now, From: strings.ToLower(strings.TrimSpace(h.m.From)), Game: g.ID, Side: string(side)}
	count, started, guesses := st.fail(f, limit, window, addrKey(h.m.From), sideKey(g.ID, side))
	h.meta = st.encode()
	d.log().Info("order mail with a wrong secret", "from", h.m.From, "game", g.ID, "side", side, "wrong_secrets", count,
		"limit", limit, "window", window.String(), "message_id", h.id)
	if len(started) > 0 {
		until := now.Add(window)
		p := d.pause(until, started, h.m.From, side)
		data.Paused = &p
		d.log().Warn("too many wrong secrets: guessing is paused; the player and the referee are told", "from", h.m.From,
			"game", g.ID, "side", side, "wrong_secrets", len(guesses), "window", window.String(), "until", until.Format(time.RFC3339))
		notices, err := h.lockoutNotices(g, side, p, guesses)
		if err != nil {
			d.log().Error("cannot build the notices of a pause; the pause holds without them", "game", g.ID, "side", side, "err", err)
		}
		h.extra = notices
	}
	return h.rejectWith(ctx, "bad-secret", g.ID, data)
}

// lockoutNotices tell the side's player and the game's referee, once,
// that a pause began: how many wrong secrets, from where, when.
func (h *handling) lockoutNotices(g *game.Game, side adjudicator.Side, p templates.Pause, guesses []guessFail) ([]store.Message, error) {
	d := h.d
	info := d.pauseGame(g)
	owner := ""
	if pl, ok := g.Player(side); ok {
		owner = pl.Address
	}
	data := templates.LockoutData{Game: info, Side: string(side), Owner: owner, Pause: p, Unlock: d.unlockText(g.ID, side)}
	for i, f := range guesses {
		if i == maxGuessesListed {
			data.More = len(guesses) - i
			break
		}
		data.Guesses = append(data.Guesses, templates.Guess{Time: f.At.UTC().Format(timeLayout), From: f.From, Game: f.Game, Side: f.Side})
	}
	var msgs []store.Message
	if owner != "" && !sameAddress(owner, info.Referee) {
		m, err := d.toPlayer(g, owner, "lockout", []string{"player", string(side), h.id}, templates.Lockout, data)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m)
	}
	if info.Referee != "" {
		data.ToReferee = true
		m, err := d.toPlayer(g, info.Referee, "lockout", []string{"referee", string(side), h.id}, templates.Lockout, data)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m)
	} else {
		d.log().Warn("game has no referee to tell of a pause", "game", g.ID, "side", side)
	}
	return msgs, nil
}

func (d *Desk) unlockText(gameID string, side adjudicator.Side) string {
	s := fmt.Sprintf("command: unlock\ngame: %s\nside: %s\n", gameID, side)
	if d.RefereeSecret != "" {
		s += "secret: (the referee secret of umpire.yaml)\n"
	}
	return s
}

// unlockCommand is the referee's "command: unlock": lift the pause on a
// side (or every side) of a game, and on its player's address.
type unlockCommand struct {
	Command string `yaml:"command"`
	Secret  string `yaml:"secret"`
	Game    string `yaml:"game"`
	Side    string `yaml:"side"` // default: every side
}

// isUnlock reports whether orders are "command: unlock".
func isUnlock(orders []byte) bool {
	root, err := yamlx.Parse(orders)
	if err != nil || root.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "command" {
			return strings.TrimSpace(root.Content[i+1].Value) == "unlock"
		}
	}
	return false
}

// refereeSecretOK checks a command's secret against umpire.yaml's, in
// constant time.
func (d *Desk) refereeSecretOK(given string) bool {
	if d.RefereeSecret == "" {
		return true
	}
	want := sha256.Sum256([]byte(d.RefereeSecret))
	got := sha256.Sum256([]byte(strings.TrimSpace(given)))
	return subtle.ConstantTimeCompare(want[:], got[:]) == 1
}

// unlock lifts pauses: the referee's "command: unlock".
func (h *handling) unlock(ctx context.Context) error {
	d := h.d
	var c unlockCommand
	if err := yamlx.Unmarshal(h.m.Orders, &c); err != nil {
		return h.unlockReply(ctx, "", false, "The command could not be read:\n"+renumber(err, h.m.LineOffset), nil)
	}
	if !d.refereeSecretOK(c.Secret) {
		d.log().Warn("referee command with a wrong secret", "from", h.m.From, "command", c.Command)
		return h.unlockReply(ctx, "", false, "The secret is missing or wrong: add the line \"secret: ...\" with the referee secret of umpire.yaml.", nil)
	}
	g, why := h.gameForReferee(ctx, Command{Game: c.Game})
	if g == nil {
		return h.unlockReply(ctx, "", false, why, nil)
	}
	var sides []adjudicator.Side
	if c.Side != "" {
		if _, ok := g.Player(adjudicator.Side(c.Side)); !ok {
			return h.unlockReply(ctx, g.ID, false, fmt.Sprintf("Game %s has no side %q; its sides are %s.", g.ID, c.Side, joinSides(g.Sides())), nil)
		}
		sides = []adjudicator.Side{adjudicator.Side(c.Side)}
	} else {
		sides = g.Sides()
	}
	defer d.lockGuesses()()
	st, err := d.loadGuesses(ctx)
	if err != nil {
		return err
	}
	now := d.now()
	_, window := d.guessLimits()
	st.prune(now, window)
	var lifted, reset []string
	for _, side := range sides {
		keys := []string{sideKey(g.ID, side)}
		names := []string{fmt.Sprintf("side %s", side)}
		if p, ok := g.Player(side); ok && p.Address != "" {
			keys = append(keys, addrKey(p.Address))
			names = append(names, strings.ToLower(strings.TrimSpace(p.Address)))
		}
		for i, k := range keys {
			e := st.Keys[k]
			if e == nil {
				continue
			}
			if e.Until.After(now) {
				lifted = append(lifted, names[i])
			} else {
				reset = append(reset, names[i])
			}
			delete(st.Keys, k)
		}
	}
	var b strings.Builder
	switch {
	case len(lifted) > 0:
		fmt.Fprintf(&b, "Guessing is no longer paused for %s in game %s: their order mails are read again.", strings.Join(lifted, " and "), g.ID)
	default:
		fmt.Fprintf(&b, "Nothing was paused in game %s.", g.ID)
	}
	if len(lifted)+len(reset) > 0 {
		b.WriteString(" Their counts of wrong secrets start again from zero.")
	}
	d.log().Info("the referee lifted a pause on guessing secrets", "from", h.m.From, "game", g.ID, "lifted", strings.Join(lifted, ", "))
	return h.unlockReply(ctx, g.ID, true, b.String(), st.encode())
}

// unlockReply answers the unlock command, with the new counts in the same
// transaction.
func (h *handling) unlockReply(ctx context.Context, gameID string, ok bool, text string, meta map[string][]byte) error {
	data := templates.RefereeData{Game: templates.Game{ID: gameID}, Command: "unlock", OK: ok, Text: text}
	msg, err := h.d.reply(h.m, gameID, "referee", templates.Referee, data)
	if err != nil {
		return err
	}
	b := store.Batch{Marks: []string{h.mark}, Outbox: []store.Message{msg}, Meta: meta}
	h.out.Folder, h.out.Reason = Processed, "command-unlock"
	if !ok {
		b.Marks = append(b.Marks, h.rejMark)
		h.out.Folder, h.out.Reason = Rejected, "command-unlock-refused"
	}
	if _, err := h.d.Games.Store.Append(ctx, b); err != nil {
		return err
	}
	h.out.Game = gameID
	h.out.Replies = 1
	return nil
}
