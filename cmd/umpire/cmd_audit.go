package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/store/games"
)

func cmdLog(a *app, ctx context.Context, args []string) error {
	f := a.flags("log", "GAME [--as SIDE] [--json]",
		"Lists a game's events: number, time, actor, type and a summary. With --as,\norders still hidden from that side are not shown.").withData()
	as := f.String("as", "", "list as `side` would see it")
	asJSON := f.Bool("json", false, "print JSON lines (with payloads)")
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) != 1 {
		return usagef("give the game")
	}
	svc, done, err := a.service(*f.data, false)
	if err != nil {
		return err
	}
	defer done()
	entries, evs, err := svc.Entries(ctx, f.pos[0])
	if err != nil {
		return err
	}
	hidden := hiddenFrom(entries, adjudicator.Side(*as), svc)
	for i, e := range entries {
		if *asJSON {
			be := games.BundleEvent{Seq: e.Seq, Type: e.Type, Schema: e.Schema, Time: e.Time.Format("2006-01-02T15:04:05.000Z07:00"), UnixNano: e.Time.UnixNano(),
				Actor: e.Actor, Payload: string(e.Payload), Prev: evs[i].Prev.String(), Hash: evs[i].Hash.String()}
			if hidden[e.Seq] {
				be.Payload = `{"hidden":true}`
			}
			b, _ := json.Marshal(be)
			fmt.Fprintln(a.stdout, string(b))
			continue
		}
		summary := summarize(e)
		if hidden[e.Seq] {
			summary = "orders received (hidden until the adjudication)"
		}
		fmt.Fprintf(a.stdout, "%5d  %s  %-14s %-22s %s\n", e.Seq, e.Time.Format("2006-01-02 15:04:05"), e.Actor, e.Type, summary)
	}
	return nil
}

// hiddenFrom marks the orders that side may not see yet: answers to hidden
// requests of other sides that are not adjudicated.
func hiddenFrom(entries []game.Entry, side adjudicator.Side, svc *games.Service) map[uint64]bool {
	out := map[uint64]bool{}
	if side == "" {
		return out
	}
	g, err := game.Load(entries, svc.Rules)
	if err != nil {
		return out
	}
	for _, p := range g.Pending {
		if r, ok := g.Request(p.Request); ok && r.Hidden && p.Side != side {
			out[p.Seq] = true
		}
	}
	return out
}

func summarize(e game.Entry) string {
	switch e.Type {
	case game.TypeCreated:
		var c game.Created
		json.Unmarshal(e.Payload, &c)
		return fmt.Sprintf("%s %s, scenario %s, dice commitment %s", c.Ruleset, c.RulesetVersion, c.Scenario, short(c.Dice.Commitment))
	case game.TypeOrders:
		var o game.OrdersAccepted
		json.Unmarshal(e.Payload, &o)
		ahead := ""
		if len(o.Queue) > 0 {
			ahead = fmt.Sprintf(", %d phases sent ahead", len(o.Queue))
		}
		return fmt.Sprintf("%s %s for turn %d, phase %s (sha256 %s, via %s%s)", o.Side, o.Kind, o.Turn, o.Phase, short(o.Digest), o.Via, ahead)
	case game.TypeAdjudicated:
		var a game.Adjudicated
		json.Unmarshal(e.Payload, &a)
		return fmt.Sprintf("adjudication %d: %d events, %d rolls, seed %s, state %s", a.K, a.Events, len(a.Rolls), short(a.Seed), short(a.StateHash))
	case game.TypeQueueDropped:
		var q game.QueueDropped
		json.Unmarshal(e.Payload, &q)
		return fmt.Sprintf("%s's orders sent ahead dropped at turn %d, phase %s: %s", q.Side, q.Turn, q.Phase, q.Reason)
	case game.TypeChainExtended:
		var c game.ChainExtended
		json.Unmarshal(e.Payload, &c)
		return fmt.Sprintf("dice chain %d committed: %s, from adjudication %d", c.Chain, short(c.Commitment), c.FromK)
	}
	p := string(e.Payload)
	if len(p) > 100 {
		p = p[:97] + "..."
	}
	return p
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	if h == "" {
		return "-"
	}
	return h
}

