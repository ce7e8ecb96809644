package campaign

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage"
)

// Balance is what the potentials before a game give it (DR-CAMP-10,
// DR-CAMP-11): the VP the invader may mark destroyed when the defender's
// potential is 15 or more above his, and the VP added to the goal when his
// is 15 or more above the defender's; 1 VP per 5 points of difference,
// rounded down (18 gives 3).
func Balance(invader, defender int) (balanceVP, goalAdjust int) {
	switch d := defender - invader; {
	case d >= 15:
		return d / 5, 0
	case d <= -15:
		return 0, -d / 5
	}
	return 0, 0
}

// startGame starts game n: the child game, recruited with the potentials
// as they stand (DR-CAMP-4), its unit cap (DR-CAMP-7), its balancing
// (DR-CAMP-10, DR-CAMP-11) and the campaign's Elowyn.
func startGame(r *adjudicator.Resolution, n int) {
	st := r.State().(*State)
	inv, def := st.Invader, st.Defender
	balance, adjust := Balance(inv, def)
	key := "g" + strconv.Itoa(n)
	// The potentials stay within the point option's 1 to 500: they start
	// at 60 and a game changes each by -10 to +20.
	opts := map[string]string{
		"points":        fmt.Sprintf("%d/%d", inv, def),
		"campaign-game": strconv.Itoa(n),
		"elowyn":        map[bool]string{true: "on", false: "off"}[st.Elowyn],
	}
	if balance > 0 {
		opts["balance-vp"] = strconv.Itoa(balance)
	}
	if adjust > 0 {
		opts["goal-adjust"] = "+" + strconv.Itoa(adjust)
	}
	capUnits := dragonrage.UnitCap(n)
	child := &adjudicator.ChildGame{Key: key, Title: title(n), Ruleset: dragonrage.Ruleset.Info().Name,
		Scenario: "points-" + st.Map, Options: opts,
		Players: []adjudicator.ChildPlayer{{Side: Invader, Player: Invader}, {Side: Defender, Player: Defender}}}
	if err := adjudicator.CheckChild(child); err != nil {
		r.Fail(err)
		return
	}
	r.Emit(&GameStarted{N: n, Key: key, Options: maps.Clone(opts), Invader: inv, Defender: def, Cap: capUnits, Balance: balance, Adjust: adjust})
	r.Emit(child)
	r.Sayf("%s begins at %s (game %s): the invader recruits up to his potential of %d points and the defender up to %d, at most %d units each; the points are not spent (DR-CAMP-4, DR-CAMP-7)",
		title(n), dragonrageMap(st.Map), key, inv, def, capUnits)
	switch {
	case balance > 0:
		r.Sayf("balancing: the defender's potential is %d above the invader's, so the invader may mark VP hexes destroyed worth up to %d VP before the game, with his army (DR-CAMP-10)", def-inv, balance)
	case adjust > 0:
		r.Sayf("balancing: the invader's potential is %d above the defender's, so his VP goal rises by %d (DR-CAMP-11)", inv-def, adjust)
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		parts = append(parts, k+"="+opts[k])
	}
	r.Sayf("%s is a point game (scenario %s) with the options %s; its VP goal is DR-CAMP-9's (DR-CAMP-12)", key, child.Scenario, strings.Join(parts, " "))
}

// dragonrageMap names a map for people.
func dragonrageMap(m string) string {
	if m == "nurkott" {
		return "Nurkott"
	}
	return "Esirien"
}

// Gains is Table DR-TABLE-CAMPAIGN read as DR-AMB-28 reads it: what a game
// adds to each potential, from the potentials before it (DR-CAMP-13) and
// its winner ("" for a draw, scored as if both had lost: umpire's ruling).
// With 10 points or less between them, the winner gains 10 and the loser
// 5; with more, the weaker player gains 15 if he wins and 10 if he loses
// (or loses 10 with weakerLoses, the literal reading), the stronger 5 if
// he wins and nothing if he loses. It returns the gains and the table's
// line that gave them.
func Gains(invader, defender int, winner adjudicator.Side, weakerLoses bool) (inv, def int, why string) {
	won := func(s adjudicator.Side) bool { return winner == s }
	diff := invader - defender
	if diff < 0 {
		diff = -diff
	}
	if diff <= 10 {
		gain := func(s adjudicator.Side) int {
			if won(s) {
				return 10
			}
			return 5
		}
		return gain(Invader), gain(Defender), fmt.Sprintf("%d points apart, 10 or less: the winner +10, the loser +5", diff)
	}
	weak := Invader
	if defender < invader {
		weak = Defender
	}
	lose := 10
	if weakerLoses {
		lose = -10
	}
	gain := func(s adjudicator.Side) int {
		switch {
		case s == weak && won(s):
			return 15
		case s == weak:
			return lose
		case won(s):
			return 5
		}
		return 0
	}
	return gain(Invader), gain(Defender), fmt.Sprintf("%d points apart, more than 10: the weaker player (the %s) %+d if he wins, %+d if he loses; the stronger +5 if he wins, nothing if he loses", diff, weak, 15, lose)
}

