package games

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store"
)

// Importing games and recovering a damaged data file.
//
// A game's log can come back from an export bundle (umpire import, or
// umpire recover for a game the damaged file lost) or from the damaged file
// itself (every game that is intact there, and the intact beginning of one
// that is not). The log is written as it was: the store chains the same
// events to the same hashes. What a bundle never holds are the game's
// private values (see secrets.go); whatever the damaged file still has of
// them is kept, and the rest is made good where it can be:
//
//   - the dice secret of the chain in use: a fresh chain is committed by a
//     dice.chain-extended event from the referee, before any die of it is
//     rolled; the old chain's unrevealed seeds are never used;
//   - a player's check value: a new secret is drawn, for the referee to send
//     to that player;
//   - the opening of hidden orders not yet adjudicated: the log goes back to
//     just before them, and those orders must be sent again.
//
// Openings of anything else (a side's private report lines, a notice, the
// text of orders sent ahead) cannot be made good: the game's log stays
// sound, but the game fails when it must reveal them. Restored says so.

// Restored is what became of one game.
type Restored struct {
	Game   string
	From   string     // where its log came from, for people
	Damage string     // what was wrong with it in the damaged file; "" when nothing
	Events int        // events written (with any the restore added)
	Head   store.Hash // the hash of the last
	// OldHead is the head the game had where its log came from, when the
	// restore changed it (cut its end or added an event).
	OldEvents int
	OldHead   store.Hash
	Cut       []string // what was cut from the end of the log, for people
	Kept      []string // the private values kept, by name
	// NewChain is the fresh dice chain committed, at event ChainSeq; nil
	// when the secret of the chain in use was kept, or none is needed.
	NewChain   *game.ChainExtended
	ChainSeq   uint64
	NewSecrets map[adjudicator.Side]string // new player secrets: tell each player theirs
	Lost       []string                    // what could not be made good, for people
	Unchecked  string                      // why the game was copied without loading it, if it was
}

// Changed reports whether the players must be told anything.
func (r *Restored) Changed() bool {
	return len(r.Cut) > 0 || r.NewChain != nil || len(r.NewSecrets) > 0 || len(r.Lost) > 0
}

// Import adds the game of an export bundle to the store. The bundle must
// verify (hash chain, seeds, dice, every file, and a replay with this
// build's rules); the game must not be in the store yet. private holds
// whatever private values of the game are known (nil for none).
func (s *Service) Import(ctx context.Context, r io.Reader, private map[string][]byte) (*Restored, error) {
	evs, mod, err := s.readBundle(r)
	if err != nil {
		return nil, err
	}
	return s.restore(ctx, evs, private, "an export bundle", mod)
}

// readBundle reads and verifies a bundle, and returns its events and the
// files of its module (nil for a game not played from module data).
func (s *Service) readBundle(r io.Reader) ([]store.Event, *adjudicator.Module, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBundleTotal+1))
	if err != nil {
		return nil, nil, fmt.Errorf("reading the bundle: %w", err)
	}
	a, err := VerifyBundle(bytes.NewReader(data), s.Rules, Known{})
	if err != nil {
		return nil, nil, err
	}
	if !a.OK() {
		return nil, nil, fmt.Errorf("the bundle does not verify, so it is not imported: %s", strings.Join(a.Problems, "; "))
	}
	b, err := ReadBundle(bytes.NewReader(data))
	if err != nil {
		return nil, nil, err
	}
	if _, kids, _, series := splitSeries(b); series {
		// A restore may cut or extend a log (lost openings, a new dice
		// chain), which would break the series' links to its games.
		return nil, nil, fmt.Errorf("this is the bundle of the series %s and its %d games: umpire import takes the bundle of one game; a series is not imported (its links to its games could not be kept if a log had to be cut or extended)", b.Root, len(kids))
	}
	evs, err := b.Events()
	if err != nil {
		return nil, nil, err
	}
	var c game.Created
	json.Unmarshal(evs[0].Payload, &c) // it verified
	mod, _, _ := bundleModule(b, c.Module)
	return evs, mod, nil
}

