package games

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/store"
)

// An audit bundle is a tar file that lets anyone check a game without the
// referee's data file:
//
//	README.txt         what the files are and how to check them
//	game.json          id, ruleset and version, players, commitment, head hash
//	events.jsonl       every event, one JSON object a line, with its hashes
//	seeds.txt          every revealed seed: adjudication, chain, index, seed
//	state-hashes.txt   the state hash recorded after each adjudication
//	orders/…yaml       each submission exactly as received
//	results/…txt       each adjudication as players read it
//
// It never contains a secret that is not yet revealed.

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
	Game           string        `json:"game"`
	Ruleset        string        `json:"ruleset"`
	RulesetVersion string        `json:"ruleset_version"`
	Scenario       string        `json:"scenario,omitempty"`
	Players        []game.Player `json:"players"`
	Commitment     string        `json:"commitment,omitempty"`
	Events         int           `json:"events"`
	Adjudications  int           `json:"adjudications"`
	Head           string        `json:"head"`
	Exported       string        `json:"exported"`
}

const bundleReadme = `umpire audit bundle
===================

This archive holds the complete public record of one game.

  game.json         the game: ruleset, players, dice commitment, head hash
  events.jsonl      every event in order; "payload" is the exact text hashed
  seeds.txt         the dice seed revealed after each adjudication
  state-hashes.txt  the state hash recorded after each adjudication
  orders/           every submission exactly as received
  results/          every adjudication as the players read it

To check it:   umpire verify THIS-FILE.tar

That recomputes the hash chain of the events, checks that every revealed
seed hashes to the one before it and the first to the commitment published
when the game was created, and recomputes every die from its seed. The dice
derivation is described in docs/dice.md of umpire, with a short independent
Python check.
`

// Export writes game id's audit bundle to w.
//
// A bundle holds every event, so orders still hidden from the other sides
// (simultaneous orders waiting for their adjudication) would be in it:
// Export refuses then, unless includeHidden says the bundle is for the
// referee's own archive.
func (s *Service) Export(ctx context.Context, id string, w io.Writer, includeHidden bool) error {
	entries, evs, err := s.Entries(ctx, id)
	if err != nil {
		return err
	}
	g, err := game.Load(entries, s.Rules)
	if err != nil {
		return err
	}
	if !includeHidden {
		for _, p := range g.Pending {
			if r, ok := g.Request(p.Request); ok && r.Hidden {
				return fmt.Errorf("game %s has orders from %s still hidden from the other sides (%s): export after the adjudication, or give --include-hidden for your own archive", id, p.Side, r.Title)
			}
		}
	}
	tw := tar.NewWriter(w)
	mod := evs[len(evs)-1].Time
	add := func(name string, body []byte) error {
		if err := tw.WriteHeader(&tar.Header{Name: id + "/" + name, Mode: 0o644, Size: int64(len(body)), ModTime: mod, Format: tar.FormatPAX}); err != nil {
			return err
		}
		_, err := tw.Write(body)
		return err
	}
	bg := BundleGame{Game: id, Ruleset: g.Created.Ruleset, RulesetVersion: g.Created.RulesetVersion, Scenario: g.Created.Scenario,
		Players: g.Created.Players, Commitment: g.Created.Dice.Commitment, Events: len(evs), Adjudications: g.K,
		Head: evs[len(evs)-1].Hash.String(), Exported: s.now().Format(time.RFC3339)}
	gj, _ := json.MarshalIndent(bg, "", "  ")
	var lines, seeds, hashes bytes.Buffer
	type file struct {
		name string
		body []byte
	}
	var files []file
	for _, e := range evs {
		b, _ := json.Marshal(BundleEvent{Seq: e.Seq, Type: e.Type, Schema: e.Schema, Time: e.Time.UTC().Format(time.RFC3339Nano), UnixNano: e.Time.UnixNano(),
			Actor: e.Actor, Payload: string(e.Payload), Prev: e.Prev.String(), Hash: e.Hash.String()})
		lines.Write(b)
		lines.WriteByte('\n')
		switch e.Type {
		case game.TypeOrders:
			var oa game.OrdersAccepted
			if json.Unmarshal(e.Payload, &oa) == nil {
				files = append(files, file{fmt.Sprintf("orders/%06d-%s-turn%d-%s.yaml", e.Seq, oa.Side, oa.Turn, oa.Phase), []byte(oa.Raw)})
			}
		case game.TypeAdjudicated:
			var a game.Adjudicated
			if json.Unmarshal(e.Payload, &a) == nil {
				fmt.Fprintf(&seeds, "%d %d %d %s\n", a.K, a.Chain, a.Index, a.Seed)
				fmt.Fprintf(&hashes, "%d %s\n", a.K, a.StateHash)
				var r bytes.Buffer
				script.WriteResult(&r, game.Result{Adjudicated: a})
				files = append(files, file{fmt.Sprintf("results/%04d.txt", a.K), r.Bytes()})
			}
		}
	}
	for _, f := range append([]file{{"README.txt", []byte(bundleReadme)}, {"game.json", gj}, {"events.jsonl", lines.Bytes()},
		{"seeds.txt", seeds.Bytes()}, {"state-hashes.txt", hashes.Bytes()}}, files...) {
		if err := add(f.name, f.body); err != nil {
			return fmt.Errorf("writing the bundle: %w", err)
		}
	}
	return tw.Close()
}