// Kills are the Heroes and Dragons destroyed in a game and who destroyed
// them (DR-CAMP-14, DR-AMB-29): a unit of the result's view that is gone
// (eliminated: a wounded hero is not, nor Elowyn or a monster that left
// the map alive, which the view shows off-map), of type HERO or DRAGON
// (the Young Dragon is another counter), killed by the side it fought
// (umpire's ruling: a unit destroyed by its own side's deed, crushed under
// its own Dragon, still counts for the enemy). kills maps series sides.
func Kills(res *adjudicator.ChildResult) []Kill {
	var out []Kill
	for _, u := range res.View.Units {
		if !u.Gone || (u.Type != "HERO" && u.Type != "DRAGON") {
			continue
		}
		var by adjudicator.Side
		switch u.Side {
		case Invader:
			by = res.PlayerOf(Defender)
		case Defender:
			by = res.PlayerOf(Invader)
		}
		if by != "" {
			out = append(out, Kill{By: by, Unit: u.ID, Type: u.Type})
		}
	}
	return out
}

// score records the result of the game being played: the table's gains,
// +5 to each player who killed a Hero or a Dragon, the standings; then the
// next game, or the end.
func score(r *adjudicator.Resolution, res *adjudicator.ChildResult) {
	st := r.State().(*State)
	g := st.current()
	winner := res.WinnerPlayer()
	inv, def, why := Gains(g.Invader, g.Defender, winner, st.WeakerLoses)
	kills := Kills(res)
	vp := res.View.Score[Invader]
	switch winner {
	case "":
		r.Sayf("%s (game %s) ends without a winner: %s; umpire scores a draw as a loss for both (DR-CAMP-13)", title(g.N), res.Game, res.Result)
	default:
		r.Sayf("%s (game %s): the %s wins: %s", title(g.N), res.Game, winner, res.Result)
	}
	r.Sayf("potentials before the game: the invader %d, the defender %d; %s (DR-CAMP-13, Table DR-TABLE-CAMPAIGN, DR-AMB-28): the invader %+d, the defender %+d", g.Invader, g.Defender, why, inv, def)
	for _, side := range sides {
		var what []string
		for _, k := range kills {
			if k.By == side {
				what = append(what, k.Unit)
			}
		}
		if len(what) == 0 {
			continue
		}
		r.Sayf("the %s killed %s: +5 (DR-CAMP-14, once per game, DR-AMB-29)", side, strings.Join(what, ", "))
		if side == Invader {
			inv += 5
		} else {
			def += 5
		}
	}
	r.Emit(&GameScored{N: g.N, Child: res.Game, Winner: winner, Result: res.Result, VP: vp, Kills: kills, InvaderGain: inv, DefenderGain: def})
	r.Sayf("potentials after %s: the invader %d (%+d), the defender %d (%+d)", title(g.N), st.Invader, inv, st.Defender, def)
	switch {
	case g.N < Games:
		startGame(r, g.N+1)
	case st.Invader != st.Defender:
		w := Invader
		if st.Defender > st.Invader {
			w = Defender
		}
		end(r, w, fmt.Sprintf("the %s wins the campaign with a potential of %d against %d after %s (DR-CAMP-15)", w, st.potential(w), st.potential(other(w)), plural(g.N, "game", "games")))
	case g.N == Games:
		r.Sayf("the potentials are tied at %d after %d games: a sixth game decides (DR-CAMP-15)", st.Invader, Games)
		startGame(r, g.N+1)
	case winner != "":
		end(r, winner, fmt.Sprintf("the %s wins the campaign: the potentials are tied at %d after the sixth game, which he won (DR-CAMP-15; umpire's ruling)", winner, st.Invader))
	default:
		end(r, "", fmt.Sprintf("the campaign is drawn: the potentials are tied at %d after the sixth game, itself drawn (DR-CAMP-15: play a second campaign to decide)", st.Invader))
	}
}

func end(r *adjudicator.Resolution, winner adjudicator.Side, result string) {
	r.Emit(&Ended{Winner: winner, Result: result})
	r.Sayf("CAMPAIGN OVER: %s", result)
}

func other(s adjudicator.Side) adjudicator.Side {
	if s == Invader {
		return Defender
	}
	return Invader
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
