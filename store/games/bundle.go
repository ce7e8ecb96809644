package games

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/store"
)

// An audit bundle is a tar file that lets anyone check a game without the
// referee's data file. Every file but README.txt and the "exported" time
// of game.json is a function of the events, so verify rebuilds the whole
// bundle from events.jsonl and compares it file by file, in order:
//
//	GAME/README.txt         what the files are and how to check them by hand
//	GAME/game.json          id, ruleset and version, players, commitment, head hash
//	GAME/events.jsonl       every event, one JSON object a line, with its hashes
//	GAME/seeds.txt          every revealed seed: adjudication, chain, index, seed
//	GAME/state-hashes.txt   the state hash recorded after each adjudication
//	GAME/orders/…yaml       each submission's text, once every side may read it
//	GAME/results/…txt       each adjudication as every side reads it
//	GAME/module.sha256      for a game played from module data: its module's
//	                        manifest (sha256sum's format), whose SHA-256 is
//	                        the digest game.created records
//	GAME/module/…           the module's files
//
// The module's files are not a function of the events, but their digest
// is in game.created: verify checks the manifest against it and each file
// against the manifest, naming any file that was changed, and replays the
// game with these files.
//
// It holds only what every side may read: no secret, no opening that is not
// revealed in the log. docs/trust.md describes every byte.

// BundleFormat names the layout of a bundle; game.json carries it.
const BundleFormat = "umpire-bundle-2"

// Limits on what a bundle reader takes in.
const (
	MaxBundleFile  = 64 << 20 // one file in a bundle
	MaxBundleTotal = 1 << 30  // every file together
	MaxBundleFiles = 200000   // files in a bundle
)

// BundleEvent is one line of events.jsonl. Payload is the exact payload
// text, so hashes can be recomputed.
type BundleEvent struct {
	Seq      uint64 `json:"seq"`
	Type     string `json:"type"`
	Schema   int    `json:"schema"`
	Time     string `json:"time"`
	UnixNano int64  `json:"unix_nano"`
	Actor    string `json:"actor"`
	Payload  string `json:"payload"`
	Prev     string `json:"prev"`
	Hash     string `json:"hash"`
}

// BundleGame is game.json.
type BundleGame struct {
	Format         string `json:"format"`
	Game           string `json:"game"`
	Ruleset        string `json:"ruleset"`
	RulesetVersion string `json:"ruleset_version"`
	Scenario       string `json:"scenario,omitempty"`
	// Module is the module game.created names, for a game played from
	// module data.
	Module        *adjudicator.ModuleRef `json:"module,omitempty"`
	Players       []game.Player          `json:"players"`
	Commitment    string                 `json:"commitment,omitempty"`
	ChainLength   int                    `json:"chain_length,omitempty"`
	Events        int                    `json:"events"`
	Adjudications int                    `json:"adjudications"`
	Sealed        int                    `json:"sealed"` // commitments not revealed yet
	Head          string                 `json:"head"`
	Exported      string                 `json:"exported"`
}

