package games

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
)

// Handicaps (Dragon Rage §22, FR §3.3.4: DR-HCAP-1..3) are not kept as
// state: they are derived, each time they are asked for, from the finished
// games of the store (docs/architecture.md, "Series"). Rulings:
//
//   - Handicaps are kept per ruleset: only the games of one ruleset count
//     (Dragon Rage, the only one with handicaps, by default). A win at
//     another game says nothing of a Dragon Rage player.
//   - Every finished game of that ruleset between two players counts,
//     whatever its scenario (fixed, point or weighted, a campaign's game):
//     "each game won" (DR-HCAP-1) makes no exception.
//   - The game belongs to the players who held its sides when it ended:
//     after a side choice that swapped them (game.Game seats) and after a
//     referee's replacement, the player who finished the game wins or loses
//     it; a replaced player's part counts nothing.
//   - A game won by its rules counts for its winner (View.Winner); a game
//     ended outside its rules with a loser (the referee's end, a forfeit on
//     deadlines) counts for the other side; one ended without a loser, and
//     a game over with no winner, is a draw: counted among the games, +0
//     for both.
//   - A game rolled back (the parent of a branch) does not count: its
//     branch does.
//   - Left out, and said so: a game whose two sides are not each played by
//     one address at the end (a side ejected and not given again, the same
//     address on both sides, more or fewer than two players), and a game
//     that cannot be read.
//
// Addresses are compared case-insensitively, as everywhere in umpire, and
// shown in lower case.

// HandicapRuleset is the ruleset whose games count when none is named.
const HandicapRuleset = "dragonrage"

// The two ways of keeping handicaps (DR-HCAP-2).
const (
	HandicapPair     = "pair"     // against each opponent: the games between the two players only
	HandicapCombined = "combined" // the sum over every opponent
)

// HandicapWarnAt is the handicap from which DR-HCAP-2 warns that the player
// keeps playing weaker opponents.
const HandicapWarnAt = 10

// The sides DR-HCAP-3 names. A ruleset whose games take a handicap has an
// option goal-adjust, moving the invader's VP goal, and these two sides.
const (
	handicapInvader  adjudicator.Side = "invader"
	handicapDefender adjudicator.Side = "defender"
)

// Handicaps is what the finished games of one ruleset say of its players.
type Handicaps struct {
	Ruleset string
	Pairs   []*PairHandicap   // by A, then B
	Players []*PlayerHandicap // combined: the highest handicap first, then by address
	Games   int               // finished games counted (draws included)
	Playing int               // games of the ruleset not over yet, not counted
	Skipped []SkippedGame     // finished games of the ruleset left out, by id

	pairs   map[[2]string]*PairHandicap
	players map[string]*PlayerHandicap
}

// PairHandicap is the record of two players against each other. A < B.
type PairHandicap struct {
	A, B         string
	Games        int // finished games between them, draws included
	WinsA, WinsB int
}

// Draws is the number of their games neither won.
func (p *PairHandicap) Draws() int { return p.Games - p.WinsA - p.WinsB }

// Of is addr's handicap against the other player: +1 a game won, -1 a
// game lost (DR-HCAP-1). 0 for an address that is neither.
func (p *PairHandicap) Of(addr string) int {
	switch strings.ToLower(addr) {
	case p.A:
		return p.WinsA - p.WinsB
	case p.B:
		return p.WinsB - p.WinsA
	}
	return 0
}

// Other is the player addr played against.
func (p *PairHandicap) Other(addr string) string {
	if strings.ToLower(addr) == p.A {
		return p.B
	}
	return p.A
}

// PlayerHandicap is one player's combined handicap: the sum of his
// handicaps against every opponent (DR-HCAP-2).
type PlayerHandicap struct {
	Address           string
	Handicap          int
	Games, Wins, Loss int
	Opponents         int
}

// Draws is the number of his games nobody won.
func (p *PlayerHandicap) Draws() int { return p.Games - p.Wins - p.Loss }

// SkippedGame is a finished game left out of the handicaps, and why.
type SkippedGame struct {
	Game, Why string
}

