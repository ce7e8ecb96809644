package game

import (
	"fmt"
	"maps"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Seats. A player is named for a side when the game is created; the data
// file keeps the check value of his secret under that side's name, his
// seat. Most games never move a player, and a player's seat is his side.
// A ruleset event that swaps two sides' players (adjudicator.PlayersSwap:
// a side chosen once the game has begun) moves the players, each with his
// seat: from that event on, the player of side A is the one who played B,
// his secret is still the one he was given, and what belongs to him rather
// than to the side — his absences, when he wants results, the deadlines he
// missed, his grace, his orders sent ahead — goes with him. The swap is
// folded from the event, so a replay, an audit and every check after it
// follow the log.

// seat is the side whose secret's check value p holds.
func (p Player) seat() adjudicator.Side {
	if p.Seat != "" {
		return p.Seat
	}
	return p.Side
}

// Seat returns the seat of side's player: the name under which the data
// file keeps the check value of his secret. It is side itself unless the
// players swapped sides.
func (g *Game) Seat(side adjudicator.Side) adjudicator.Side {
	if p, ok := g.Player(side); ok {
		return p.seat()
	}
	return side
}

// seatIfMoved is side's seat when it is not side (OrdersAccepted.Seat).
func (g *Game) seatIfMoved(side adjudicator.Side) adjudicator.Side {
	if s := g.Seat(side); s != side {
		return s
	}
	return ""
}

// SideOfSeat returns the side that the player named for seat plays now.
func (g *Game) SideOfSeat(seat adjudicator.Side) (adjudicator.Side, bool) {
	for _, p := range g.Created.Players {
		if p.seat() == seat {
			return p.Side, true
		}
	}
	return "", false
}

// swapPlayers folds a swap of the players of sides a and b: each side's
// whole team moves, in its order, to the place of the other side's (a
// captain stays a captain). The parts of a side (team.orders=split) are
// the side's, not the player's: after a swap nobody holds a part, and the
// captain answers for all of them. Maps and lists are replaced, never
// changed in place: clones share them.
func (g *Game) swapPlayers(a, b adjudicator.Side) error {
	sides := g.Sides()
	if !slices.Contains(sides, a) || !slices.Contains(sides, b) || a == b {
		return fmt.Errorf("swaps the players of sides %q and %q, but the game's sides are %s", a, b, joinSides(sides))
	}
	moved := make([]Player, 0, len(g.Created.Players))
	for _, p := range g.Created.Players {
		q := p
		switch p.Side {
		case a:
			q.Side = b
		case b:
			q.Side = a
		}
		if q.Side != p.Side {
			q.Seat, q.Parts = p.seat(), nil
		}
		moved = append(moved, q)
	}
	players := make([]Player, 0, len(moved))
	for _, s := range sides {
		for _, p := range moved {
			if p.Side == s {
				players = append(players, p)
			}
		}
	}
	g.Created.Players = players
	g.Misses = swapKeys(g.Misses, a, b)
	g.AwayUntil = swapKeys(g.AwayUntil, a, b)
	g.ResultsOnlyDue = swapKeys(g.ResultsOnlyDue, a, b)
	g.Queues = swapKeys(g.Queues, a, b)
	if hasA, hasB := slices.Contains(g.Graced, a), slices.Contains(g.Graced, b); hasA != hasB {
		graced := slices.DeleteFunc(slices.Clone(g.Graced), func(s adjudicator.Side) bool { return s == a || s == b })
		if hasA {
			graced = append(graced, b)
		} else {
			graced = append(graced, a)
		}
		g.Graced = graced
	}
	return nil
}

// swapKeys returns a copy of m with the values of keys a and b traded (nil
// stays nil).
func swapKeys[V any](m map[adjudicator.Side]V, a, b adjudicator.Side) map[adjudicator.Side]V {
	if m == nil {
		return nil
	}
	out := maps.Clone(m)
	delete(out, a)
	delete(out, b)
	if v, ok := m[a]; ok {
		out[b] = v
	}
	if v, ok := m[b]; ok {
		out[a] = v
	}
	return out
}