// health is what a game's log needs of its private values to go on.
type health struct {
	g        *game.Game
	dice     int                // the chain whose secret is needed, -1 for none
	diceOK   bool               // that secret is there and matches its commitment
	players  []adjudicator.Side // the seats (game.Player.SeatName) whose check value is missing
	openings []game.SealedRef   // commitments whose openings are missing
}

// examine loads a game and finds what it lacks of private.
func examine(entries []game.Entry, private map[string][]byte, rules game.Source) (*health, error) {
	// Sealed ruleset events fold from their openings, in private.
	g, err := game.Load(entries, game.WithOpenings(rules, func(_, c string) ([]byte, error) { return private[sealedSecret(c)], nil }))
	if errors.Is(err, game.ErrSealed) {
		return nil, fmt.Errorf("%w: the opening of a sealed part of the game's state is missing, and the state cannot be rebuilt without it: restore the data file from a backup that has it", err)
	}
	if err != nil {
		return nil, err
	}
	h := &health{g: g, dice: -1}
	if !g.Over() {
		if g.Created.Dice.Mode == game.DiceChain && len(g.Chains) > 0 {
			h.dice = len(g.Chains) - 1
			h.diceOK = diceMatches(private[diceSecret(h.dice)], g.Chains[h.dice])
		}
		for _, p := range g.Created.Players {
			if private[playerSecret(p.SeatName())] == nil {
				h.players = append(h.players, p.SeatName())
			}
		}
	}
	for _, ref := range g.Unrevealed {
		if b := private[sealedSecret(ref.Commitment)]; b == nil || game.Digest(b) != ref.Commitment {
			h.openings = append(h.openings, ref)
		}
	}
	return h, nil
}

func diceMatches(secret []byte, c game.ChainExtended) bool {
	ch, err := dice.NewChain(secret, c.ChainLength)
	return err == nil && hex.EncodeToString(ch.Commitment()) == c.Commitment
}

// who names the player who holds seat: his side for a side's only player
// or captain, "SIDE/N" for the Nth player of a team (docs/teams.md).
func (h *health) who(seat adjudicator.Side) adjudicator.Side {
	p, ok := h.g.PlayerAt(seat)
	if !ok {
		return seat
	}
	if q, _ := h.g.Player(p.Side); q.SeatName() == seat {
		return p.Side
	}
	return seat
}

// Problems says, for people, why a game cannot go on as it is stored.
func (h *health) problems() []string {
	var out []string
	if h.dice >= 0 && !h.diceOK {
		out = append(out, fmt.Sprintf("the dice secret of chain %d (%s) is missing or does not match its commitment", h.dice, diceSecret(h.dice)))
	}
	for _, seat := range h.players {
		out = append(out, fmt.Sprintf("the check value of %s's player secret (%s) is missing", h.who(seat), playerSecret(seat)))
	}
	for _, ref := range h.openings {
		out = append(out, fmt.Sprintf("the opening of event %d's sealed part (%s) is missing", ref.Seq, sealedSecret(ref.Commitment)))
	}
	return out
}

// Health reports what a stored game lacks to go on: a missing or wrong
// dice secret, player check value or opening. nil means nothing. rules
// finds the game's ruleset and module (MetaModules reads a damaged
// file's library).
func Health(evs []store.Event, private map[string][]byte, rules game.Source) ([]string, error) {
	h, err := examine(ToEntries(evs), private, rules)
	if err != nil {
		return nil, err
	}
	return h.problems(), nil
}

