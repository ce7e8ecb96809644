package games

import (
	"archive/tar"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store"
)

// A series is verified as a whole: its own log as any game's, each child's
// log as any game's, and the links between them (CheckLinks). Its bundle is
// the series' bundle with each child's bundle inside it, under
// SERIES/games/CHILD/.

// seriesChildDir is where a series bundle keeps its children's bundles.
const seriesChildDir = "games/"

// childLinks lists the series.child events of a series' log: seq → event.
func childLinks(evs []store.Event) (map[uint64]*adjudicator.ChildGame, []uint64, error) {
	out := map[uint64]*adjudicator.ChildGame{}
	var order []uint64
	for _, e := range evs {
		if e.Type != adjudicator.TypeChildGame {
			continue
		}
		var c adjudicator.ChildGame
		if err := json.Unmarshal(e.Payload, &c); err != nil {
			return nil, nil, fmt.Errorf("event %d: a series.child that does not decode: %v", e.Seq, err)
		}
		out[e.Seq] = &c
		order = append(order, e.Seq)
	}
	return out, order, nil
}

// Children lists the games series id has reached, in the order it reached
// them (none for a game that is not a series).
func (s *Service) Children(ctx context.Context, id string) ([]string, error) {
	_, evs, err := s.Entries(ctx, id)
	if err != nil {
		return nil, err
	}
	return childIDs(id, evs)
}

// childIDs lists the games series id's log reaches, in its order.
func childIDs(id string, evs []store.Event) ([]string, error) {
	links, order, err := childLinks(evs)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(order))
	for _, seq := range order {
		out = append(out, adjudicator.ChildID(id, links[seq].Key))
	}
	return out, nil
}

// SeriesAudit is the audit of a series and its games.
type SeriesAudit struct {
	Series   *game.Audit
	Children map[string]*game.Audit // by child id
	Order    []string               // the children, as the series reached them
	Links    []string               // what is wrong between the series and its games
}

// OK reports whether nothing was wrong anywhere.
func (a *SeriesAudit) OK() bool { return len(a.Problems()) == 0 }

// Problems lists everything wrong, each naming the game it is in.
func (a *SeriesAudit) Problems() []string {
	var out []string
	out = append(out, prefix(a.Series.Game, a.Series.Problems)...)
	for _, id := range a.Order {
		if c := a.Children[id]; c != nil {
			out = append(out, prefix(id, c.Problems)...)
		}
	}
	return append(out, a.Links...)
}

// VerifySeries verifies stored series id, each game it reached, and the
// links between them; with replay, every adjudication of all of them is
// decided again too.
func (s *Service) VerifySeries(ctx context.Context, id string, known Known, replay bool) (*SeriesAudit, error) {
	evs, err := s.Store.Events(ctx, id, 1)
	if err != nil || len(evs) == 0 {
		return nil, fmt.Errorf("%w %q (umpire games lists them)", ErrUnknownGame, id)
	}
	check := func(id string, evs []store.Event, k Known) *game.Audit {
		a := verifyEvents(evs, k)
		a.Game = id
		if replay {
			rp := game.Replay(ToEntries(evs), s.source(ctx))
			a.Redecided, a.VersionChanges = rp.Redecided, rp.VersionChanges
			a.Problems = append(a.Problems, rp.Problems...)
		}
		return a
	}
	out := &SeriesAudit{Series: check(id, evs, known), Children: map[string]*game.Audit{}}
	children := map[string][]store.Event{}
	ids, err := childIDs(id, evs)
	if err != nil {
		return nil, err
	}
	for _, cid := range ids {
		out.Order = append(out.Order, cid)
		cevs, err := s.Store.Events(ctx, cid, 1)
		if err != nil || len(cevs) == 0 {
			continue // CheckLinks names it
		}
		children[cid] = cevs
		out.Children[cid] = check(cid, cevs, Known{})
	}
	out.Links = CheckLinks(id, evs, children, s.source(ctx))
	return out, nil
}