func cmdReplay(a *app, ctx context.Context, args []string) error {
	f := a.flags("replay", "GAME [--adjudication K --dice 6,2,5]",
		"Decides every adjudication again from the recorded orders and dice and compares\nevents, rolls and state hashes with the log; exits 1 at a divergence. With\n--adjudication and --dice, shows what adjudication K would have been with those\nfaces (a what-if); nothing is recorded.").withData()
	k := f.Int("adjudication", 0, "what-if: the adjudication `K` to decide again")
	faces := f.String("dice", "", "what-if: the `faces` to roll first (e.g. 6,2,5)")
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) != 1 {
		return usagef("give the game")
	}
	if (*k == 0) != (*faces == "") {
		return usagef("a what-if needs both --adjudication and --dice")
	}
	svc, done, err := a.service(*f.data, false)
	if err != nil {
		return err
	}
	defer done()
	if *k != 0 {
		fs, err := dice.ParseFaces(*faces)
		if err != nil {
			return usagef("%v", err)
		}
		entries, _, err := svc.Entries(ctx, f.pos[0])
		if err != nil {
			return err
		}
		res, err := game.WhatIf(entries, svc.Rules, *k, fs)
		if err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "what-if (nothing recorded): adjudication %d with dice %s first\n", *k, *faces)
		script.WriteResult(a.stdout, *res)
		return nil
	}
	au, err := svc.Replay(ctx, f.pos[0])
	if err != nil {
		return err
	}
	return a.printAudit("replay", au)
}

func (a *app) printAudit(what string, au *game.Audit) error {
	fmt.Fprintf(a.stdout, "game %s: %d events, %d adjudications, %d dice chains\n", au.Game, au.Events, au.Adjudications, au.Chains)
	if au.Seeds > 0 || au.Dice > 0 {
		fmt.Fprintf(a.stdout, "seeds checked against the commitment: %d; rolls: %d; dice recomputed: %d\n", au.Seeds, au.Rolls, au.Dice)
	}
	if au.Redecided > 0 {
		fmt.Fprintf(a.stdout, "adjudications decided again: %d\n", au.Redecided)
	}
	for _, v := range au.VersionChanges {
		fmt.Fprintf(a.stdout, "note: %s\n", v)
	}
	if au.OK() {
		fmt.Fprintf(a.stdout, "%s: OK\n", what)
		return nil
	}
	fmt.Fprintf(a.stdout, "%s: FAILED\n", what)
	for _, p := range au.Problems {
		fmt.Fprintf(a.stdout, "  - %s\n", p)
	}
	return exitError{1}
}

func cmdVerify(a *app, ctx context.Context, args []string) error {
	f := a.flags("verify", "GAME | BUNDLE.tar",
		"Checks a game, or an exported audit bundle: the hash chain of the events, every\nrevealed seed against the dice commitment, and every die recomputed from its\nseed. A bundle is also replayed when this build has its ruleset.").withData()
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) != 1 {
		return usagef("give a game or a bundle file")
	}
	if st, err := os.Stat(f.pos[0]); err == nil && !st.IsDir() {
		file, err := openCapped(f.pos[0], maxBundle, "audit bundles")
		if err != nil {
			return err
		}
		defer file.Close()
		au, err := games.VerifyBundle(file, a.rules)
		if err != nil {
			return err
		}
		return a.printAudit("verify "+f.pos[0], au)
	}
	if strings.HasSuffix(f.pos[0], ".tar") {
		return fmt.Errorf("no bundle file %s", f.pos[0])
	}
	svc, done, err := a.service(*f.data, false)
	if err != nil {
		return err
	}
	defer done()
	au, err := svc.Verify(ctx, f.pos[0])
	if err != nil {
		return err
	}
	return a.printAudit("verify", au)
}

func cmdExport(a *app, ctx context.Context, args []string) error {
	f := a.flags("export", "GAME -o BUNDLE.tar",
		"Writes a self-contained audit bundle: every event with its hashes, the revealed\nseeds, the state hash of every adjudication, the orders as received and the\nresults as players read them. It holds no unrevealed secret.").withData()
	out := f.String("o", "", "the bundle `file` to write")
	hidden := f.Bool("include-hidden", false, "also export orders still hidden from the other sides (a referee's archive, not for players)")
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) != 1 || *out == "" {
		return usagef("give the game and -o FILE")
	}
	svc, done, err := a.service(*f.data, false)
	if err != nil {
		return err
	}
	defer done()
	tmp := *out + ".tmp"
	file, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := svc.Export(ctx, f.pos[0], file, *hidden); err != nil {
		file.Close()
		os.Remove(tmp)
		return err
	}
	if err := file.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, *out); err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "wrote %s\n", *out)
	return nil
}
