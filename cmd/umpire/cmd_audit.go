package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
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
		"Lists a game's events: number, time, actor, type and a summary. The log holds\nonly what every side may read; what is sealed (hidden orders, orders sent ahead,\na side's own notices) shows as a commitment until it is revealed. With --as,\nthe side's own sealed parts are shown too (\"for_you\" in JSON); without it,\nthe referee sees every sealed part.").withData()
	as := f.String("as", "", "list as `side` would see it")
	asJSON := f.Bool("json", false, "print JSON lines (with payloads)")
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) != 1 {
		return usagef("give the game")
	}
	svc, done, err := a.service(ctx, f, false)
	if err != nil {
		return err
	}
	defer done()
	entries, evs, err := svc.Entries(ctx, f.pos[0])
	if err != nil {
		return err
	}
	viewer := adjudicator.Side(*as)
	if viewer != adjudicator.Referee {
		g, err := svc.Load(ctx, f.pos[0])
		if err != nil {
			return err
		}
		if _, ok := g.Player(viewer); !ok {
			return usagef("game %s has no side %q", f.pos[0], viewer)
		}
	}
	for i, e := range entries {
		mine := forViewer(ctx, svc, f.pos[0], e, viewer)
		if *asJSON {
			b, _ := json.Marshal(struct {
				games.BundleEvent
				ForYou json.RawMessage `json:"for_you,omitempty"`
			}{games.BundleEvent{Seq: e.Seq, Type: e.Type, Schema: e.Schema, Time: e.Time.Format("2006-01-02T15:04:05.000Z07:00"), UnixNano: e.Time.UnixNano(),
				Actor: e.Actor, Payload: string(e.Payload), Prev: evs[i].Prev.String(), Hash: evs[i].Hash.String()}, mine})
			fmt.Fprintln(a.stdout, string(b))
			continue
		}
		summary := summarize(e)
		if mine != nil {
			summary += " | for you: " + string(mine)
		}
		fmt.Fprintf(a.stdout, "%5d  %s  %-14s %-22s %s\n", e.Seq, e.Time.Format("2006-01-02 15:04:05"), e.Actor, e.Type, summary)
	}
	return nil
}