// restore writes a game's log and private values to the store, making good
// what it can (see above). The store must not have the game yet.
func (s *Service) restore(ctx context.Context, evs []store.Event, private map[string][]byte, from string, mod *adjudicator.Module) (*Restored, error) {
	if len(evs) == 0 {
		return nil, errors.New("no events to restore")
	}
	if err := CheckChain(evs); err != nil {
		return nil, err
	}
	entries := ToEntries(evs)
	src := s.source(ctx)
	if mod != nil {
		src = s.Rules.With(func(ruleset string, ref adjudicator.ModuleRef) (adjudicator.Module, error) {
			if m, err := game.FilesOf(*mod)(ruleset, ref); err == nil {
				return m, nil
			}
			return s.source(ctx).Module(ruleset, ref)
		})
	}
	h, err := examine(entries, private, src)
	if err != nil {
		return nil, fmt.Errorf("the log does not load with this build's rules: %w", err)
	}
	id := h.g.ID
	r := &Restored{Game: id, From: from, OldEvents: len(evs), OldHead: evs[len(evs)-1].Hash}
	if v, err := s.Store.Version(ctx, id); err == nil && v > 0 {
		return nil, fmt.Errorf("game %s is in the data file already", id)
	}

	// Hidden orders not adjudicated yet whose text is lost: back to just
	// before the first of them. The engine needs their text to adjudicate.
	if cut := firstLostPending(h, entries); cut > 0 {
		for _, e := range entries[cut-1:] {
			r.Cut = append(r.Cut, describeCut(e))
		}
		evs, entries = evs[:cut-1], entries[:cut-1]
		if h, err = examine(entries, private, src); err != nil {
			return nil, fmt.Errorf("the log cut before event %d does not load: %w", cut, err)
		}
	}
	var lost []game.SealedRef
	for _, ref := range h.openings {
		r.Lost = append(r.Lost, describeLost(ref, entries))
		lost = append(lost, ref)
	}

	keep := map[string][]byte{}
	for name, v := range private {
		switch {
		case strings.HasPrefix(name, "dice/") && name == diceSecret(h.dice) && !h.diceOK:
			continue // wrong: it would not roll the committed dice
		case strings.HasPrefix(name, "sealed/") && game.Digest(v) != strings.TrimPrefix(name, "sealed/"):
			continue
		}
		keep[name] = v
		r.Kept = append(r.Kept, name)
	}
	slices.Sort(r.Kept)

	b := store.Batch{Game: id, Events: make([]store.NewEvent, len(evs)), Secrets: keep}
	for i, e := range evs {
		b.Events[i] = e.NewEvent
	}
	s.keepModule(ctx, &b, h.g.Module) // the module's files, with the game
	if h.dice >= 0 && !h.diceOK {
		secret, err := s.random(dice.SeedSize)
		if err != nil {
			return nil, err
		}
		old := h.g.Chains[h.dice]
		ch, err := dice.NewChain(secret, old.ChainLength)
		if err != nil {
			return nil, err
		}
		ce := game.ChainExtended{Chain: h.dice + 1, Commitment: hex.EncodeToString(ch.Commitment()), ChainLength: old.ChainLength, FromK: h.g.K + 1}
		payload, err := json.Marshal(ce)
		if err != nil {
			return nil, err
		}
		rec := game.Record{Type: game.TypeChainExtended, Schema: game.Schema(game.TypeChainExtended), Time: s.now(), Actor: game.ActorReferee, Payload: payload}
		seq := uint64(len(evs) + 1)
		if err := h.g.Apply(game.Entry{Seq: seq, Record: rec}); err != nil {
			return nil, fmt.Errorf("committing a fresh dice chain: %w", err)
		}
		b.Events = append(b.Events, toNew([]game.Record{rec})...)
		keep[diceSecret(ce.Chain)] = secret
		r.NewChain, r.ChainSeq = &ce, seq
	}
	// Openings lost for good: say so in the log, so that nothing waits
	// for them (the end of the game reveals every sealed part).
	for _, ref := range lost {
		seq := uint64(len(b.Events) + 1)
		rec, err := h.g.LostRecord(s.now(), ref, "the referee's data file was damaged and this game was restored without it")
		if err != nil {
			return nil, fmt.Errorf("recording a lost sealed part (event %d): %w", seq, err)
		}
		b.Events = append(b.Events, toNew([]game.Record{rec})...)
	}
	for _, seat := range h.players {
		sec, verifier, err := s.drawPlayerSecret()
		if err != nil {
			return nil, err
		}
		keep[playerSecret(seat)] = verifier
		if r.NewSecrets == nil {
			r.NewSecrets = map[adjudicator.Side]string{}
		}
		r.NewSecrets[h.who(seat)] = sec
	}
	defer s.lock(id)()
	out, err := s.Store.Append(ctx, b)
	if err != nil {
		return nil, fmt.Errorf("writing game %s: %w", id, err)
	}
	if last := out[len(evs)-1]; last.Hash != evs[len(evs)-1].Hash {
		return nil, fmt.Errorf("game %s: the store chained event %d to %s, not %s", id, last.Seq, last.Hash, evs[len(evs)-1].Hash)
	}
	r.Events, r.Head = len(out), out[len(out)-1].Hash
	if r.Events == r.OldEvents && r.Head == r.OldHead {
		r.OldEvents, r.OldHead = 0, store.Hash{}
	}
	return r, nil
}