// Pair returns the record of a and b against each other; a zero record
// (no games) when they never finished one.
func (h *Handicaps) Pair(a, b string) *PairHandicap {
	k := pairKey(a, b)
	if p := h.pairs[k]; p != nil {
		return p
	}
	return &PairHandicap{A: k[0], B: k[1]}
}

// Player returns addr's combined handicap; a zero one when he finished no
// game.
func (h *Handicaps) Player(addr string) *PlayerHandicap {
	addr = strings.ToLower(addr)
	if p := h.players[addr]; p != nil {
		return p
	}
	return &PlayerHandicap{Address: addr}
}

func pairKey(a, b string) [2]string {
	a, b = strings.ToLower(a), strings.ToLower(b)
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

// outcome is how one finished game counts.
type outcome struct {
	id     string
	a, b   string // the players at the end, lower case
	winner string // a, b, or "" for a draw
}

// Handicaps reads every game of the store and counts the finished games of
// ruleset ("" for HandicapRuleset) between two players. It loads each game
// once (the service's cache, else its log folded): linear in the number of
// games and their events.
func (s *Service) Handicaps(ctx context.Context, ruleset string) (*Handicaps, error) {
	if ruleset == "" {
		ruleset = HandicapRuleset
	}
	ids, err := s.Store.Games(ctx)
	if err != nil {
		return nil, err
	}
	h := &Handicaps{Ruleset: ruleset}
	var outs []outcome
	branched := map[string]bool{}
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		g, err := s.Load(ctx, id)
		if err != nil {
			h.Skipped = append(h.Skipped, SkippedGame{id, "cannot be read (umpire check says more): " + err.Error()})
			continue
		}
		if g.Created.Branch != nil {
			branched[g.Created.Branch.Of] = true
		}
		if g.Created.Ruleset != ruleset {
			continue
		}
		if !g.Over() {
			h.Playing++
			continue
		}
		o, why := gameOutcome(g)
		if why != "" {
			h.Skipped = append(h.Skipped, SkippedGame{id, why})
			continue
		}
		outs = append(outs, o)
	}
	h.pairs = map[[2]string]*PairHandicap{}
	h.players = map[string]*PlayerHandicap{}
	for _, o := range outs {
		if branched[o.id] {
			continue // rolled back: its branch counts instead
		}
		h.add(o)
	}
	h.Pairs = slices.SortedFunc(maps.Values(h.pairs), func(x, y *PairHandicap) int {
		return cmp.Or(cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B))
	})
	h.Players = slices.SortedFunc(maps.Values(h.players), func(x, y *PlayerHandicap) int {
		return cmp.Or(cmp.Compare(y.Handicap, x.Handicap), cmp.Compare(x.Address, y.Address))
	})
	return h, nil
}

// gameOutcome is how finished game g counts, or why it does not.
func gameOutcome(g *game.Game) (outcome, string) {
	o := outcome{id: g.ID}
	ps := g.Created.Players
	if len(ps) != 2 {
		return o, fmt.Sprintf("%d players: a handicap is between two", len(ps))
	}
	for _, p := range ps {
		if p.Address == "" {
			return o, fmt.Sprintf("nobody played %s at the end", p.Side)
		}
	}
	o.a, o.b = strings.ToLower(ps[0].Address), strings.ToLower(ps[1].Address)
	if o.a == o.b {
		return o, fmt.Sprintf("%s played both sides", o.a)
	}
	var winner adjudicator.Side
	if g.Ended != nil {
		// Ended outside its rules: the other side wins when one lost.
		switch g.Ended.Loser {
		case "":
		case ps[0].Side:
			winner = ps[1].Side
		case ps[1].Side:
			winner = ps[0].Side
		}
	} else {
		winner = g.View(adjudicator.Observer).Winner
	}
	switch winner {
	case "":
	case ps[0].Side:
		o.winner = o.a
	case ps[1].Side:
		o.winner = o.b
	default:
		return o, fmt.Sprintf("won by %s, a side without a player", winner)
	}
	return o, ""
}

