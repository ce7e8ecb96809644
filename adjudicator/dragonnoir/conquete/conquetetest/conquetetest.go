// Package conquetetest is the short campaign of La Conquête that tests and
// benchmarks play (conquete's TestCampaignByMail, the store's, the desk's
// and the daemon's benchmarks): its players and options, what its players
// mail, how its Battle is played, and a driver that plays it through the
// caller's games service. Only tests and benchmarks import it.
//
// The campaign is three turns long ("1-apres-midi"). Its players mail the
// two setups (the Reptilians' scouts a troop of their own, their Sorcerer
// another), the Reptilian scouts made stealthy and moved unseen to the
// Carrefour du dragon, then revealed; the Sorcerer to La Croisée; the
// Rebels off the road to the Moulin (a negotiation with the Hermit), their
// troop R3 on to the Conseil des Ents (another) and then to La Croisée,
// where the Sorcerer waits: a Battle. The rest is every side's default (a
// pass, the first Region, no attack, fight, the default retreat).
//
// The package reaches no store: the caller loads and submits (Driver), so
// it keeps to the engine's purity rules.
package conquetetest

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/conquete"
	"github.com/umpire-pbem/umpire/adjudicator/game"
)

// ID is the campaign's game id where a test plays one campaign.
const ID = "val"

// Sides are the campaign's players, in the order they are created.
var Sides = []adjudicator.Side{conquete.Rebels, conquete.Reptilians}

// Options are the campaign's game options: three turns.
func Options() map[string]string { return map[string]string{"length": "1-apres-midi"} }

// Address is side's mail address, where the caller has no other.
func Address(side adjudicator.Side) string { return string(side) + "@example.org" }

// Script is what the players mail, "TURN/PHASE/SIDE" → the orders (the
// orders part of a mail), in order. A new map each call: a Campaign
// consumes it.
func Script() map[string][]string {
	return map[string][]string{
		"1/setup/rebels": {`counters: [konrad, zacharie, laberne, gotmar, godiva, lucifer, jon, arlon, aldus, grast, thrugg, zed]
messenger: {ally: elfes}
troops:
  R1: [konrad, godiva, lucifer, grast]
  R2: [zacharie, thrugg, gotmar, aldus]
  R3: [laberne, jon, arlon, zed]`},
		"1/setup/reptilians": {`relations: {barbares: E, druides: N, elfes: A, ermite: N, gobelins: A, licornes: E, nains-gris: N}
troops:
  R1: [lord, chief-ysshal, rept-armoured-1, rept-armoured-2, rept-armoured-3, rept-armoured-4]
  R2: [chief-thessk, rept-warrior-4, rept-warrior-5, rept-warrior-6, rept-warrior-7, rept-warrior-8]
  R3: [rept-scout-1, rept-scout-2, rept-scout-3]
  R5: [raptor-1, raptor-2, raptor-3, raptor-4]
  R6: [sorcerer]
  R4: {at: le-pont, counters: [chief-sarrak, rept-warrior-1, rept-warrior-2, rept-warrior-3]}`},
		"1/reorganisation/reptilians": {`stealthy: [R3]`},
		"1/movement/rebels":           {"move: R1\npath: [le-moulin]", "move: R2\npath: [le-moulin]", "move: R3\npath: [le-moulin]"},
		"1/movement/reptilians":       {"move: R3\npath: [le-pont, carrefour-du-dragon]", "move: R6\npath: [le-pont, la-croisee]"},
		"1/reveal/reptilians":         {"reveal: [R3]"},
		"2/movement/rebels":           {"move: R3\npath: [conseil-des-ents]"},
		"3/movement/rebels":           {"move: R3\npath: [la-croisee]"},
	}
}

// Mail is one answer a side mails: its orders (turn, phase and orders,
// without the envelope of game, side and secret) and the request it
// answers.
type Mail struct {
	Side     adjudicator.Side
	Turn     int
	Phase    string
	Key      string // "TURN/PHASE/SIDE", as Script keys it
	Title    string // the request's, for people
	Orders   string
	Scripted bool // from the script, not the side's default answer
}

// Round is the mail's turn, the setups (before turn 1's first phase)
// counting as 0.
func (m Mail) Round() int {
	if m.Phase == "setup" {
		return 0
	}
	return m.Turn
}

// Body is the mail's text as a player sends it to game: the envelope, then
// the orders.
func (m Mail) Body(game, secret string) string {
	return fmt.Sprintf("game: %s\nside: %s\nsecret: %s\n%s", game, m.Side, secret, m.Orders)
}

// Step is what a game waits for next: nothing (Over), a Battle's result
// (Battle, the Battle's game), or else Mail.
type Step struct {
	Over   bool
	Battle string
	Mail
}