const bundleReadme = `umpire audit bundle (format umpire-bundle-2)
============================================

This archive is the public record of one game: everything every side may
read, and nothing else. Parts of the game that not every side may read yet
(hidden orders, orders sent ahead, a side's own notices) appear only as
commitments: SHA-256 hashes of texts the referee keeps, revealed in the log
when they may be read, and at the latest when the game ends.

Every file is under GAME/ (the game's id), in this order:

  README.txt        this file
  game.json         the game: ruleset, players, dice commitment, head hash
  events.jsonl      every event in order; "payload" is the exact text hashed
  seeds.txt         "K CHAIN INDEX SEED": the dice seed revealed by each adjudication K
  state-hashes.txt  "K HASH": the state hash recorded after each adjudication K
  orders/           each submission's text (less its secret line), once public
  results/          each adjudication as every side reads it

Every file but this one and game.json's "exported" follows from
events.jsonl; a changed, missing, extra or reordered file means the
bundle was altered. Hex is lower case; each line ends in a newline.

  game.json         "game", "ruleset", "ruleset_version", "scenario" and
                    "players" as in game.created; "commitment" and
                    "chain_length" of its dice; "events" (how many),
                    "adjudications" (how many), "sealed" (commitments not
                    revealed yet), "head" (the last event's hash). An empty
                    scenario, commitment or chain length is left out.
  seeds.txt         a line for each turn.adjudicated event, in order
  state-hashes.txt  the same
  orders/SEQ-SIDE-turnTURN-PHASE.yaml   SEQ: the orders.accepted event's
                    seq in six digits. Its "text", or its "orders" if it
                    has no text (none if both are empty); for hidden
                    orders, the same of the opening that reveals them.
                    In the order they became public.
  results/KKKK.txt  adjudication K (four digits), as umpire prints it

To check it with umpire:   umpire verify THIS-FILE.tar
(add --commitment HEX from your welcome mail and --head N:HASH from your
latest results mail, N an event's seq and HASH its hash, to catch a
history cut short or rewritten).

To check it by hand, nothing but SHA-256 and HMAC-SHA256 is needed:

1. Events. Each line of events.jsonl is a JSON object: "seq", "type",
   "schema", "time" (unix_nano in RFC 3339, UTC, no trailing zeros in the
   fraction; not hashed), "unix_nano", "actor", "payload", "prev", "hash".
   For each line, in order, with prev = 32 zero bytes for the first:
   hash = SHA-256 of
     "umpire-event-v1" 0x00, prev (32 raw bytes), seq (8 bytes big-endian),
     len(type) (8 bytes BE) type, schema (8 bytes BE, two's complement),
     unix_nano (8 bytes BE, two's complement), len(actor) (8 bytes BE) actor,
     len(payload) (8 bytes BE) payload  -- strings as their UTF-8 bytes.
   Each line's "prev" is the hash of the line before; seq counts from 1.
2. Seeds. The first event (game.created) gives dice.commitment (s_0, hex)
   and dice.chain_length. Each turn.adjudicated event K (K = 1, 2, ...)
   reveals "seed" = s_index of chain "chain": SHA-256 of its 32 raw bytes is
   the seed before it in that chain (the commitment for index 1). A
   dice.chain-extended event commits the next chain the same way; it serves
   adjudications from "from_k" on. Adjudication K uses the last chain whose
   from_k (1 for the first chain) is at most K, and its seed K - from_k + 1.
3. Dice. Each roll in "rolls" of adjudication K has "n" (its first die),
   "dice" ("NdF": N dice of F faces), "label" L, "faces" (the N faces
   shown) and "total" (their sum). Die n (from 0, across all rolls of
   adjudication K, in order) is HMAC-SHA256(key = the seed's 32 raw bytes,
   message = GAME "|" K "|" L "|" n, GAME the game's id -- or
   game.created's dice.game when it has one: a branch keeps its parent's --,
   K and n in decimal, in UTF-8). Read the digest as four 8-byte big-endian words; the first
   word v below 2^64 - (2^64 mod F) gives the face v mod F + 1; if none is,
   retry with the message followed by "|retry|1", "|retry|2", ...
   A roll with "sealed": true is a stand-in that keeps its "n" and "dice";
   the roll with the same "n" and "dice" among the "rolls" of the opening
   revealed later (step 4) gives its label and faces, checked the same way.
4. Sealed parts. An event whose payload has "sealed": C committed to a
   text; a later sealed.revealed event with "of" = that event's seq and
   "commitment" = C carries "opening": SHA-256 of the opening's UTF-8 bytes
   must equal C. Each commitment is revealed at most once. A sealed.lost
   event with the same "of" and "commitment" says instead that the referee
   lost the opening (a damaged data file): it is never revealed.
5. State hashes are SHA-256 of the ruleset's JSON encoding of the game
   state: recomputing them needs the rules (umpire replay does it).

docs/trust.md and docs/dice.md of umpire say the same at more length, and
docs/checkbundle.py is a checker written from them alone:
  python3 checkbundle.py THIS-FILE.tar [--commitment HEX] [--head N:HASH]
`

// bundleFile is one file of a bundle, without the GAME/ prefix.
type bundleFile struct {
	name string
	body []byte
}

// Export writes game id's audit bundle to w: only what every side may
// read. Orders not revealed yet are in it as commitments.
func (s *Service) Export(ctx context.Context, id string, w io.Writer) error {
	_, evs, err := s.Entries(ctx, id)
	if err != nil {
		return err
	}
	module, err := s.eventsModule(ctx, evs)
	if err != nil {
		return err
	}
	files, err := buildBundle(evs, s.now(), module)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(w)
	mod := evs[len(evs)-1].Time
	for _, f := range files {
		if err := tw.WriteHeader(&tar.Header{Name: id + "/" + f.name, Mode: 0o644, Size: int64(len(f.body)), ModTime: mod, Format: tar.FormatPAX}); err != nil {
			return fmt.Errorf("writing the bundle: %w", err)
		}
		if _, err := tw.Write(f.body); err != nil {
			return fmt.Errorf("writing the bundle: %w", err)
		}
	}
	return tw.Close()
}