func (h *Handicaps) add(o outcome) {
	h.Games++
	k := pairKey(o.a, o.b)
	p := h.pairs[k]
	if p == nil {
		p = &PairHandicap{A: k[0], B: k[1]}
		h.pairs[k] = p
		for _, a := range k {
			h.player(a).Opponents++
		}
	}
	p.Games++
	h.player(o.a).Games++
	h.player(o.b).Games++
	switch o.winner {
	case "":
		return
	case p.A:
		p.WinsA++
	default:
		p.WinsB++
	}
	loser := o.a
	if o.winner == o.a {
		loser = o.b
	}
	w, l := h.player(o.winner), h.player(loser)
	w.Wins++
	w.Handicap++
	l.Loss++
	l.Handicap--
}

func (h *Handicaps) player(addr string) *PlayerHandicap {
	p := h.players[addr]
	if p == nil {
		p = &PlayerHandicap{Address: addr}
		h.players[addr] = p
	}
	return p
}

// Warnings are the handicaps of 10 or more, per pair and combined, with
// DR-HCAP-2's reading of them; of the players in only when only is not
// empty.
func (h *Handicaps) Warnings(only ...string) []string {
	keep := filter(only)
	var out []string
	for _, p := range h.Pairs {
		for _, a := range []string{p.A, p.B} {
			if n := p.Of(a); n >= HandicapWarnAt && keep(a) {
				out = append(out, fmt.Sprintf("%s is %+d against %s", a, n, p.Other(a)))
			}
		}
	}
	for _, p := range h.Players {
		if p.Handicap >= HandicapWarnAt && keep(p.Address) {
			out = append(out, fmt.Sprintf("%s is %+d combined", p.Address, p.Handicap))
		}
	}
	return out
}

// filter is a test of addresses: all when only is empty.
func filter(only []string) func(string) bool {
	if len(only) == 0 {
		return func(string) bool { return true }
	}
	set := map[string]bool{}
	for _, a := range only {
		set[strings.ToLower(strings.TrimSpace(a))] = true
	}
	return func(a string) bool { return set[a] }
}

// HandicapTable says what Write writes.
type HandicapTable struct {
	Only     []string // the players to show (pairs with one of them); all when empty
	Combined bool     // the combined handicaps only, not the pairs
}

// Write writes the handicaps as tables for people: per pair (unless
// t.Combined), combined, the warnings of DR-HCAP-2 and the games left out.
func (h *Handicaps) Write(w io.Writer, t HandicapTable) error {
	var b strings.Builder
	h.write(&b, t)
	for _, l := range strings.SplitAfter(b.String(), "\n") { // no blanks at the ends of lines
		if _, err := io.WriteString(w, strings.TrimRight(l, " \n")+strings.Repeat("\n", strings.Count(l, "\n"))); err != nil {
			return err
		}
	}
	return nil
}

