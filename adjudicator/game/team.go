package game

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Teams. A side may have several players, listed in game.created one
// after the other with the same side; the first listed is the side's
// captain. Each has his own address and his own secret: the captain's
// seat is the side's name, as for a side of one player, and the second,
// third… player's is "SIDE/2", "SIDE/3"… (given when the log is folded,
// never written in game.created), under which the data file keeps the
// check value of his secret. Everyone on a side gets the side's view and
// mails; who may answer the side's requests is the game option
// team.orders:
//
//	captain  the captain answers; a teammate's orders are refused, and he
//	         is told who the captain is (the default)
//	any      any player of the side answers; the first answer accepted
//	         is the side's, exactly as a lone player's (a second one is
//	         refused unless it says "replace: true")
//	split    each player answers for the parts of the side he holds
//	         (Player.Parts), for a ruleset that implements
//	         adjudicator.Splitter; the side's request is answered when
//	         every part it needs has answered
//
// A submission that names no sender (Input.From "": the command line, the
// clock's default answer, a script) speaks for the whole side: with split
// orders it answers for every part not answered yet.

// TeamOption is the game option that says who answers a team's requests.
const TeamOption = "team.orders"

// The values of TeamOption.
const (
	TeamCaptain = "captain"
	TeamAny     = "any"
	TeamSplit   = "split"
)

// CodeNotYours is the error code of orders from a player of the side who
// may not give them: a teammate of the captain, or a player commanding a
// part he does not hold.
const CodeNotYours = "not-your-part"

// TeamOrders is the game's team.orders: captain, any or split.
func (g *Game) TeamOrders() string { return teamOrders(g.Created.Clock) }

func teamOrders(opts map[string]string) string {
	if v := strings.TrimSpace(opts[TeamOption]); v != "" {
		return v
	}
	return TeamCaptain
}

func checkTeamOption(v string) error {
	switch strings.TrimSpace(v) {
	case TeamCaptain, TeamAny, TeamSplit:
		return nil
	}
	return fmt.Errorf("option %s=%q: give captain (the side's first player answers for it), any (any of its players) or split (each player for his parts of the side)", TeamOption, v)
}

// SeatName is the name under which the data file keeps the check value of
// p's secret: the side he was named for, with "/N" for a side's Nth player.
func (p Player) SeatName() adjudicator.Side { return p.seat() }

// withSeats gives the second, third… player of each side his seat
// ("SIDE/2"…): how a fold reads game.created.
func withSeats(players []Player) []Player {
	n := map[adjudicator.Side]int{}
	var out []Player
	for i, p := range players {
		n[p.Side]++
		if n[p.Side] == 1 {
			continue
		}
		if out == nil {
			out = slices.Clone(players)
		}
		out[i].Seat = adjudicator.Side(string(p.Side) + "/" + strconv.Itoa(n[p.Side]))
	}
	if out == nil {
		return players
	}
	return out
}

// Team lists the players of side, captain first.
func (g *Game) Team(side adjudicator.Side) []Player {
	var out []Player
	for _, p := range g.Created.Players {
		if p.Side == side {
			out = append(out, p)
		}
	}
	return out
}

// Member returns the player of side whose address is addr (compared
// without case), and whether he is the side's captain.
func (g *Game) Member(side adjudicator.Side, addr string) (p Player, captain, ok bool) {
	for i, q := range g.Team(side) {
		if sameAddress(q.Address, addr) {
			return q, i == 0, true
		}
	}
	return Player{}, false, false
}

// PlayerAt returns the player who holds seat.
func (g *Game) PlayerAt(seat adjudicator.Side) (Player, bool) {
	for _, p := range g.Created.Players {
		if p.seat() == seat {
			return p, true
		}
	}
	return Player{}, false
}