// Answer is the mail that answers one request due in g, not answered yet:
// the orders mine gives for it, or else the side's default answer (what
// its silence at a deadline means).
func Answer(g *game.Game, mine func(r adjudicator.Request) (string, bool)) (Step, error) {
	for _, r := range g.Due() {
		if _, answered := g.Answered(r.ID); answered || r.Side == adjudicator.SeriesSide || r.Kind == adjudicator.KindResult {
			continue
		}
		m := Mail{Side: r.Side, Turn: r.Turn, Phase: r.Phase, Key: fmt.Sprintf("%d/%s/%s", r.Turn, r.Phase, r.Side), Title: r.Title}
		orders, scripted := mine(r)
		if scripted {
			m.Orders = fmt.Sprintf("turn: %d\nphase: %s\norders:\n%s", r.Turn, r.Phase, indent(orders))
		} else if b, ok := g.DefaultAnswer(r); ok {
			m.Orders = string(b) // a whole mail
		} else {
			return Step{}, fmt.Errorf("%s: nothing to answer %s with", g.ID, r.Title)
		}
		m.Scripted = scripted
		return Step{Mail: m}, nil
	}
	return Step{}, fmt.Errorf("%s waits for %v and nobody can answer", g.ID, g.Due())
}

func indent(s string) string {
	var b strings.Builder
	for l := range strings.SplitSeq(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

// Campaign is the campaign's players: Script's mails, in order, and for
// the rest each side's default.
type Campaign struct{ script map[string][]string }

// NewCampaign is the players of a new campaign, at its start.
func NewCampaign() *Campaign { return &Campaign{script: Script()} }

// Next is what campaign g waits for: over, a Battle, or the next mail.
func (c *Campaign) Next(g *game.Game) (Step, error) {
	if g.Over() {
		return Step{Over: true}, nil
	}
	for _, r := range g.Due() {
		if r.Kind == adjudicator.KindResult {
			return Step{Battle: adjudicator.ChildID(g.ID, strings.TrimPrefix(r.ID, "result."))}, nil
		}
	}
	return Answer(g, func(r adjudicator.Request) (string, bool) {
		key := fmt.Sprintf("%d/%s/%s", r.Turn, r.Phase, r.Side)
		if q := c.script[key]; len(q) > 0 {
			c.script[key] = q[1:]
			return q[0], true
		}
		return "", false
	})
}

// WalkAway is what a Battle's game g waits for, played so: the Reptilians
// set up their counters at the west end of the centre and walk them a hex
// a turn west, leaving the map by the edge toward Le Pont
// (DN3-CAMP-BATTLE-8); everything else is each side's default (the Rebels
// enter by their edge and stand).
func WalkAway(g *game.Game) (Step, error) {
	if g.Over() {
		return Step{Over: true}, nil
	}
	return Answer(g, func(r adjudicator.Request) (string, bool) {
		if r.Side != conquete.ChildReptilians {
			return "", false
		}
		var place, moves []string
		row := 5
		for _, u := range g.View(conquete.ChildReptilians).Units {
			if u.Side != conquete.ChildReptilians || u.Gone {
				continue
			}
			switch {
			case r.Phase == "setup":
				place = append(place, fmt.Sprintf("%s: \"05%02d\"", u.ID, row))
				row++
			case r.Phase == "krobs" && len(u.At) == 4:
				var c, rr int
				fmt.Sscanf(u.At, "%02d%02d", &c, &rr)
				m := fmt.Sprintf("{unit: %s, path: [\"%02d%02d\"]", u.ID, c-1, rr)
				if c-1 == 1 {
					m += ", leave: le-pont"
				}
				moves = append(moves, m+"}")
			}
		}
		switch {
		case len(place) > 0:
			return "place: {" + strings.Join(place, ", ") + "}", true
		case len(moves) > 0:
			return "moves: [" + strings.Join(moves, ", ") + "]", true
		}
		return "", false
	})
}

// Driver plays games through the caller's games service.
type Driver struct {
	Load   func(id string) (*game.Game, error)
	Submit func(id string, side adjudicator.Side, orders string) error
	// Battle, if set, plays the Battle's game child to its end (and may
	// look at the campaign first); by default the driver plays it with
	// WalkAway.
	Battle func(child string) error
}

// Play plays game id to its end, each step as next says, each Battle as
// d.Battle does; it returns the Battles' games, in the order fought.
func (d *Driver) Play(id string, next func(g *game.Game) (Step, error)) ([]string, error) {
	var battles []string
	for range 400 {
		g, err := d.Load(id)
		if err != nil {
			return battles, err
		}
		s, err := next(g)
		switch {
		case err != nil:
			return battles, err
		case s.Over:
			return battles, nil
		case s.Battle != "":
			battles = append(battles, s.Battle)
			if d.Battle != nil {
				err = d.Battle(s.Battle)
			} else {
				_, err = d.Play(s.Battle, WalkAway)
			}
			if err != nil {
				return battles, err
			}
		default:
			if err := d.Submit(id, s.Side, s.Orders); err != nil {
				return battles, fmt.Errorf("%s: %s answers %s (scripted %v) with\n%s\nrefused: %w", id, s.Side, s.Title, s.Scripted, s.Orders, err)
			}
		}
	}
	return battles, fmt.Errorf("%s does not end", id)
}

// Bytes is a stream of bytes fixed by its start: the games' secrets and
// dice seeds, the same at every run.
type Bytes struct{ N byte }

func (d *Bytes) Read(p []byte) (int, error) {
	for i := range p {
		d.N = d.N*31 + 17
		p[i] = d.N
	}
	return len(p), nil
}

// Clock is a clock that starts on 1 December 2026 at 9:00 UTC and moves a
// minute each time it is read; safe for concurrent use.
func Clock() func() time.Time {
	var mu sync.Mutex
	clock := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Minute)
		return clock
	}
}