// eventsModule returns the files of the module a game's log was created
// with, nil for a game not played from module data.
func (s *Service) eventsModule(ctx context.Context, evs []store.Event) (*adjudicator.Module, error) {
	var c game.Created
	if len(evs) == 0 || json.Unmarshal(evs[0].Payload, &c) != nil || c.Module == nil {
		return nil, nil // buildBundle says what is wrong with the log
	}
	return s.gameModule(ctx, c)
}

// buildBundle makes every file of a bundle from a game's events, and from
// the files of its module (mod) when game.created names one.
func buildBundle(evs []store.Event, exported time.Time, mod *adjudicator.Module) ([]bundleFile, error) {
	if len(evs) == 0 || evs[0].Type != game.TypeCreated {
		return nil, errors.New("the log does not start with game.created")
	}
	var c game.Created
	if err := json.Unmarshal(evs[0].Payload, &c); err != nil {
		return nil, fmt.Errorf("event 1: bad game.created: %v", err)
	}
	var lines, seeds, hashes bytes.Buffer
	var orders, results []bundleFile
	orderFile := map[uint64]int{}          // orders.accepted seq → index in orders, or -1 while sealed
	adjOf := map[uint64]game.Adjudicated{} // turn.adjudicated seq → payload, for reveals
	resultFile := map[uint64]int{}
	sealed, adjudications := 0, 0
	for _, e := range evs {
		b, err := json.Marshal(bundleEvent(e))
		if err != nil {
			return nil, err
		}
		lines.Write(b)
		lines.WriteByte('\n')
		switch e.Type {
		case game.TypeOrders:
			var oa game.OrdersAccepted
			if err := json.Unmarshal(e.Payload, &oa); err != nil {
				return nil, fmt.Errorf("event %d: %v", e.Seq, err)
			}
			if oa.Sealed != "" {
				sealed++
			}
			text := oa.Text
			if text == "" && oa.Sealed == "" {
				text = oa.Orders // orders sent ahead, used: the entry's orders
			}
			if text == "" {
				orderFile[e.Seq] = -1
				continue
			}
			orderFile[e.Seq] = len(orders)
			orders = append(orders, bundleFile{orderName(e.Seq, oa), []byte(text)})
		case game.TypeQueueDropped, adjudicator.TypeSecret:
			sealed++
		case game.TypePressSent:
			var p game.PressSent
			if err := json.Unmarshal(e.Payload, &p); err != nil {
				return nil, fmt.Errorf("event %d: %v", e.Seq, err)
			}
			if p.Sealed != "" {
				sealed++
			}
		case game.TypeAdjudicated:
			var a game.Adjudicated
			if err := json.Unmarshal(e.Payload, &a); err != nil {
				return nil, fmt.Errorf("event %d: %v", e.Seq, err)
			}
			adjudications++
			if a.Sealed != "" {
				sealed++
			}
			fmt.Fprintf(&seeds, "%d %d %d %s\n", a.K, a.Chain, a.Index, a.Seed)
			fmt.Fprintf(&hashes, "%d %s\n", a.K, a.StateHash)
			adjOf[e.Seq] = a
			resultFile[e.Seq] = len(results)
			results = append(results, bundleFile{fmt.Sprintf("results/%04d.txt", a.K), resultText(a, nil)})
		case game.TypeLost:
			sealed--
		case game.TypeRevealed:
			var rv game.Revealed
			if err := json.Unmarshal(e.Payload, &rv); err != nil {
				return nil, fmt.Errorf("event %d: %v", e.Seq, err)
			}
			sealed--
			if i, ok := orderFile[rv.Of]; ok && i < 0 {
				var op game.OrdersOpening
				if json.Unmarshal([]byte(rv.Opening), &op) == nil {
					text := op.Text
					if text == "" {
						text = op.Orders
					}
					var oa game.OrdersAccepted
					json.Unmarshal(evs[rv.Of-1].Payload, &oa)
					orderFile[rv.Of] = len(orders)
					orders = append(orders, bundleFile{orderName(rv.Of, oa), []byte(text)})
				}
			}
			if a, ok := adjOf[rv.Of]; ok {
				results[resultFile[rv.Of]].body = resultText(a, []byte(rv.Opening))
			}
		}
	}
	last := evs[len(evs)-1]
	bg := BundleGame{Format: BundleFormat, Game: c.Game, Ruleset: c.Ruleset, RulesetVersion: c.RulesetVersion, Scenario: c.Scenario, Module: c.Module,
		Players: c.Players, Commitment: c.Dice.Commitment, ChainLength: c.Dice.ChainLength, Events: len(evs), Adjudications: adjudications,
		Sealed: sealed, Head: last.Hash.String(), Exported: exported.UTC().Format(time.RFC3339)}
	gj, err := json.MarshalIndent(bg, "", "  ")
	if err != nil {
		return nil, err
	}
	files := []bundleFile{{"README.txt", []byte(bundleReadme)}, {"game.json", append(gj, '\n')}, {"events.jsonl", lines.Bytes()},
		{"seeds.txt", seeds.Bytes()}, {"state-hashes.txt", hashes.Bytes()}}
	files = append(files, orders...)
	files = append(files, results...)
	if c.Module != nil && mod != nil {
		files = append(files, bundleFile{moduleManifest, mod.Manifest()})
		for _, p := range mod.Paths() {
			files = append(files, bundleFile{moduleDir + p, mod.Files[p]})
		}
	}
	return files, nil
}