// checkTeams checks the players of a new game against its sides and,
// with split orders, their parts against the ruleset's (st is the state
// after Setup).
func checkTeams(rs adjudicator.Ruleset, st adjudicator.State, players []Player, mode string) error {
	name := rs.Info().Name
	sp, canSplit := rs.(adjudicator.Splitter)
	if mode == TeamSplit && !canSplit {
		return fmt.Errorf("option %s=split: %s cannot split a side's orders between its players; use captain or any", TeamOption, name)
	}
	for _, side := range sidesOf(players) {
		var team []Player
		for _, p := range players {
			if p.Side == side {
				team = append(team, p)
			}
		}
		for i, p := range team {
			if len(team) > 1 && strings.TrimSpace(p.Address) == "" {
				return fmt.Errorf("side %s has %d players: give each of them his address", side, len(team))
			}
			for _, q := range team[:i] {
				if sameAddress(p.Address, q.Address) {
					return fmt.Errorf("side %s: %s is given twice", side, p.Address)
				}
			}
		}
		if mode != TeamSplit {
			for _, p := range team {
				if len(p.Parts) > 0 {
					return fmt.Errorf("the player %s of %s is given parts (%s), but the side's orders are not split: add the option %s=split, or drop the parts", p.Address, side, strings.Join(p.Parts, ","), TeamOption)
				}
			}
			continue
		}
		parts := sp.Parts(st, side)
		holder := map[string]string{}
		for i, p := range team {
			if len(p.Parts) == 0 && i > 0 {
				return fmt.Errorf("side %s: give the player %s his parts of the side, as %s=%s:PART,PART (the parts of %s: %s)", side, p.Address, side, p.Address, side, strings.Join(parts, ", "))
			}
			for _, part := range p.Parts {
				if !slices.Contains(parts, part) {
					return fmt.Errorf("side %s has no part %q; its parts are %s", side, part, strings.Join(parts, ", "))
				}
				if h, ok := holder[part]; ok {
					return fmt.Errorf("side %s: part %s is given to %s and to %s; give each part to one player", side, part, h, p.Address)
				}
				holder[part] = p.Address
			}
		}
	}
	return nil
}

// sidesOf lists the sides of players, each once, in the order they first
// appear.
func sidesOf(players []Player) []adjudicator.Side {
	out := make([]adjudicator.Side, 0, len(players))
	for _, p := range players {
		if !slices.Contains(out, p.Side) {
			out = append(out, p.Side)
		}
	}
	return out
}

// splitter returns the ruleset's Splitter when the game splits its sides'
// orders.
func (g *Game) splitter() (adjudicator.Splitter, bool) {
	if g.TeamOrders() != TeamSplit {
		return nil, false
	}
	sp, ok := g.Rules.(adjudicator.Splitter)
	return sp, ok
}

// PartsOf returns the parts of side that p commands: those given to him,
// and for the captain also every part given to nobody.
func (g *Game) PartsOf(p Player) []string {
	sp, ok := g.splitter()
	if !ok {
		return nil
	}
	team := g.Team(p.Side)
	if len(team) == 0 || team[0].seat() != p.seat() {
		return p.Parts
	}
	held := map[string]bool{}
	for _, q := range team[1:] {
		for _, part := range q.Parts {
			held[part] = true
		}
	}
	var out []string
	for _, part := range sp.Parts(g.State, p.Side) {
		if !held[part] {
			out = append(out, part)
		}
	}
	return out
}

// holderOf returns the player of side who commands part.
func (g *Game) holderOf(side adjudicator.Side, part string) (Player, bool) {
	for _, p := range g.Team(side) {
		if slices.Contains(g.PartsOf(p), part) {
			return p, true
		}
	}
	return Player{}, false
}

// needs returns the parts that must answer req, when its side's orders
// are split (nil when the request is answered whole).
func (g *Game) needs(req adjudicator.Request) []string {
	sp, ok := g.splitter()
	if !ok || req.Side == adjudicator.SeriesSide {
		return nil
	}
	return sp.Needs(g.State, req)
}

// covered lists the parts of request id the pending answers answer for.
func (g *Game) covered(id string) []string {
	var out []string
	for _, p := range g.Pending {
		if p.Request == id {
			out = append(out, p.Parts...)
		}
	}
	return out
}

// Missing lists the parts of a split request that have not answered yet,
// each with the player who holds it (nil for a request answered whole).
func (g *Game) Missing(req adjudicator.Request) []string {
	needs := g.needs(req)
	if len(needs) == 0 {
		return nil
	}
	have := g.covered(req.ID)
	var out []string
	for _, part := range needs {
		if !slices.Contains(have, part) {
			out = append(out, part)
		}
	}
	return out
}

// Waiting lists the players of side from whom request req still wants
// an answer: the captain (or, with team.orders=any, the whole team) until
// it is answered, and with split orders the holders of the parts not
// answered yet. It is whom reminders go to.
func (g *Game) Waiting(req adjudicator.Request) []Player {
	if _, answered := g.Answered(req.ID); answered {
		return nil
	}
	team := g.Team(req.Side)
	if len(g.needs(req)) == 0 {
		return team
	}
	var out []Player
	for _, part := range g.Missing(req) {
		if p, ok := g.holderOf(req.Side, part); ok && !slices.ContainsFunc(out, func(q Player) bool { return q.seat() == p.seat() }) {
			out = append(out, p)
		}
	}
	return out
}

// teamAnswer is who a submission speaks for, once the team rules allow it:
// the sender's address when the side has several players, and the parts
// his answer covers with split orders.
type teamAnswer struct {
	by    string
	parts []string
}