// firstLostPending returns the event of the first answer received since the
// last adjudication whose sealed text is lost, or 0.
func firstLostPending(h *health, entries []game.Entry) uint64 {
	last := uint64(0)
	for _, e := range entries {
		if e.Type == game.TypeAdjudicated {
			last = e.Seq
		}
	}
	first := uint64(0)
	for _, ref := range h.openings {
		if ref.Seq > last && entries[ref.Seq-1].Type == game.TypeOrders && (first == 0 || ref.Seq < first) {
			first = ref.Seq
		}
	}
	return first
}

func describeCut(e game.Entry) string {
	if e.Type == game.TypeOrders {
		var oa game.OrdersAccepted
		if json.Unmarshal(e.Payload, &oa) == nil {
			return fmt.Sprintf("event %d: %s's orders for turn %d, phase %s: %s must send them again", e.Seq, oa.Side, oa.Turn, oa.Phase, oa.Side)
		}
	}
	return fmt.Sprintf("event %d (%s)", e.Seq, e.Type)
}

func describeLost(ref game.SealedRef, entries []game.Entry) string {
	e := entries[ref.Seq-1]
	what := "its sealed part"
	switch e.Type {
	case game.TypeOrders:
		var oa game.OrdersAccepted
		if json.Unmarshal(e.Payload, &oa) == nil {
			what = fmt.Sprintf("the sealed text of %s's orders for turn %d, phase %s", oa.Side, oa.Turn, oa.Phase)
		}
	case game.TypeAdjudicated:
		what = "the report lines and rolls of the adjudication that not every side may read"
	case game.TypeQueueDropped:
		what = "the reason told to one side alone"
	}
	return fmt.Sprintf("event %d (%s): %s cannot be revealed; the game fails when it must reveal it", e.Seq, e.Type, what)
}

// Recovery is what Recover did.
type Recovery struct {
	Copied   []*Restored // games intact in the damaged file, copied as they were
	Restored []*Restored // damaged games rebuilt from a bundle or their intact beginning
	Lost     []LostGame  // damaged games that could not be rebuilt
	Unused   []string    // bundles of games that did not need them
	Messages int         // outbox messages copied
	Held     int         // of them, pending mails of rebuilt or lost games, marked failed and not sent
	Marks    int
	Meta     int
}

// LostGame is a damaged game that could not be rebuilt, and why.
type LostGame struct {
	Game string
	Why  string
}