func (h *Handicaps) write(w *strings.Builder, t HandicapTable) {
	keep := filter(t.Only)
	fmt.Fprintf(w, "Handicaps (DR-HCAP-1: a game won +1, a game lost -1, a draw 0) from %s finished %s game%s",
		count(h.Games), h.Ruleset, plural(h.Games))
	if h.Playing > 0 {
		fmt.Fprintf(w, "; %s still played, not counted", count(h.Playing))
	}
	fmt.Fprintln(w, ".")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if !t.Combined {
		fmt.Fprintln(w, "\nPer pair of opponents (each player's handicap against the other):")
		n := 0
		for _, p := range h.Pairs {
			if !keep(p.A) && !keep(p.B) {
				continue
			}
			if n == 0 {
				fmt.Fprintln(tw, "  PLAYER\tHANDICAP\tOPPONENT\tHANDICAP\tGAMES\tWON-LOST-DRAWN")
			}
			n++
			a, b := p.A, p.B
			if !keep(a) { // the player asked about first
				a, b = b, a
			}
			fmt.Fprintf(tw, "  %s\t%+d\t%s\t%+d\t%d\t%d-%d-%d\n", a, p.Of(a), b, p.Of(b), p.Games, wins(p, a), wins(p, b), p.Draws())
		}
		if n == 0 {
			fmt.Fprintln(tw, "  none: no finished game between two players"+map[bool]string{true: " of these", false: " yet"}[len(t.Only) > 0])
		}
		tw.Flush()
	}
	fmt.Fprintln(w, "\nCombined (the sum over every opponent, DR-HCAP-2):")
	n := 0
	for i, p := range h.Players {
		if !keep(p.Address) {
			continue
		}
		if n == 0 {
			fmt.Fprintln(tw, "  PLAYER\tHANDICAP\tGAMES\tOPPONENTS\tWON-LOST-DRAWN\t")
		}
		n++
		note := ""
		if i == 0 && (len(h.Players) == 1 || h.Players[1].Handicap < p.Handicap) {
			note = "the best player of the group (DR-HCAP-1)"
		}
		fmt.Fprintf(tw, "  %s\t%+d\t%d\t%d\t%d-%d-%d\t%s\n", p.Address, p.Handicap, p.Games, p.Opponents, p.Wins, p.Loss, p.Draws(), note)
	}
	for _, a := range t.Only {
		if h.players[strings.ToLower(strings.TrimSpace(a))] == nil {
			fmt.Fprintf(tw, "  %s\t+0\t0\t0\t0-0-0\tno finished game\n", strings.ToLower(strings.TrimSpace(a)))
			n++
		}
	}
	if n == 0 {
		fmt.Fprintln(tw, "  none: no finished game yet")
	}
	tw.Flush()
	if ws := h.Warnings(t.Only...); len(ws) > 0 {
		fmt.Fprintf(w, "\nA handicap of %d or more means the player keeps playing weaker opponents (DR-HCAP-2):\n", HandicapWarnAt)
		for _, s := range ws {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
	if len(h.Skipped) > 0 {
		fmt.Fprintf(w, "\nLeft out (%d):\n", len(h.Skipped))
		for _, s := range h.Skipped {
			fmt.Fprintf(w, "  %s: %s\n", s.Game, s.Why)
		}
	}
}

func wins(p *PairHandicap, addr string) int {
	if addr == p.A {
		return p.WinsA
	}
	return p.WinsB
}

func count(n int) string {
	if n == 0 {
		return "no"
	}
	return fmt.Sprint(n)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// GoalAdjust is the goal adjustment of DR-HCAP-3 for a game between an
// invader of handicap invader and a defender of handicap defender: the
// higher handicap less the lower, halved and rounded down; added to the
// invader's VP goal when the better player invades (he must destroy that
// many more), taken from it when he defends (the invader needs that many
// fewer).
func GoalAdjust(invader, defender int) int {
	if invader >= defender {
		return (invader - defender) / 2
	}
	return -((defender - invader) / 2)
}

// HandicapApplied is the handicap a new game was given: whose, and the
// goal-adjust it makes.
type HandicapApplied struct {
	Kind                string // HandicapPair or HandicapCombined
	Invader, Defender   string // the players' addresses
	InvaderH, DefenderH int    // their handicaps
	InvaderN, DefenderN int    // the games each handicap counts
	Adjust              int    // the option goal-adjust (DR-HCAP-3)
}

// Option is the value of the option goal-adjust: "+2", "-1", "+0".
func (a *HandicapApplied) Option() string { return fmt.Sprintf("%+d", a.Adjust) }

// Refused is err, the refusal of the game given the handicap, saying that
// the handicap set the option; err itself when a is nil (no handicap).
func (a *HandicapApplied) Refused(err error) error {
	if a == nil || err == nil {
		return err
	}
	return fmt.Errorf("the handicap (%s) set the option goal-adjust=%s (DR-HCAP-3), and the game refuses it: %w", a.Kind, a.Option(), err)
}

// Text says the handicap and why, for the referee and the players ("" when
// a is nil, no handicap): "Handicap (combined): the invader
// alice@example.org +3 over 5 games, the defender bob@example.org -1 over 3
// games; the better player, alice@example.org, invades: the invader needs 2
// more VP ((+3 - -1) / 2, rounded down); goal-adjust=+2 (DR-HCAP-3)."
func (a *HandicapApplied) Text() string {
	if a == nil {
		return ""
	}
	var who string
	if a.Kind == HandicapPair {
		who = fmt.Sprintf("Handicap (pair): the invader %s %+d and the defender %s %+d over %s game%s between them",
			a.Invader, a.InvaderH, a.Defender, a.DefenderH, count(a.InvaderN), plural(a.InvaderN))
	} else {
		who = fmt.Sprintf("Handicap (combined): the invader %s %+d over %s game%s, the defender %s %+d over %s game%s",
			a.Invader, a.InvaderH, count(a.InvaderN), plural(a.InvaderN), a.Defender, a.DefenderH, count(a.DefenderN), plural(a.DefenderN))
	}
	hi, lo := max(a.InvaderH, a.DefenderH), min(a.InvaderH, a.DefenderH)
	calc := fmt.Sprintf("(%+d - %+d) / 2, rounded down", hi, lo)
	var what string
	switch {
	case a.InvaderH == a.DefenderH:
		what = "equal handicaps: the VP goal stays"
	case a.Adjust == 0:
		what = fmt.Sprintf("%s is 0: the VP goal stays", calc)
	case a.Adjust > 0:
		what = fmt.Sprintf("the better player, %s, invades: the invader needs %d more VP (%s)", a.Invader, a.Adjust, calc)
	default:
		what = fmt.Sprintf("the better player, %s, defends: the invader needs %d fewer VP (%s)", a.Defender, -a.Adjust, calc)
	}
	return fmt.Sprintf("%s; %s; goal-adjust=%s (DR-HCAP-3).", who, what, a.Option())
}

// ApplyHandicap gives the game req would create the handicap of DR-HCAP-3,
// pair or combined, from the stored games of its ruleset: it sets the
// option goal-adjust (in a copy of req.Options) and returns what it
// applied. It refuses a ruleset without the option goal-adjust, a request
// that sets goal-adjust itself, and players other than one invader and
// one defender; a scenario without a VP goal to move is refused by the
// ruleset when the game is created.
func (s *Service) ApplyHandicap(ctx context.Context, req *CreateRequest, kind string) (*HandicapApplied, error) {
	if kind != HandicapPair && kind != HandicapCombined {
		return nil, fmt.Errorf("handicap %q: write pair (the two players' record against each other) or combined (each one's record against everybody), DR-HCAP-2", kind)
	}
	rs, ok := s.Rules(req.Ruleset)
	if !ok {
		return nil, fmt.Errorf("no ruleset %q in this build (umpire rulesets lists them)", req.Ruleset)
	}
	if !slices.ContainsFunc(rs.Info().Options, func(o adjudicator.OptionInfo) bool { return o.Name == "goal-adjust" }) {
		return nil, fmt.Errorf("handicap: ruleset %s has no VP goal to adjust (no option goal-adjust); handicaps (DR-HCAP-3) are for Dragon Rage", req.Ruleset)
	}
	if v, ok := req.Options["goal-adjust"]; ok {
		return nil, fmt.Errorf("handicap: the option goal-adjust=%s is given too; the handicap sets goal-adjust itself (DR-HCAP-3): leave one of them out", v)
	}
	var inv, def string
	for _, p := range req.Players {
		switch p.Side {
		case handicapInvader:
			inv = p.Address
		case handicapDefender:
			def = p.Address
		}
	}
	if len(req.Players) != 2 || inv == "" || def == "" {
		return nil, fmt.Errorf("handicap: name exactly two players, the invader's and the defender's (DR-HCAP-3 compares the two)")
	}
	if strings.EqualFold(inv, def) {
		return nil, fmt.Errorf("handicap: %s plays both sides; a handicap is between two players", inv)
	}
	h, err := s.Handicaps(ctx, req.Ruleset)
	if err != nil {
		return nil, err
	}
	a := &HandicapApplied{Kind: kind, Invader: strings.ToLower(inv), Defender: strings.ToLower(def)}
	if kind == HandicapPair {
		p := h.Pair(inv, def)
		a.InvaderH, a.DefenderH = p.Of(inv), p.Of(def)
		a.InvaderN, a.DefenderN = p.Games, p.Games
	} else {
		pi, pd := h.Player(inv), h.Player(def)
		a.InvaderH, a.DefenderH = pi.Handicap, pd.Handicap
		a.InvaderN, a.DefenderN = pi.Games, pd.Games
	}
	a.Adjust = GoalAdjust(a.InvaderH, a.DefenderH)
	opts := make(map[string]string, len(req.Options)+1)
	maps.Copy(opts, req.Options)
	opts["goal-adjust"] = a.Option()
	req.Options = opts
	return a, nil
}