// teamCheck applies the team rules to a submission from in.From for side.
// It is asked before the orders are parsed (the parts they command are
// checked by checkCommands).
func (g *Game) teamCheck(in Input, side adjudicator.Side, req adjudicator.Request) (teamAnswer, error) {
	team := g.Team(side)
	var ta teamAnswer
	if side == adjudicator.SeriesSide || len(team) == 0 {
		return ta, nil
	}
	needs := g.needs(req)
	if in.From == "" {
		// The side as a whole: every part not answered yet.
		ta.parts = g.Missing(req)
		return ta, nil
	}
	p, captain, ok := g.Member(side, in.From)
	if !ok {
		return ta, adjudicator.Rejection(adjudicator.CodeUnknownSide, "%s does not play %s in game %s", in.From, side, g.ID)
	}
	if len(team) > 1 {
		ta.by = p.Address
	}
	switch {
	case g.TeamOrders() == TeamAny || len(team) == 1:
		return ta, nil
	case len(needs) == 0:
		if !captain {
			return ta, adjudicator.Rejection(CodeNotYours,
				"in game %s the orders of %s for %s come from its captain, %s: send yours to him, he answers for the side. Nothing was changed",
				g.ID, side, req.Title, team[0].Address)
		}
		return ta, nil
	}
	mine := g.PartsOf(p)
	for _, part := range needs {
		if slices.Contains(mine, part) {
			ta.parts = append(ta.parts, part)
		}
	}
	if len(ta.parts) == 0 {
		var whose []string
		for _, part := range g.Missing(req) {
			if h, ok := g.holderOf(side, part); ok {
				whose = append(whose, part+" ("+h.Address+")")
			}
		}
		return ta, adjudicator.Rejection(CodeNotYours,
			"your parts of %s (%s) have nothing to command for %s; the side waits for %s. Nothing was changed",
			side, orNone(mine), req.Title, orNone(whose))
	}
	return ta, nil
}

// checkCommands refuses orders that command a part of the side the
// sender does not hold, naming whose part it is.
func (g *Game) checkCommands(in Input, req adjudicator.Request, ta teamAnswer, orders adjudicator.Orders) error {
	if in.From == "" || len(ta.parts) == 0 {
		return nil
	}
	sp, ok := g.splitter()
	if !ok {
		return nil
	}
	p, _, _ := g.Member(req.Side, in.From)
	mine := g.PartsOf(p)
	for _, part := range sp.Commands(g.State, req, orders) {
		if slices.Contains(mine, part) {
			continue
		}
		if h, ok := g.holderOf(req.Side, part); ok {
			return adjudicator.Rejection(CodeNotYours,
				"these orders command %s, which is %s's part of %s, not yours (you command %s): leave its orders to him. Nothing was changed",
				part, h.Address, req.Side, orNone(mine))
		}
		return adjudicator.Rejection(CodeNotYours, "these orders command %s, which is no part of %s that you command (you command %s). Nothing was changed", part, req.Side, orNone(mine))
	}
	return nil
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// answeredBy returns the pending answer to request id that answers for
// parts (any answer to id when parts is nil).
func (g *Game) answeredBy(id string, parts []string) (Pending, bool) {
	for _, p := range g.Pending {
		if p.Request == id && (parts == nil || slices.Equal(p.Parts, parts)) {
			return p, true
		}
	}
	return Pending{}, false
}

// merge makes one submission per request from the parsed pending answers:
// the parts' answers of a split request go through the ruleset's Merge.
func (g *Game) merge(subs []adjudicator.Submission, parts [][]string) ([]adjudicator.Submission, error) {
	split := false
	for _, p := range parts {
		split = split || len(p) > 0
	}
	if !split {
		return subs, nil
	}
	sp, ok := g.splitter()
	if !ok {
		return nil, fmt.Errorf("answers for parts of a side, but the game does not split its orders")
	}
	var out []adjudicator.Submission
	done := map[string]bool{}
	for i, s := range subs {
		if len(parts[i]) == 0 {
			out = append(out, s)
			continue
		}
		if done[s.Request.ID] {
			continue
		}
		done[s.Request.ID] = true
		var answers []adjudicator.PartAnswer
		for j := i; j < len(subs); j++ {
			if subs[j].Request.ID == s.Request.ID {
				answers = append(answers, adjudicator.PartAnswer{Parts: parts[j], Orders: subs[j].Orders})
			}
		}
		orders, err := sp.Merge(g.State, s.Request, answers)
		if err != nil {
			return nil, fmt.Errorf("merging the parts' answers to %s: %v", s.Request.ID, err)
		}
		out = append(out, adjudicator.Submission{Request: s.Request, Side: s.Side, Orders: orders})
	}
	return out, nil
}