// Recover builds a new data file from a damaged one: every game intact in
// sal is copied as it was, with its private values; every damaged game is
// rebuilt from its export bundle DIR/GAME.tar (if bundles is not "") or
// from the intact beginning of its log, whichever is longer when they
// agree, the bundle when they do not; the outbox, intake marks and meta
// values are copied as far as readable. Pending mails of rebuilt and lost
// games are marked failed rather than sent: they may tell of events the
// rebuilt game no longer has. to must be empty.
func Recover(ctx context.Context, sal *store.Salvaged, to *Service, bundles string) (*Recovery, error) {
	if ids, err := to.Store.Games(ctx); err != nil {
		return nil, err
	} else if len(ids) > 0 {
		return nil, fmt.Errorf("the new data file holds games already (%s): recover into an empty one", strings.Join(ids, ", "))
	}
	// The module files first: the games restored below are loaded with them.
	modules := map[string][]byte{}
	for k, v := range sal.Meta {
		if strings.HasPrefix(k, metaModuleFiles) {
			modules[k] = v
		}
	}
	if len(modules) > 0 {
		if _, err := to.Store.Append(ctx, store.Batch{Meta: modules}); err != nil {
			return nil, fmt.Errorf("copying the module files: %w", err)
		}
	}
	rec := &Recovery{}
	have := map[string]bool{}
	for _, gr := range sal.Games {
		have[gr.Game] = true
		evs := sal.Events[gr.Game]
		if gr.Intact() {
			r, err := to.restore(ctx, evs, sal.Secrets[gr.Game], "the data file, intact", nil)
			if err != nil {
				// Sound as stored but not loadable here (a ruleset this
				// build lacks): copy it as it is.
				if r, err = to.copyAsIs(ctx, gr.Game, evs, sal.Secrets[gr.Game], err); err != nil {
					return nil, err
				}
			}
			rec.Copied = append(rec.Copied, r)
			continue
		}
		r, why, err := to.rebuild(ctx, gr, evs, sal.Secrets[gr.Game], bundles)
		if err != nil {
			return nil, err
		}
		if r == nil {
			rec.Lost = append(rec.Lost, LostGame{gr.Game, why})
			continue
		}
		rec.Restored = append(rec.Restored, r)
	}
	// Bundles of games the damaged file does not list at all.
	if bundles != "" {
		paths, err := filepath.Glob(filepath.Join(bundles, "*.tar"))
		if err != nil {
			return nil, err
		}
		for _, p := range paths {
			id := strings.TrimSuffix(filepath.Base(p), ".tar")
			if have[id] {
				if gr := sal.Game(id); gr != nil && gr.Intact() {
					rec.Unused = append(rec.Unused, p)
				}
				continue
			}
			r, why, err := to.rebuild(ctx, store.GameReport{Game: id, Damage: []store.Damage{{Game: id, Problem: "it is not in the damaged file"}}}, nil, nil, bundles)
			if err != nil {
				return nil, err
			}
			if r == nil {
				rec.Lost = append(rec.Lost, LostGame{id, why})
				continue
			}
			rec.Restored = append(rec.Restored, r)
		}
	}
	if err := to.copyRest(ctx, sal, rec); err != nil {
		return nil, err
	}
	return rec, nil
}

// rebuild restores a damaged game from its bundle or its intact beginning;
// it returns nil and why when neither will do.
func (s *Service) rebuild(ctx context.Context, gr store.GameReport, prefix []store.Event, private map[string][]byte, bundles string) (*Restored, string, error) {
	damage := "damaged"
	if len(gr.Damage) > 0 {
		damage = gr.Damage[0].String()
	}
	var fromBundle []store.Event
	var bundleMod *adjudicator.Module
	var bundleWhy string
	path := ""
	if bundles != "" {
		path = filepath.Join(bundles, gr.Game+".tar")
		f, err := os.Open(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			bundleWhy = fmt.Sprintf("there is no bundle %s", path)
		case err != nil:
			return nil, "", err
		default:
			fromBundle, bundleMod, err = s.readBundle(f)
			f.Close()
			if err != nil {
				bundleWhy = fmt.Sprintf("%s: %v", path, err)
				fromBundle = nil
			} else if g := bundleGame(fromBundle); g != gr.Game {
				bundleWhy = fmt.Sprintf("%s holds game %s, not %s", path, g, gr.Game)
				fromBundle = nil
			}
		}
	} else {
		bundleWhy = "no bundles directory was given"
	}
	// The intact beginning counts only if it is a whole game: it starts
	// with game.created, its dice verify and it replays.
	if len(prefix) > 0 {
		entries := ToEntries(prefix)
		if a := game.Verify(entries); !a.OK() {
			prefix = nil
		} else if rp := game.Replay(entries, s.source(ctx)); !rp.OK() {
			prefix = nil
		}
	}
	evs, from := fromBundle, "bundle "+path
	switch {
	case fromBundle != nil && len(prefix) > len(fromBundle) && prefix[len(fromBundle)-1].Hash == fromBundle[len(fromBundle)-1].Hash:
		evs, from = prefix, fmt.Sprintf("the damaged file's intact events 1 to %d (which extend bundle %s)", len(prefix), path)
	case fromBundle == nil && len(prefix) > 0:
		evs, from = prefix, fmt.Sprintf("the damaged file's intact events 1 to %d (%s)", len(prefix), bundleWhy)
	case fromBundle == nil:
		return nil, fmt.Sprintf("%s, and %s", damage, bundleWhy), nil
	}
	// The bundle's module files serve either log: they are found by digest.
	r, err := s.restore(ctx, evs, private, from, bundleMod)
	if err != nil {
		return nil, fmt.Sprintf("%s, and rebuilding it from %s failed: %v", damage, from, err), nil
	}
	r.Damage = damage
	return r, "", nil
}