// CheckLinks holds a series' log and its games' logs to each other: each
// series.child event has its game, created as the event says and linked
// back to it; each result the series recorded is what that game's own log
// ends with (its last event's hash, and, with lookup, the result folded
// again from its log); no game in children is one the series did not
// reach. Problems name the game and the event.
func CheckLinks(series string, evs []store.Event, children map[string][]store.Event, lookup game.Source) []string {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	var sc game.Created
	if len(evs) == 0 || json.Unmarshal(evs[0].Payload, &sc) != nil {
		return []string{series + ": the series' log does not start with game.created"}
	}
	links, order, err := childLinks(evs)
	if err != nil {
		return []string{series + ": " + err.Error()}
	}
	byKey := map[string]uint64{}
	for _, seq := range order {
		c := links[seq]
		cid := adjudicator.ChildID(series, c.Key)
		if _, twice := byKey[c.Key]; twice {
			add("%s: event %d creates game %s a second time", series, seq, cid)
			continue
		}
		byKey[c.Key] = seq
		cevs, ok := children[cid]
		if !ok || len(cevs) == 0 {
			add("%s: the series created it at its event %d, but the game is missing", cid, seq)
			continue
		}
		var have game.Created
		if err := json.Unmarshal(cevs[0].Payload, &have); err != nil || cevs[0].Type != game.TypeCreated {
			add("%s: its log does not start with game.created", cid)
			continue
		}
		want := CreateRequest{Ruleset: c.Ruleset, Scenario: c.Scenario, Position: []byte(c.Position), Options: childOptions(&game.Game{Created: sc}, c), Module: c.Module}
		for _, p := range c.Players {
			addr := ""
			for _, sp := range sc.Players {
				if sp.Side == p.Player {
					addr = sp.Address
				}
			}
			want.Players = append(want.Players, Player{Side: p.Side, Address: addr})
		}
		if why := childDiffers(&have, want, &game.Parent{Game: series, Key: c.Key, Seq: seq}); why != "" {
			add("%s: its game.created is not what the series' event %d asked for: %s", cid, seq, why)
		}
	}
	for cid := range children {
		key, ok := strings.CutPrefix(cid, series+"-")
		if _, reached := byKey[key]; !ok || !reached {
			add("%s: the series never reached this game", cid)
		}
	}
	// Each game's whole log, folded at most once (whole).
	type folded struct {
		g   *game.Game
		err error
	}
	folds := map[string]folded{}
	whole := func(cid string) (*game.Game, error) {
		f, ok := folds[cid]
		if !ok {
			f.g, f.err = game.Load(ToEntries(children[cid]), lookup)
			folds[cid] = f
		}
		return f.g, f.err
	}
	// Each result recorded, against its game's log.
	recorded := map[string]bool{}
	for _, e := range evs {
		if e.Type != game.TypeOrders {
			continue
		}
		var oa game.OrdersAccepted
		if json.Unmarshal(e.Payload, &oa) != nil || oa.Side != adjudicator.SeriesSide || oa.Kind != adjudicator.KindResult {
			continue
		}
		var env struct {
			Orders adjudicator.ChildResult `yaml:"orders"`
		}
		if err := yaml.Unmarshal([]byte(oa.Text), &env); err != nil {
			add("%s: event %d: a result that does not read: %v", series, e.Seq, err)
			continue
		}
		r := &env.Orders
		recorded[r.Key] = true
		cid := adjudicator.ChildID(series, r.Key)
		seq, reached := byKey[r.Key]
		cevs := children[cid]
		switch {
		case !reached:
			add("%s: event %d records the result of game %s, which the series never reached", series, e.Seq, cid)
			continue
		case r.Game != cid:
			add("%s: event %d records the result of %s under the name %s", series, e.Seq, cid, r.Game)
			continue
		case len(cevs) == 0:
			continue // named above
		case r.Events == 0 || r.Events > uint64(len(cevs)):
			add("%s: the series' event %d records its result after %d events, but its log has %d", cid, e.Seq, r.Events, len(cevs))
			continue
		case cevs[r.Events-1].Hash.String() != r.Head:
			add("%s: the series' event %d records its result as of event %d with hash %s, but that event hashes to %s: the game's log was changed", cid, e.Seq, r.Events, r.Head, cevs[r.Events-1].Hash)
			continue
		}
		if lookup == nil {
			continue
		}
		var g *game.Game
		if r.Events == uint64(len(cevs)) {
			g, err = whole(cid)
		} else {
			g, err = game.Load(ToEntries(cevs[:r.Events]), lookup)
		}
		if err != nil {
			add("%s: its log does not fold: %v", cid, err)
			continue
		}
		if !g.Over() {
			add("%s: the series' event %d records its result, but the game is not over at event %d", cid, e.Seq, r.Events)
			continue
		}
		again := ChildResultOf(g, r.Head, links[seq])
		if a, b := canonical(again), canonical(r); a != b {
			add("%s: the result the series recorded at its event %d is not the one its log gives (%s)", cid, e.Seq, firstDifference([]byte(b), []byte(a)))
		}
	}
	if lookup == nil {
		return problems
	}
	sg, err := game.Load(ToEntries(evs), lookup)
	if err != nil {
		return problems // sealed parts not revealed yet, or a log the series' own audit names
	}
	// The sealed parts of each game's position (adjudicator.ChildSecret):
	// those it read, against those its series sealed for it. A game whose
	// parts are not all revealed yet is not folded, and not checked.
	for _, seq := range order {
		key := links[seq].Key
		cid := adjudicator.ChildID(series, key)
		if len(children[cid]) == 0 {
			continue
		}
		g, err := whole(cid)
		if err != nil {
			continue
		}
		if why := secretsDiffer(sg.ChildSecrets(key), g.ChildSecrets(key)); why != "" {
			add("%s: the sealed parts of its position are not those the series sealed for it before its event %d: %s", cid, seq, why)
		}
	}
	// Each game that ended has its result in the series, unless the
	// series ended first (its referee's end: nothing waits any more).
	if sg.Over() {
		return problems
	}
	for _, seq := range order {
		key := links[seq].Key
		cid := adjudicator.ChildID(series, key)
		if recorded[key] || len(children[cid]) == 0 {
			continue
		}
		if g, err := whole(cid); err == nil && g.Over() {
			add("%s: the game is over, but the series has not recorded its result (its rules refused it: umpire's log says why)", cid)
		}
	}
	return problems
}