// ReadBundle reads the events of an audit bundle.
func ReadBundle(r io.Reader) ([]store.Event, error) {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, errors.New("the bundle has no events.jsonl: is it an umpire audit bundle?")
		}
		if err != nil {
			return nil, fmt.Errorf("reading the bundle: %w", err)
		}
		if !strings.HasSuffix(h.Name, "/events.jsonl") && h.Name != "events.jsonl" {
			continue
		}
		var out []store.Event
		sc := bufio.NewScanner(tr)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for line := 1; sc.Scan(); line++ {
			var be BundleEvent
			if err := json.Unmarshal(sc.Bytes(), &be); err != nil {
				return nil, fmt.Errorf("events.jsonl line %d: %v", line, err)
			}
			e := store.Event{Seq: be.Seq, NewEvent: store.NewEvent{Type: be.Type, Schema: be.Schema, Time: time.Unix(0, be.UnixNano).UTC(), Actor: be.Actor, Payload: []byte(be.Payload)}}
			if err := parseHash(be.Prev, &e.Prev); err != nil {
				return nil, fmt.Errorf("events.jsonl line %d: prev: %v", line, err)
			}
			if err := parseHash(be.Hash, &e.Hash); err != nil {
				return nil, fmt.Errorf("events.jsonl line %d: hash: %v", line, err)
			}
			out = append(out, e)
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("events.jsonl: %w", err)
		}
		sort.SliceStable(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
		return out, nil
	}
}

func parseHash(s string, h *store.Hash) error {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(h) {
		return fmt.Errorf("%q is not a SHA-256 hash", s)
	}
	copy(h[:], b)
	return nil
}

// VerifyBundle checks an audit bundle: hash chain, seeds and dice; with a
// lookup it also replays every adjudication with this build's rules.
func VerifyBundle(r io.Reader, lookup game.Lookup) (*game.Audit, error) {
	evs, err := ReadBundle(r)
	if err != nil {
		return nil, err
	}
	entries := ToEntries(evs)
	a := game.Verify(entries)
	if err := CheckChain(evs); err != nil {
		a.Problems = append([]string{err.Error()}, a.Problems...)
	}
	if lookup != nil {
		rp := game.Replay(entries, lookup)
		a.Redecided = rp.Redecided
		a.VersionChanges = rp.VersionChanges
		a.Problems = append(a.Problems, rp.Problems...)
	}
	return a, nil
}