// Where a bundle keeps a game's module.
const (
	moduleManifest = "module.sha256"
	moduleDir      = "module/"
)

// bundleModule reads the module files of a bundle for a game created with
// module ref: checks the manifest against the digest game.created records
// and each file against the manifest. It returns the files it found (nil
// when there is no manifest to go by) and every problem, naming the file;
// ok says the files are exactly the module's.
func bundleModule(b *Bundle, ref *adjudicator.ModuleRef) (mod *adjudicator.Module, ok bool, problems []string) {
	if ref == nil {
		return nil, true, nil
	}
	mf := b.file(moduleManifest)
	if mf == nil {
		return nil, false, []string{fmt.Sprintf("%s: missing: the game was created with module %s (digest %s), whose files a bundle carries", moduleManifest, ref.Name, ref.Digest)}
	}
	if d := game.Digest(mf.body); d != ref.Digest {
		problems = append(problems, fmt.Sprintf("%s: hashes to %s, but game.created records the module's digest %s: the manifest was changed", moduleManifest, d, ref.Digest))
	}
	sums, err := adjudicator.ParseManifest(mf.body)
	if err != nil {
		return nil, false, append(problems, fmt.Sprintf("%s: %v", moduleManifest, err))
	}
	m := adjudicator.Module{Name: ref.Name, Files: map[string][]byte{}}
	for _, f := range b.Files {
		p, in := strings.CutPrefix(f.name, moduleDir)
		if !in {
			continue
		}
		want, listed := sums[p]
		if !listed {
			problems = append(problems, fmt.Sprintf("%s: not a file of the module (its manifest does not list it): added", f.name))
			continue
		}
		m.Files[p] = f.body
		if got := game.Digest(f.body); got != want {
			problems = append(problems, fmt.Sprintf("%s: its SHA-256 is %s, but the module's manifest says %s: the file was changed", f.name, got, want))
		}
	}
	for _, p := range slices.Sorted(maps.Keys(sums)) {
		if _, ok := m.Files[p]; !ok {
			problems = append(problems, fmt.Sprintf("%s%s: missing (the module's manifest lists it)", moduleDir, p))
		}
	}
	return &m, len(problems) == 0, problems
}

func orderName(seq uint64, oa game.OrdersAccepted) string {
	return fmt.Sprintf("orders/%06d-%s-turn%d-%s.yaml", seq, oa.Side, oa.Turn, oa.Phase)
}

// resultText is an adjudication as every side reads it: with its sealed
// part once revealed.
func resultText(a game.Adjudicated, opening []byte) []byte {
	res := game.Result{Adjudicated: a}
	if opening != nil {
		if lines, rolls, err := game.Opened(a, opening); err == nil {
			res.Full, res.AllRolls = lines, rolls
		}
	}
	var b bytes.Buffer
	script.WriteResult(&b, res, adjudicator.Referee)
	return b.Bytes()
}

func bundleEvent(e store.Event) BundleEvent {
	return BundleEvent{Seq: e.Seq, Type: e.Type, Schema: e.Schema, Time: e.Time.UTC().Format(time.RFC3339Nano), UnixNano: e.Time.UnixNano(),
		Actor: e.Actor, Payload: string(e.Payload), Prev: e.Prev.String(), Hash: e.Hash.String()}
}

