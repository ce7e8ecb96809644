package tournament

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
)

// decider makes one adjudication of a tournament.
type decider struct {
	r *adjudicator.Resolution
}

func (d *decider) st() *State { return d.r.State().(*State) }

// result scores one game (DR-TOUR-3, DR-TOUR-4), then decides its match
// and pairs the next round when they are complete.
func (d *decider) result(res *adjudicator.ChildResult) {
	st := d.st()
	m, g := st.game(res.Key)
	inv, def := res.PlayerOf(dragonrage.Invader), res.PlayerOf(dragonrage.Defender)
	vp := min(res.View.Score[dragonrage.Invader], st.TotalVP)
	ev := &Scored{Key: g.Key, Winner: res.WinnerPlayer(), Invader: inv, Defender: def,
		InvaderRes: vp, DefenderRes: st.TotalVP - vp, Result: res.Result}
	d.r.Emit(ev)
	outcome := "drawn"
	switch ev.Winner {
	case inv:
		outcome = fmt.Sprintf("won by %s, the invader", inv)
	case def:
		outcome = fmt.Sprintf("won by %s, the defender", def)
	}
	assumed := ""
	if st.Assumed {
		assumed = ", assumed"
	}
	d.r.Sayf("Game %s (%s, %s invading %s): %s (%s). %d VP destroyed of the %d on the map%s: resistance %s +%d, %s +%d (DR-TOUR-3, DR-TOUR-4).",
		g.Key, st.Scenario, inv, def, outcome, res.Result, vp, st.TotalVP, assumed, inv, ev.InvaderRes, def, ev.DefenderRes)
	st = d.st()
	m, _ = st.game(res.Key)
	if m.done() && m.Bracket != BracketSwiss {
		d.decideMatch(m)
	}
	st = d.st()
	if st.roundDone() {
		d.nextRound()
	}
	st = d.st()
	if !st.Over {
		d.standings("Standings after game " + g.Key + ":")
	}
}

// standings reports the standings to everyone.
func (d *decider) standings(title string) {
	d.r.Sayf("%s", title)
	for _, l := range standingLines(d.st()) {
		d.r.Sayf("  %s", l)
	}
}

// decideMatch ends an elimination match (DR-TOUR-6): the player with more
// games won goes through; a tie sends both through, except when they are
// the last two players, or when the round before eliminated nobody (every
// match tied: without this an elimination could go on for ever), when the
// resistance points of the whole tournament decide (FR §5.1: resistance
// breaks ties); if those are equal too, both go through and meet again.
func (d *decider) decideMatch(m *Match) {
	st := d.st()
	a, b := m.wins()
	ev := &Decided{Match: m.Key}
	pa, pb := st.player(m.A), st.player(m.B)
	switch {
	case a > b:
		ev.Winner, ev.Loser = m.A, m.B
		ev.Line = fmt.Sprintf("Match %s: %s beats %s %d-%d", m.Key, m.A, m.B, a, b)
	case b > a:
		ev.Winner, ev.Loser = m.B, m.A
		ev.Line = fmt.Sprintf("Match %s: %s beats %s %d-%d", m.Key, m.B, m.A, b, a)
	case (len(st.in()) == 2 || st.TieBreak) && pa.Resistance != pb.Resistance:
		ev.Winner, ev.Loser = m.A, m.B
		if pb.Resistance > pa.Resistance {
			ev.Winner, ev.Loser = m.B, m.A
		}
		why := "they are the last two players"
		if len(st.in()) != 2 {
			why = "the round before eliminated nobody (umpire's ruling)"
		}
		ev.Line = fmt.Sprintf("Match %s: %s and %s tie %d-%d; %s, so resistance decides: %s %d, %s %d (FR §5.1)",
			m.Key, m.A, m.B, a, b, why, m.A, pa.Resistance, m.B, pb.Resistance)
	default:
		ev.Line = fmt.Sprintf("Match %s: %s and %s tie %d-%d: both go through (DR-TOUR-6)", m.Key, m.A, m.B, a, b)
		if len(st.in()) == 2 {
			ev.Line += "; the last two players have equal resistance, so they meet again"
		}
	}
	if ev.Loser != "" {
		lost := st.player(ev.Loser).Losses + 1
		if st.Format != Double || lost >= 2 {
			ev.Out = []adjudicator.Side{ev.Loser}
			ev.Line += fmt.Sprintf("; %s is out", ev.Loser)
		} else {
			ev.Line += fmt.Sprintf("; %s goes to the losers' bracket", ev.Loser)
		}
	}
	d.r.Emit(ev)
	d.r.Sayf("%s.", ev.Line)
}

