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

// Handicaps (for the rulesets that keep them: adjudicator.Handicapper) are not kept as state: they are derived, each time
// they are asked for, from the finished games of the store
// (docs/architecture.md, "Series"; docs/series.md). Rulings:
//
//   - Handicaps are kept per ruleset: only the games of one ruleset count
//     (by default, those of every ruleset that keeps handicaps: today one).
//     A win at another game says nothing of a player of this one.
//   - Every finished game of that ruleset between two players counts,
//     whatever its scenario (fixed, point or weighted, a campaign's game):
//     "each game won" makes no exception. A series itself (a campaign, a
//     tournament) is not a game between two players and never counts.
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

// The two ways of keeping handicaps.
const (
	HandicapPair     = "pair"     // against each opponent: the games between the two players only
	HandicapCombined = "combined" // the sum over every opponent
)

// HandicapWarnAt is the handicap from which a player is said to keep
// playing weaker opponents.
const HandicapWarnAt = 10

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
// game lost. 0 for an address that is neither.
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
// handicaps against every opponent.
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
// ruleset between two players ("": the games of every ruleset that keeps
// handicaps). It loads each game once (the service's cache, else its log
// folded): linear in the number of games and their events.
func (s *Service) Handicaps(ctx context.Context, ruleset string) (*Handicaps, error) {
	if ruleset != "" {
		rs, ok := s.Rules(ruleset)
		if !ok {
			return nil, fmt.Errorf("no ruleset %q in this build (umpire rulesets lists them)", ruleset)
		}
		if _, ok := rs.(adjudicator.Handicapper); !ok {
			return nil, fmt.Errorf("ruleset %s keeps no handicaps", ruleset)
		}
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
		if _, keeps := g.Rules.(adjudicator.Handicapper); !keeps || (ruleset != "" && g.Created.Ruleset != ruleset) {
			continue
		}
		if h.Ruleset == "" {
			h.Ruleset = g.Created.Ruleset
		} else if ruleset == "" && h.Ruleset != g.Created.Ruleset && !strings.Contains(h.Ruleset, " ") {
			h.Ruleset += " and other"
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

// Warnings are the handicaps of HandicapWarnAt or more, per pair and
// combined; of the players in only when only is not empty.
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
// t.Combined), combined, the warnings and the games left out.
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
	what := h.Ruleset
	if what == "" {
		what = "handicap-keeping"
	}
	fmt.Fprintf(w, "Handicaps (a game won +1, a game lost -1, a draw 0) from %s finished %s game%s",
		count(h.Games), what, plural(h.Games))
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
	fmt.Fprintln(w, "\nCombined (the sum over every opponent):")
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
			note = "the best player of the group"
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
		fmt.Fprintf(w, "\nA handicap of %d or more means the player keeps playing weaker opponents:\n", HandicapWarnAt)
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

// HandicapApplied is the handicap a new game was given: whose, and what
// its ruleset made of it.
type HandicapApplied struct {
	Kind    string       // HandicapPair or HandicapCombined
	Players []HandicapOf // in the order of the request
	Words   string       // what the ruleset made of them
	Set     []string     // the options the handicap set, "goal-adjust=+2"
}

// HandicapOf is one player's handicap as a new game takes it.
type HandicapOf struct {
	Side     adjudicator.Side
	Address  string
	Handicap int
	Games    int // the games it counts
}

// Refused is err, the refusal of the game given the handicap, saying that
// the handicap set options; err itself when a is nil (no handicap).
func (a *HandicapApplied) Refused(err error) error {
	if a == nil || err == nil {
		return err
	}
	return fmt.Errorf("the handicap (%s) set %s, and the game refuses it: %w", a.Kind, strings.Join(a.Set, ", "), err)
}

// Text says the handicap and why, for the referee and the players ("" when
// a is nil, no handicap): "Handicap (combined): the invader
// alice@example.org +3 over 5 games, the defender bob@example.org -1 over
// 3 games; " and the ruleset's words.
func (a *HandicapApplied) Text() string {
	if a == nil {
		return ""
	}
	var who []string
	for _, p := range a.Players {
		w := fmt.Sprintf("the %s %s %+d", p.Side, p.Address, p.Handicap)
		if a.Kind == HandicapCombined {
			w += fmt.Sprintf(" over %s game%s", count(p.Games), plural(p.Games))
		}
		who = append(who, w)
	}
	list := strings.Join(who, ", ")
	if a.Kind == HandicapPair && len(a.Players) > 0 {
		n := a.Players[0].Games
		list = strings.Join(who, " and ") + fmt.Sprintf(" over %s game%s between them", count(n), plural(n))
	}
	return fmt.Sprintf("Handicap (%s): %s; %s.", a.Kind, list, a.Words)
}

// ApplyHandicap gives the game req would create its two players'
// handicaps, pair or combined, from the stored games of its ruleset: the
// ruleset (adjudicator.Handicapper) turns them into options, set in a copy
// of req.Options. It refuses a ruleset that keeps no handicaps, players
// other than two with two addresses, and what the ruleset refuses.
func (s *Service) ApplyHandicap(ctx context.Context, req *CreateRequest, kind string) (*HandicapApplied, error) {
	if kind != HandicapPair && kind != HandicapCombined {
		return nil, fmt.Errorf("handicap %q: write pair (the two players' record against each other) or combined (each one's record against everybody)", kind)
	}
	rs, ok := s.Rules(req.Ruleset)
	if !ok {
		return nil, fmt.Errorf("no ruleset %q in this build (umpire rulesets lists them)", req.Ruleset)
	}
	hc, ok := rs.(adjudicator.Handicapper)
	if !ok {
		return nil, fmt.Errorf("handicap: ruleset %s keeps no handicaps", req.Ruleset)
	}
	if len(req.Players) != 2 {
		return nil, fmt.Errorf("handicap: name exactly two players (a handicap compares the two)")
	}
	a0, a1 := req.Players[0].Address, req.Players[1].Address
	if strings.EqualFold(a0, a1) {
		return nil, fmt.Errorf("handicap: %s plays both sides; a handicap is between two players", a0)
	}
	h, err := s.Handicaps(ctx, req.Ruleset)
	if err != nil {
		return nil, err
	}
	a := &HandicapApplied{Kind: kind}
	by := map[adjudicator.Side]int{}
	for _, p := range req.Players {
		o := HandicapOf{Side: p.Side, Address: strings.ToLower(p.Address)}
		if kind == HandicapPair {
			pair := h.Pair(a0, a1)
			o.Handicap, o.Games = pair.Of(p.Address), pair.Games
		} else {
			pl := h.Player(p.Address)
			o.Handicap, o.Games = pl.Handicap, pl.Games
		}
		by[p.Side] = o.Handicap
		a.Players = append(a.Players, o)
	}
	opts, words, err := hc.Handicap(by, req.Options)
	if err != nil {
		return nil, fmt.Errorf("handicap: %w", err)
	}
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		if v, had := req.Options[k]; !had || v != opts[k] {
			a.Set = append(a.Set, k+"="+opts[k])
		}
	}
	a.Words = words
	req.Options = opts
	return a, nil
}