// Bundle is an audit bundle as read: its files in archive order.
type Bundle struct {
	Root  string // the directory every file is under (the game id)
	Files []bundleFile
}

// ReadBundle reads every file of an audit bundle, in order, within the
// limits MaxBundleFile, MaxBundleTotal and MaxBundleFiles.
func ReadBundle(r io.Reader) (*Bundle, error) {
	tr := tar.NewReader(r)
	b := &Bundle{}
	total := int64(0)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading the bundle: %w (is it an umpire audit bundle?)", err)
		}
		if h.Typeflag == tar.TypeDir {
			continue
		}
		if h.Typeflag != tar.TypeReg {
			return nil, fmt.Errorf("%s: not a plain file: an umpire bundle holds only files", h.Name)
		}
		root, name, ok := strings.Cut(h.Name, "/")
		if !ok || name == "" {
			return nil, fmt.Errorf("%s: every file of a bundle is under one GAME/ directory", h.Name)
		}
		if b.Root == "" {
			b.Root = root
		} else if root != b.Root {
			return nil, fmt.Errorf("%s: the bundle mixes %s/ and %s/", h.Name, b.Root, root)
		}
		if len(b.Files) >= MaxBundleFiles {
			return nil, fmt.Errorf("the bundle has more than %d files, the limit for bundles", MaxBundleFiles)
		}
		if h.Size > MaxBundleFile {
			return nil, fmt.Errorf("%s: %d bytes, over the %d MiB limit for one file of a bundle", name, h.Size, MaxBundleFile>>20)
		}
		if total += h.Size; total > MaxBundleTotal {
			return nil, fmt.Errorf("the bundle's files hold over %d MiB, the limit for bundles", MaxBundleTotal>>20)
		}
		body, err := io.ReadAll(io.LimitReader(tr, MaxBundleFile+1))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		b.Files = append(b.Files, bundleFile{name, body})
	}
	if b.file("events.jsonl") == nil {
		return nil, errors.New("the bundle has no events.jsonl: is it an umpire audit bundle?")
	}
	return b, nil
}

func (b *Bundle) file(name string) *bundleFile {
	for i := range b.Files {
		if b.Files[i].name == name {
			return &b.Files[i]
		}
	}
	return nil
}

// Events parses events.jsonl in file order (never re-sorted: an order
// changed is a history changed).
func (b *Bundle) Events() ([]store.Event, error) {
	f := b.file("events.jsonl")
	var out []store.Event
	for i, line := range bytes.SplitAfter(f.body, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var be BundleEvent
		if err := json.Unmarshal(line, &be); err != nil {
			return nil, fmt.Errorf("events.jsonl line %d: %v", i+1, err)
		}
		e := store.Event{Seq: be.Seq, NewEvent: store.NewEvent{Type: be.Type, Schema: be.Schema, Time: time.Unix(0, be.UnixNano).UTC(), Actor: be.Actor, Payload: []byte(be.Payload)}}
		if err := parseHash(be.Prev, &e.Prev); err != nil {
			return nil, fmt.Errorf("events.jsonl line %d: prev: %v", i+1, err)
		}
		if err := parseHash(be.Hash, &e.Hash); err != nil {
			return nil, fmt.Errorf("events.jsonl line %d: hash: %v", i+1, err)
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil, errors.New("events.jsonl: no events")
	}
	return out, nil
}

func parseHash(s string, h *store.Hash) error {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(h) {
		return fmt.Errorf("%q is not a SHA-256 hash", s)
	}
	copy(h[:], b)
	return nil
}

// Known is what a player kept from their own mails, to hold a bundle or a
// stored game to: the dice commitment of the welcome mail, and the hash of
// an event named in a results mail.
type Known struct {
	Commitment string
	HeadSeq    uint64
	Head       string
}

// ParseHead reads "N:HASH" (the event number and its hash).
func ParseHead(s string) (uint64, string, error) {
	n, h, ok := strings.Cut(s, ":")
	seq, err := strconv.ParseUint(strings.TrimSpace(n), 10, 64)
	var hash store.Hash
	if !ok || err != nil || seq == 0 || parseHash(strings.TrimSpace(h), &hash) != nil {
		return 0, "", fmt.Errorf("%q: give the event number and its hash as N:HASH, as your last results mail shows them", s)
	}
	return seq, hash.String(), nil
}

// checkKnown holds a log to what a player kept.
func checkKnown(evs []store.Event, k Known) []string {
	var problems []string
	if k.Commitment != "" {
		var c game.Created
		if json.Unmarshal(evs[0].Payload, &c) == nil && !strings.EqualFold(c.Dice.Commitment, strings.TrimSpace(k.Commitment)) {
			problems = append(problems, fmt.Sprintf("the dice commitment is %s, not %s as you were told when the game was created: this is not the game you joined, or its start was rewritten", c.Dice.Commitment, k.Commitment))
		}
	}
	if k.HeadSeq > 0 {
		switch {
		case k.HeadSeq > uint64(len(evs)):
			problems = append(problems, fmt.Sprintf("the log has %d events, but you were told of event %d: the history was cut short", len(evs), k.HeadSeq))
		case evs[k.HeadSeq-1].Hash.String() != k.Head:
			problems = append(problems, fmt.Sprintf("event %d hashes to %s, but you were told %s: the history was rewritten", k.HeadSeq, evs[k.HeadSeq-1].Hash, k.Head))
		}
	}
	return problems
}

// VerifyBundle checks every file of an audit bundle: the events' hash
// chain (in file order), the seeds and every public die, the sealed parts
// revealed, and that every other file is exactly what the events give, in
// order. With a lookup it also replays every adjudication with this
// build's rules. Problems are "FILE: what differs".
func VerifyBundle(r io.Reader, lookup game.Lookup, known Known) (*game.Audit, error) {
	b, err := ReadBundle(r)
	if err != nil {
		return nil, err
	}
	if _, _, _, series := splitSeries(b); series {
		return verifySeries(b, lookup, known).Flat(), nil // a series' bundle: its games and links too
	}
	a, _ := verifyOne(b, lookup, known)
	return a, nil
}

func prefix(file string, ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = file + ": " + p
	}
	return out
}