// nextRound starts the next round, or ends the tournament.
func (d *decider) nextRound() {
	st := d.st()
	switch {
	case st.Stage == StageSwiss && st.Round < st.Rounds:
		d.swissRound(st.Round + 1)
	case st.Stage == StageSwiss && st.Format == SwissTop8:
		d.seedTop8()
		d.elimRound(st.Round + 1)
	case st.Stage == StageSwiss:
		d.endSwiss("")
	case st.Round == 0:
		d.firstElimRound()
	case len(st.in()) == 1:
		d.endElimination()
	default:
		d.elimRound(st.Round + 1)
	}
}

// draw shuffles players with dice: the players not yet drawn are listed
// in the order given, and a die with as many faces as there are names
// picks the next one, until one is left. The draw is the round's order.
func (d *decider) draw(what string, players []adjudicator.Side) []adjudicator.Side {
	rem := slices.Clone(players)
	var out []adjudicator.Side
	for len(rem) > 1 {
		roll := d.r.Roll(fmt.Sprintf("%s, lot %d", what, len(out)+1), 1, len(rem))
		i := roll.Total - 1
		roll.Outcome = fmt.Sprintf("%s, of %s", rem[i], joinSides(rem, " "))
		out = append(out, rem[i])
		rem = slices.Delete(rem, i, i+1)
	}
	return append(out, rem...)
}

// scenario is the round's scenario: drawn with 1d6 (DR-DICE-24), or the
// fixed one (DR-TOUR-8, DR-TOUR-9).
func (d *decider) scenario(round int) string {
	st := d.st()
	n := st.Fixed
	how := "as every round (option scenario)"
	if st.Draw {
		roll := d.r.Roll(fmt.Sprintf("round %d scenario", round), 1, 6)
		n = roll.Total
		roll.Outcome = fmt.Sprintf("scenario %d, %s", n, st.Scenarios[n-1])
		how = fmt.Sprintf("drawn with 1d6=%d", n)
	}
	id := st.Scenarios[n-1]
	rule := "DR-TOUR-8"
	if st.Map == "nurkott" {
		rule = "DR-TOUR-9"
	}
	d.r.Sayf("Round %d is played on %s, scenario %d: %s (%s, %s, DR-TOUR-5).", round, st.Map, n, dragonrage.ScenarioTitle(id), how, rule)
	return id
}

// entrants are the players as the Swiss pairing sees them, in draw order.
func (d *decider) entrants(draw []adjudicator.Side) []entrant {
	st := d.st()
	var es []entrant
	for i, s := range draw {
		p := st.player(s)
		es = append(es, entrant{Side: s, Points: p.Points, Resistance: p.Resistance, Floated: p.Floated, Byes: p.Byes,
			Met: slices.Clone(p.Met), pos: i})
	}
	return es
}