func bundleGame(evs []store.Event) string {
	var c game.Created
	if len(evs) > 0 && json.Unmarshal(evs[0].Payload, &c) == nil {
		return c.Game
	}
	return ""
}

// copyAsIs writes a game's events and private values exactly as they were,
// for a game this build cannot load.
func (s *Service) copyAsIs(ctx context.Context, id string, evs []store.Event, private map[string][]byte, why error) (*Restored, error) {
	b := store.Batch{Game: id, Events: make([]store.NewEvent, len(evs)), Secrets: private}
	for i, e := range evs {
		b.Events[i] = e.NewEvent
	}
	out, err := s.Store.Append(ctx, b)
	if err != nil {
		return nil, fmt.Errorf("writing game %s: %w", id, err)
	}
	r := &Restored{Game: id, From: "the data file, intact", Events: len(out), Head: out[len(out)-1].Hash, Unchecked: why.Error()}
	for name := range private {
		r.Kept = append(r.Kept, name)
	}
	slices.Sort(r.Kept)
	return r, nil
}

// copyRest copies the outbox, the intake marks and the meta values.
func (s *Service) copyRest(ctx context.Context, sal *store.Salvaged, rec *Recovery) error {
	rebuilt := map[string]bool{}
	for _, r := range rec.Restored {
		rebuilt[r.Game] = true
	}
	for _, l := range rec.Lost {
		rebuilt[l.Game] = true
	}
	const chunk = 1000
	for i := 0; i < len(sal.Messages); i += chunk {
		part := sal.Messages[i:min(i+chunk, len(sal.Messages))]
		if _, err := s.Store.Append(ctx, store.Batch{Outbox: part}); err != nil {
			return fmt.Errorf("copying the outbox: %w", err)
		}
	}
	// Append queues every message afresh; put each back where it stood.
	// (Attempts count again from one.)
	for _, m := range sal.Messages {
		var err error
		switch {
		case m.Status == store.Pending && rebuilt[m.Game]:
			err = s.Store.Fail(ctx, m.ID, "not sent: its game was rebuilt by umpire recover and may no longer have what it tells of")
			rec.Held++
		case m.Status == store.Sent:
			err = s.Store.MarkSent(ctx, m.ID, m.SentAt)
		case m.Status == store.Failed:
			err = s.Store.Fail(ctx, m.ID, m.LastError)
		case m.Attempts > 0:
			err = s.Store.Retry(ctx, m.ID, m.NextAttempt, m.LastError)
		}
		if err != nil {
			return fmt.Errorf("copying outbox message %s: %w", m.ID, err)
		}
	}
	rec.Messages = len(sal.Messages)
	for i := 0; i < len(sal.Marks); i += chunk {
		if _, err := s.Store.Append(ctx, store.Batch{Marks: sal.Marks[i:min(i+chunk, len(sal.Marks))]}); err != nil {
			return fmt.Errorf("copying the intake marks: %w", err)
		}
	}
	rec.Marks = len(sal.Marks)
	if len(sal.Meta) > 0 {
		if _, err := s.Store.Append(ctx, store.Batch{Meta: sal.Meta}); err != nil {
			return fmt.Errorf("copying the meta values: %w", err)
		}
	}
	rec.Meta = len(sal.Meta)
	return nil
}