// compareBundle rebuilds the bundle from its events and names every file
// that differs from it, is missing, is extra or stands out of order.
func compareBundle(b *Bundle, evs []store.Event, mod *adjudicator.Module) []string {
	want, err := buildBundle(evs, time.Time{}, mod)
	if err != nil {
		return []string{"events.jsonl: " + err.Error()}
	}
	var problems []string
	got := map[string]int{}
	for i, f := range b.Files {
		if _, dup := got[f.name]; dup {
			problems = append(problems, fmt.Sprintf("%s: appears twice", f.name))
		}
		got[f.name] = i
	}
	wantAt := map[string]int{}
	for i, w := range want {
		wantAt[w.name] = i
		j, ok := got[w.name]
		if !ok {
			problems = append(problems, fmt.Sprintf("%s: missing", w.name))
			continue
		}
		body := b.Files[j].body
		if w.name == "game.json" {
			problems = append(problems, compareGameJSON(body, w.body)...)
			continue
		}
		if !bytes.Equal(body, w.body) {
			problems = append(problems, fmt.Sprintf("%s: %s", w.name, firstDifference(body, w.body)))
		}
	}
	last := -1
	for _, f := range b.Files {
		i, ok := wantAt[f.name]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("%s: not part of a bundle of these events (added)", f.name))
		case i < last:
			problems = append(problems, fmt.Sprintf("%s: out of order (the files were reordered)", f.name))
		default:
			last = i
		}
	}
	return problems
}

// compareGameJSON compares game.json with what the events give; only
// "exported" may differ.
func compareGameJSON(got, want []byte) []string {
	var g, w map[string]any
	if err := json.Unmarshal(got, &g); err != nil {
		return []string{"game.json: does not parse: " + err.Error()}
	}
	json.Unmarshal(want, &w)
	var problems []string
	keys := map[string]bool{}
	for k := range g {
		keys[k] = true
	}
	for k := range w {
		keys[k] = true
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if k == "exported" {
			continue
		}
		gv, _ := json.Marshal(g[k])
		wv, _ := json.Marshal(w[k])
		if !bytes.Equal(gv, wv) {
			problems = append(problems, fmt.Sprintf("game.json: %q is %s, but the events give %s", k, gv, wv))
		}
	}
	return problems
}

// firstDifference says where two versions of a file part.
func firstDifference(got, want []byte) string {
	line := 1
	for i := 0; i < min(len(got), len(want)); i++ {
		if got[i] != want[i] {
			return fmt.Sprintf("differs from what the events give at line %d", line)
		}
		if got[i] == '\n' {
			line++
		}
	}
	if len(got) < len(want) {
		return fmt.Sprintf("shorter than what the events give (cut at line %d)", line)
	}
	return fmt.Sprintf("longer than what the events give (extra text from line %d)", line)
}