// swissRound pairs a Swiss round (DR-TOUR-7).
func (d *decider) swissRound(round int) {
	st := d.st()
	var all []adjudicator.Side
	for _, p := range st.Players {
		all = append(all, p.Side)
	}
	draw := d.draw(fmt.Sprintf("round %d draw", round), all)
	d.r.Sayf("Round %d draw: %s.", round, joinSides(draw, ", "))
	p, ok := pairSwiss(d.entrants(draw))
	if !ok && st.Format == SwissTop8 {
		// The Swiss stage ends early; the top 8 is still to be played.
		d.r.Sayf("Round %d cannot be paired without a rematch (DR-TOUR-7), so the Swiss rounds end after round %d and the top 8 begins.", round, round-1)
		d.seedTop8()
		d.elimRound(round)
		return
	}
	if !ok {
		d.endSwiss(fmt.Sprintf("round %d cannot be paired without a rematch (DR-TOUR-7), so the tournament ends after round %d", round, round-1))
		return
	}
	ev := &Paired{Round: round, Stage: StageSwiss, Floats: p.Floats}
	for i, pr := range p.Pairs {
		ev.Matches = append(ev.Matches, Pair{Key: fmt.Sprintf("r%d-m%d", round, i+1), A: pr[0], B: pr[1], Bracket: BracketSwiss})
	}
	if p.Bye != "" {
		ev.Byes = []Bye{{Player: p.Bye, Points: 2}}
	}
	ev.Scenario = d.scenario(round)
	d.emitRound(ev)
	for _, f := range p.Floats {
		d.r.Sayf("%s is paired with a player with fewer points (FR §5.2).", f)
	}
}

// emitRound emits a round's pairing and its games.
func (d *decider) emitRound(ev *Paired) {
	d.r.Emit(ev)
	st := d.st()
	for _, m := range ev.Matches {
		what := "match"
		if m.Bracket != BracketSwiss {
			what = m.Bracket + " match"
		}
		d.r.Sayf("Round %d, %s %s: %s v %s (%s invades in %s-a, %s in %s-b).", ev.Round, what, m.Key, m.A, m.B, m.A, m.Key, m.B, m.Key)
		for _, g := range []struct {
			suffix   string
			inv, def adjudicator.Side
		}{{"a", m.A, m.B}, {"b", m.B, m.A}} {
			c := &adjudicator.ChildGame{Key: m.Key + "-" + g.suffix, Ruleset: dragonrage.Ruleset.Info().Name, Scenario: ev.Scenario,
				Title:   fmt.Sprintf("round %d, match %s, game %s: %s invades, %s defends", ev.Round, m.Key, g.suffix, g.inv, g.def),
				Options: cloneMap(st.Child),
				Players: []adjudicator.ChildPlayer{{Side: dragonrage.Invader, Player: g.inv}, {Side: dragonrage.Defender, Player: g.def}}}
			if err := adjudicator.CheckChild(c); err != nil {
				d.r.Fail(err)
				return
			}
			d.r.Emit(c)
		}
	}
	for _, b := range ev.Byes {
		if b.Points > 0 {
			d.r.Sayf("Round %d: %s has the bye, worth %d points as two games won (DR-TOUR-7).", ev.Round, b.Player, b.Points)
		} else {
			d.r.Sayf("Round %d: %s has the bye and goes through without playing (DR-TOUR-6).", ev.Round, b.Player)
		}
	}
	for _, w := range ev.Waiting {
		bracket := "winners'"
		if st.player(w).Losses > 0 {
			bracket = "losers'"
		}
		d.r.Sayf("Round %d: %s is alone in the %s bracket and waits.", ev.Round, w, bracket)
	}
}

func cloneMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// firstElimRound draws round 1 of an elimination: the players in the
// order drawn, paired first with second, third with fourth...; with an
// odd count the last drawn has the bye (DR-TOUR-6).
func (d *decider) firstElimRound() {
	st := d.st()
	var all []adjudicator.Side
	for _, p := range st.Players {
		all = append(all, p.Side)
	}
	draw := d.draw("round 1 draw", all)
	d.r.Sayf("Round 1 draw: %s.", joinSides(draw, ", "))
	bracket := BracketMain
	if st.Format == Double {
		bracket = BracketWinners
	}
	ev := &Paired{Round: 1, Stage: StageElimination, Order: draw}
	rest := draw
	if len(draw)%2 == 1 {
		ev.Byes = []Bye{{Player: draw[len(draw)-1]}}
		rest = draw[:len(draw)-1]
	}
	for i := 0; i+1 < len(rest); i += 2 {
		ev.Matches = append(ev.Matches, Pair{Key: fmt.Sprintf("r1-m%d", i/2+1), A: rest[i], B: rest[i+1], Bracket: bracket})
	}
	ev.Scenario = d.scenario(1)
	d.emitRound(ev)
}