// secretsDiffer says how the sealed parts a child read (got) differ from
// those its series sealed for it (sent); "" when they do not.
func secretsDiffer(sent, got []adjudicator.ChildSecret) string {
	if len(sent) != len(got) {
		return fmt.Sprintf("the series sealed %d, the game read %d", len(sent), len(got))
	}
	for i := range sent {
		switch a, b := sent[i], got[i]; {
		case a.Name != b.Name || a.Side != b.Side:
			return fmt.Sprintf("part %d is %s for %s in the series, %s for %s in the game", i+1, a.Name, a.Side, b.Name, b.Side)
		case a != b:
			return fmt.Sprintf("part %d (%s for %s) does not say the same in both", i+1, a.Name, a.Side)
		}
	}
	return ""
}

// canonical is a result as JSON, for comparison (a recorded result went
// through YAML, which loses no field of it but may reorder nothing else).
func canonical(r *adjudicator.ChildResult) string {
	b, _ := json.Marshal(r)
	var v any
	_ = json.Unmarshal(b, &v)
	b, _ = json.Marshal(v)
	return string(b)
}

// ExportSeries writes series id's bundle to w: the series' own bundle
// files under ID/, and each game it reached under ID/games/CHILD/.
func (s *Service) ExportSeries(ctx context.Context, id string, w io.Writer) error {
	_, evs, err := s.Entries(ctx, id)
	if err != nil {
		return err
	}
	ids, err := childIDs(id, evs)
	if err != nil {
		return err
	}
	now := s.now()
	tw := tar.NewWriter(w)
	put := func(dir string, evs []store.Event) error {
		module, err := s.eventsModule(ctx, evs)
		if err != nil {
			return err
		}
		files, err := buildBundle(evs, now, module)
		if err != nil {
			return err
		}
		mod := evs[len(evs)-1].Time
		for _, f := range files {
			if err := tw.WriteHeader(&tar.Header{Name: dir + f.name, Mode: 0o644, Size: int64(len(f.body)), ModTime: mod, Format: tar.FormatPAX}); err != nil {
				return fmt.Errorf("writing the bundle: %w", err)
			}
			if _, err := tw.Write(f.body); err != nil {
				return fmt.Errorf("writing the bundle: %w", err)
			}
		}
		return nil
	}
	if err := put(id+"/", evs); err != nil {
		return err
	}
	for _, cid := range ids {
		_, cevs, err := s.Entries(ctx, cid)
		if err != nil {
			return fmt.Errorf("game %s of series %s: %w", cid, id, err)
		}
		if err := put(id+"/"+seriesChildDir+cid+"/", cevs); err != nil {
			return err
		}
	}
	return tw.Close()
}