// forViewer is the part of an event's sealed content that viewer may read
// before it is revealed: the opening of their own orders or notices, the
// lines and rolls of an adjudication meant for them; everything for the
// referee. Nil when there is none.
func forViewer(ctx context.Context, svc *games.Service, id string, e game.Entry, viewer adjudicator.Side) json.RawMessage {
	var x struct {
		Side   adjudicator.Side     `json:"side"`
		To     adjudicator.Audience `json:"to"`
		Sealed string               `json:"sealed"`
	}
	if json.Unmarshal(e.Payload, &x) != nil || x.Sealed == "" {
		return nil
	}
	b, err := svc.Unseal(ctx, id, x.Sealed)
	if err != nil {
		return nil
	}
	switch e.Type {
	case game.TypeOrders, game.TypeQueueDropped:
		if viewer == adjudicator.Referee || x.Side == viewer {
			return b
		}
	case adjudicator.TypeSecret:
		if x.To.Includes(viewer) {
			return b
		}
	case game.TypeAdjudicated:
		var op game.AdjudicationOpening
		if json.Unmarshal(b, &op) != nil {
			return nil
		}
		var yours game.AdjudicationOpening
		for _, l := range op.Lines {
			if l.To.Includes(viewer) {
				yours.Lines = append(yours.Lines, l)
			}
		}
		for _, r := range op.Rolls {
			if r.To.Includes(viewer) {
				yours.Rolls = append(yours.Rolls, r)
			}
		}
		if len(yours.Lines)+len(yours.Rolls) > 0 {
			out, _ := json.Marshal(yours)
			return out
		}
	}
	return nil
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
		what := fmt.Sprintf("sha256 %s", short(o.Digest))
		switch {
		case o.Sealed != "" && o.Ahead:
			what = fmt.Sprintf("text sealed until the orders sent ahead are used: %s", short(o.Sealed))
		case o.Sealed != "" && o.SealKey != "":
			what = fmt.Sprintf("sealed until revealed (key %s) or the end of the game: %s", o.SealKey, short(o.Sealed))
		case o.Sealed != "":
			what = fmt.Sprintf("sealed until the adjudication: %s", short(o.Sealed))
		}
		return fmt.Sprintf("%s %s for turn %d, phase %s (%s, via %s)", o.Side, o.Kind, o.Turn, o.Phase, what, o.Via)
	case game.TypeAdjudicated:
		var a game.Adjudicated
		json.Unmarshal(e.Payload, &a)
		sealed := ""
		if a.Sealed != "" {
			sealed = ", part sealed " + short(a.Sealed)
		}
		return fmt.Sprintf("adjudication %d: %d events, %d rolls, seed %s, state %s%s", a.K, a.Events, len(a.Rolls), short(a.Seed), short(a.StateHash), sealed)
	case game.TypeQueueDropped:
		var q game.QueueDropped
		json.Unmarshal(e.Payload, &q)
		return fmt.Sprintf("%s's orders sent ahead dropped at turn %d, phase %s (why is sealed: %s)", q.Side, q.Turn, q.Phase, short(q.Sealed))
	case adjudicator.TypeSecret:
		var se game.SealedEvent
		json.Unmarshal(e.Payload, &se)
		until := "the end of the game"
		if se.Key != "" {
			until = fmt.Sprintf("revealed (key %s) or the end of the game", se.Key)
		}
		return fmt.Sprintf("a change of the game for %s alone, sealed until %s: %s", joinAudience(se.To), until, short(se.Sealed))
	case game.TypeRevealed:
		var r game.Revealed
		json.Unmarshal(e.Payload, &r)
		return fmt.Sprintf("reveals what event %d sealed (%s)", r.Of, short(r.Commitment))
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

func joinAudience(a adjudicator.Audience) string {
	parts := make([]string, len(a))
	for i, s := range a {
		parts[i] = string(s)
	}
	return strings.Join(parts, ", ")
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
	svc, done, err := a.service(ctx, f, false)
	if err != nil {
		return err
	}
	defer done()
	if *k != 0 {
		fs, err := dice.ParseFaces(*faces)
		if err != nil {
			return usagef("%v", err)
		}
		res, err := svc.WhatIf(ctx, f.pos[0], *k, fs)
		if err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "what-if (nothing recorded): adjudication %d with dice %s first\n", *k, *faces)
		script.WriteResult(a.stdout, *res, adjudicator.Referee)
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
	if au.Revealed > 0 || au.Sealed > 0 {
		fmt.Fprintf(a.stdout, "sealed parts revealed and checked: %d; still sealed: %d (checked once revealed)\n", au.Revealed, au.Sealed)
	}
	if au.Redecided > 0 {
		fmt.Fprintf(a.stdout, "adjudications decided again: %d\n", au.Redecided)
	}
	for _, v := range au.VersionChanges {
		fmt.Fprintf(a.stdout, "note: %s\n", v)
	}
	for _, n := range au.Notes {
		fmt.Fprintf(a.stdout, "note: %s\n", n)
	}
	if au.OK() {
		fmt.Fprintf(a.stdout, "%s: OK\n", what)
		return nil
	}
	fmt.Fprintf(a.stdout, "%s: FAILED\n", what)
	for _, p := range au.Problems {
		fmt.Fprintf(a.stdout, "FAILED: %s\n", p)
	}
	return exitError{1}
}

// known declares --commitment and --head, what a player kept from his
// mails, and returns what reads them once the flags are parsed.
func (f *flags) known(commitmentDoc, headDoc string) func() (games.Known, error) {
	commitment := f.String("commitment", "", commitmentDoc)
	head := f.String("head", "", headDoc)
	return func() (games.Known, error) {
		known := games.Known{Commitment: *commitment}
		if *head != "" {
			var err error
			if known.HeadSeq, known.Head, err = games.ParseHead(*head); err != nil {
				return known, usagef("--head %v", err)
			}
		}
		return known, nil
	}
}

func cmdVerify(a *app, ctx context.Context, args []string) error {
	f := a.flags("verify", "GAME | BUNDLE.tar [--commitment HEX] [--head N:HASH]",
		"Checks a game, or an exported audit bundle: the hash chain of the events, every\nrevealed seed against the dice commitment, every die recomputed from its seed,\nevery revealed sealed part against its commitment, and every other file of a\nbundle against the events (changed, missing, extra or reordered files fail).\nA bundle is also replayed when this build has its ruleset. Give what you kept\nfrom your own mails to catch a history cut short or rewritten.").withData()
	knownFlags := f.known("the dice commitment `HEX` of your welcome mail", "an event number and its hash, `N:HASH`, from a results mail")
	if err := f.parse(args); err != nil {
		return err
	}
	known, err := knownFlags()
	if err != nil {
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
		au, err := games.VerifyBundle(file, a.rules, known)
		if err != nil {
			return err
		}
		return a.printAudit("verify "+f.pos[0], au)
	}
	if strings.HasSuffix(f.pos[0], ".tar") {
		return fmt.Errorf("no bundle file %s", f.pos[0])
	}
	svc, done, err := a.service(ctx, f, false)
	if err != nil {
		return err
	}
	defer done()
	au, err := svc.Verify(ctx, f.pos[0], known)
	if err != nil {
		return err
	}
	return a.printAudit("verify", au)
}

func cmdExport(a *app, ctx context.Context, args []string) error {
	f := a.flags("export", "GAME -o BUNDLE.tar",
		"Writes a self-contained audit bundle: every event with its hashes, the revealed\nseeds, the state hash of every adjudication, the orders and the results as\nevery side may read them. What is still sealed (hidden orders, orders sent\nahead, a side's own notices) is in it only as commitments; no secret is.").withData()
	return a.export(ctx, f, args, "game", (*games.Service).Export)
}

// export parses an export command's -o and its one game, and writes the
// bundle that export makes of it.
func (a *app) export(ctx context.Context, f *flags, args []string, what string, export func(*games.Service, context.Context, string, io.Writer) error) error {
	out := f.String("o", "", "the bundle `file` to write")
	if err := f.parse(args); err != nil {
		return err
	}
	if len(f.pos) != 1 || *out == "" {
		return usagef("give the %s and -o FILE", what)
	}
	svc, done, err := a.service(ctx, f, false)
	if err != nil {
		return err
	}
	defer done()
	return a.writeBundle(*out, func(w io.Writer) error { return export(svc, ctx, f.pos[0], w) })
}

// writeBundle writes a bundle to path through a temporary file renamed
// into place, so that a failure leaves no half-written bundle.
func (a *app) writeBundle(path string, write func(io.Writer) error) error {
	tmp := path + ".tmp"
	file, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := write(file); err != nil {
		file.Close()
		os.Remove(tmp)
		return err
	}
	if err := file.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "wrote %s\n", path)
	return nil
}