// elimRound pairs a later elimination round.
func (d *decider) elimRound(round int) {
	st := d.st()
	tied := map[[2]adjudicator.Side]bool{}
	for _, m := range st.Matches {
		if m.Decided && m.Winner == "" {
			tied[[2]adjudicator.Side{m.A, m.B}] = true
			tied[[2]adjudicator.Side{m.B, m.A}] = true
		}
	}
	isTied := func(a, b adjudicator.Side) bool { return tied[[2]adjudicator.Side{a, b}] }
	stillIn := func(order []adjudicator.Side, losses int) []adjudicator.Side {
		var out []adjudicator.Side
		for _, s := range order {
			if p := st.player(s); p.Out == 0 && (losses < 0 || p.Losses == losses) && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		return out
	}
	ev := &Paired{Round: round, Stage: StageElimination}
	// A round that eliminated nobody (every match tied) makes this one's
	// ties go to resistance, so that an elimination ends.
	if st.Stage == StageElimination && len(st.Matches) > 0 {
		ev.TieBreak = true
		for _, m := range st.Matches {
			if m.Winner != "" {
				ev.TieBreak = false
			}
		}
	}
	var n int
	add := func(pairs [][2]adjudicator.Side, bracket string) {
		for _, p := range pairs {
			n++
			ev.Matches = append(ev.Matches, Pair{Key: fmt.Sprintf("r%d-m%d", round, n), A: p[0], B: p[1], Bracket: bracket})
		}
	}
	if st.Format == Double {
		w := stillIn(st.Order, 0)
		l := stillIn(append(slices.Clone(st.LOrder), st.Order...), 1)
		ev.Order, ev.LOrder = w, l
		if len(w) == 1 && len(l) == 1 {
			add([][2]adjudicator.Side{{w[0], l[0]}}, BracketFinal)
		} else {
			for _, b := range []struct {
				order []adjudicator.Side
				name  string
			}{{w, BracketWinners}, {l, BracketLosers}} {
				if len(b.order) == 1 {
					ev.Waiting = append(ev.Waiting, b.order[0])
					continue
				}
				pairs, bye := d.bracket(round, b.order, b.name, isTied)
				add(pairs, b.name)
				if bye != "" {
					ev.Byes = append(ev.Byes, Bye{Player: bye})
				}
			}
		}
	} else {
		bracket := BracketMain
		if st.Format == SwissTop8 {
			bracket = BracketTop8
		}
		order := stillIn(st.Order, -1)
		ev.Order = order
		pairs, bye := d.bracket(round, order, bracket, isTied)
		add(pairs, bracket)
		if bye != "" {
			ev.Byes = []Bye{{Player: bye}}
		}
	}
	ev.Scenario = d.scenario(round)
	d.emitRound(ev)
}

// bracket pairs one bracket of a later elimination round: with an odd
// count, the bye goes to a player drawn with a die among those who have
// not had one yet (all of them, if every one has), listed in bracket
// order (DR-TOUR-6); then pairBracket.
func (d *decider) bracket(round int, order []adjudicator.Side, name string, tied func(a, b adjudicator.Side) bool) ([][2]adjudicator.Side, adjudicator.Side) {
	st := d.st()
	var bye adjudicator.Side
	rest := order
	if len(order)%2 == 1 {
		var cands []adjudicator.Side
		for _, s := range order {
			if st.player(s).Byes == 0 {
				cands = append(cands, s)
			}
		}
		if len(cands) == 0 {
			cands = order
		}
		bye = cands[0]
		if len(cands) > 1 {
			roll := d.r.Roll(fmt.Sprintf("round %d bye, %s bracket", round, name), 1, len(cands))
			bye = cands[roll.Total-1]
			roll.Outcome = fmt.Sprintf("%s, of %s", bye, joinSides(cands, " "))
		}
		rest = slices.DeleteFunc(slices.Clone(order), func(s adjudicator.Side) bool { return s == bye })
	}
	pairs, _ := pairBracket(rest, tied)
	return pairs, bye
}

// seedTop8 ends the Swiss rounds of swiss-top8: the first eight of the
// standings go on, seeded in that order; players equal on points and
// resistance are ordered by a draw where it matters.
func (d *decider) seedTop8() {
	st := d.st()
	ranked := d.breakTies(swissOrder(st), 8, "top 8")
	ev := &Seeded{}
	for i, p := range ranked {
		if i < 8 {
			ev.Seeds = append(ev.Seeds, p.Side)
		} else {
			ev.Out = append(ev.Out, p.Side)
		}
	}
	for _, s := range seedOrder {
		ev.Order = append(ev.Order, ev.Seeds[s-1])
	}
	d.r.Emit(ev)
	var seeds []string
	for i, s := range ev.Seeds {
		seeds = append(seeds, fmt.Sprintf("%d. %s", i+1, s))
	}
	d.r.Sayf("The Swiss rounds are over: the top 8 play a single elimination, seeded %s; 1 meets 8, 4 meets 5, 2 meets 7 and 3 meets 6.", strings.Join(seeds, ", "))
}

// breakTies orders by a draw the players equal on points and resistance
// among the first upto of ranked.
func (d *decider) breakTies(ranked []*Player, upto int, what string) []*Player {
	out := slices.Clone(ranked)
	for i := 0; i < len(out) && i < upto; {
		j := i + 1
		for j < len(out) && out[j].Points == out[i].Points && out[j].Resistance == out[i].Resistance {
			j++
		}
		if j-i > 1 {
			var names []adjudicator.Side
			for _, p := range out[i:j] {
				names = append(names, p.Side)
			}
			drawn := d.draw(fmt.Sprintf("%s: tie on points and resistance for place %d", what, i+1), names)
			d.r.Sayf("%s are equal on points (%d) and resistance (%d): drawn in the order %s.", joinSides(names, ", "), out[i].Points, out[i].Resistance, joinSides(drawn, ", "))
			st := d.st()
			for k, s := range drawn {
				out[i+k] = st.player(s)
			}
		}
		i = j
	}
	return out
}

// endSwiss ends a Swiss tournament: the first of the standings wins.
func (d *decider) endSwiss(why string) {
	st := d.st()
	ranked := d.breakTies(swissOrder(st), 1, "first place")
	w := ranked[0]
	res := fmt.Sprintf("%s wins the tournament with %d points and %d resistance points after %d Swiss rounds", w.Side, w.Points, w.Resistance, st.Round)
	if why != "" {
		res = why + "; " + res
	}
	d.end(w.Side, res)
}

func (d *decider) endElimination() {
	st := d.st()
	w := st.in()[0]
	name := map[string]string{Single: "single elimination", Double: "double elimination", SwissTop8: "Swiss rounds and a top-8 single elimination"}[st.Format]
	d.end(w, fmt.Sprintf("%s wins the tournament (%s, %d rounds)", w, name, st.Round))
}

func (d *decider) end(w adjudicator.Side, res string) {
	d.r.Emit(&Ended{Winner: w, Result: res})
	d.r.Sayf("%s.", res)
	d.standings("Final standings:")
}

func joinSides(ss []adjudicator.Side, sep string) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = string(s)
	}
	return strings.Join(parts, sep)
}