// splitSeries separates a series bundle into the series' own bundle and
// each child's; ok is false for the bundle of a single game.
func splitSeries(b *Bundle) (own *Bundle, children map[string]*Bundle, order []string, ok bool) {
	own = &Bundle{Root: b.Root}
	children = map[string]*Bundle{}
	for _, f := range b.Files {
		rest, in := strings.CutPrefix(f.name, seriesChildDir)
		if !in {
			own.Files = append(own.Files, f)
			continue
		}
		cid, name, _ := strings.Cut(rest, "/")
		c := children[cid]
		if c == nil {
			c = &Bundle{Root: cid}
			children[cid] = c
			order = append(order, cid)
		}
		c.Files = append(c.Files, bundleFile{name: name, body: f.body})
	}
	return own, children, order, len(children) > 0
}

// verifyOne checks one game's files of a bundle (VerifyBundle's checks).
func verifyOne(b *Bundle, lookup game.Lookup, known Known) (*game.Audit, []store.Event) {
	a, evs, _ := verifyGame(b, lookup, known)
	return a, evs
}

// verifyGame is verifyOne, which also returns the files of the game's
// module when the bundle carries them whole (nil for a game not played
// from module data).
func verifyGame(b *Bundle, lookup game.Lookup, known Known) (*game.Audit, []store.Event, *adjudicator.Module) {
	if b.file("events.jsonl") == nil {
		return &game.Audit{Game: b.Root, Problems: []string{"events.jsonl: missing"}}, nil, nil
	}
	evs, err := b.Events()
	if err != nil {
		return &game.Audit{Game: b.Root, Problems: []string{err.Error()}}, nil, nil
	}
	a := verifyEvents(evs, known)
	a.Problems = prefix("events.jsonl", a.Problems)
	var bg BundleGame
	if f := b.file("game.json"); f != nil && json.Unmarshal(f.body, &bg) == nil && bg.Events != len(evs) {
		a.Problems = append(a.Problems, fmt.Sprintf("events.jsonl: holds %d events, but game.json records %d: events were cut or added", len(evs), bg.Events))
	}
	var c game.Created
	json.Unmarshal(evs[0].Payload, &c) // verifyEvents named a game.created that does not read
	mod, whole, problems := bundleModule(b, c.Module)
	a.Problems = append(a.Problems, problems...)
	a.Problems = append(a.Problems, compareBundle(b, evs, mod)...)
	if !whole {
		mod = nil
	}
	if lookup != nil {
		var src game.Source = lookup
		if mod != nil {
			src = lookup.With(game.FilesOf(*mod))
		}
		rp := game.Replay(ToEntries(evs), src)
		a.Redecided = rp.Redecided
		a.VersionChanges = rp.VersionChanges
		a.ReplayedTo, a.NotRevealed, a.Notes = rp.ReplayedTo, rp.NotRevealed, rp.Notes
		a.Problems = append(a.Problems, prefix("events.jsonl", rp.Problems)...)
	}
	if a.Game == "" {
		a.Game = b.Root
	}
	return a, evs, mod
}

// VerifySeriesBundle checks a series bundle: the series' files and each
// child's as VerifyBundle checks one game's, and the links between them.
// A bundle of one game is checked as VerifyBundle does (Children empty).
func VerifySeriesBundle(r io.Reader, lookup game.Lookup, known Known) (*SeriesAudit, error) {
	b, err := ReadBundle(r)
	if err != nil {
		return nil, err
	}
	return verifySeries(b, lookup, known), nil
}

// Flat is the audit of a series as one: every count summed, every problem
// naming its game.
func (a *SeriesAudit) Flat() *game.Audit {
	out := *a.Series
	out.Problems = a.Problems()
	out.VersionChanges = slices.Clone(a.Series.VersionChanges)
	out.Notes = slices.Clone(a.Series.Notes)
	for _, id := range a.Order {
		c := a.Children[id]
		if c == nil {
			continue
		}
		out.Events += c.Events
		out.Adjudications += c.Adjudications
		out.Rolls += c.Rolls
		out.Dice += c.Dice
		out.Seeds += c.Seeds
		out.Chains += c.Chains
		out.Revealed += c.Revealed
		out.Sealed += c.Sealed
		out.Lost += c.Lost
		out.Redecided += c.Redecided
		out.VersionChanges = append(out.VersionChanges, prefix(id, c.VersionChanges)...)
		out.Notes = append(out.Notes, prefix(id, c.Notes)...)
	}
	return &out
}

func verifySeries(b *Bundle, lookup game.Lookup, known Known) *SeriesAudit {
	own, kids, order, _ := splitSeries(b)
	out := &SeriesAudit{Children: map[string]*game.Audit{}}
	var evs []store.Event
	var mod *adjudicator.Module
	out.Series, evs, mod = verifyGame(own, lookup, known)
	var mods []adjudicator.Module // every module the bundle carries whole, for the links' folds
	if mod != nil {
		mods = append(mods, *mod)
	}
	events := map[string][]store.Event{}
	sort.Strings(order)
	for _, cid := range order {
		a, cevs, cmod := verifyGame(kids[cid], lookup, Known{})
		if cmod != nil {
			mods = append(mods, *cmod)
		}
		a.Game = cid
		out.Children[cid] = a
		if cevs != nil {
			events[cid] = cevs
		}
	}
	if evs != nil {
		var src game.Source
		if lookup != nil {
			src = lookup.With(game.FilesOf(mods...))
		}
		out.Links = CheckLinks(out.Series.Game, evs, events, src)
		// The children in the order the series reached them.
		if ids, _, err := childLinks(evs); err == nil {
			seqs := sortedKeys(ids)
			out.Order = nil
			for _, seq := range seqs {
				cid := adjudicator.ChildID(out.Series.Game, ids[seq].Key)
				if _, ok := kids[cid]; ok {
					out.Order = append(out.Order, cid)
				}
			}
			for _, cid := range order {
				if !slices.Contains(out.Order, cid) {
					out.Order = append(out.Order, cid)
				}
			}
		}
	}
	return out
}

func sortedKeys[V any](m map[uint64]V) []uint64 {
	ks := make([]uint64, 0, len(m))
	for k := range maps.Keys(m) {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
	return ks
}
