package game

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
)

// NewGame is what a referee gives to create a game.
type NewGame struct {
	ID          string
	Ruleset     adjudicator.Ruleset
	Scenario    string
	Position    []byte
	Options     map[string]string
	Players     []Player
	Referee     string
	Time        time.Time
	Secret      []byte // s_N of the first dice chain (from crypto/rand), or nil with Faces
	ChainLength int    // 0 for dice.DefaultChainLength
	Faces       []int  // scripted dice instead of a chain
	Parent      *Parent
	// Module is the module data the game is played from, for a ruleset
	// played from modules; nil uses the ruleset's first builtin module.
	Module *adjudicator.Module
}

var idRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`)

// ValidID reports whether id may name a game: lower-case letters, digits and
// dashes, up to 63, so it is safe in file names, subjects and the dice
// derivation.
func ValidID(id string) bool { return idRE.MatchString(id) }

// Create checks a new game and returns its game.created record.
func Create(n NewGame) (Record, *Created, error) {
	if !ValidID(n.ID) {
		return Record{}, nil, fmt.Errorf("game id %q: use lower-case letters, digits and dashes", n.ID)
	}
	info := n.Ruleset.Info()
	if len(n.Players) == 0 {
		return Record{}, nil, fmt.Errorf("a game needs players: give each side as --player SIDE=address (sides of %s: %v)", info.Name, info.Sides)
	}
	players := make([]Player, len(n.Players))
	for i, p := range n.Players {
		if p.Seat != "" && p.Seat != p.Side {
			return Record{}, nil, fmt.Errorf("the player of %s is named for %s: a player's seat is the side he is named for when the game is created", p.Side, p.Seat)
		}
		players[i] = Player{Side: p.Side, Address: p.Address, Parts: p.Parts}
		if !slicesContains(info.Sides, p.Side) {
			return Record{}, nil, fmt.Errorf("%s has no side %q; its sides are %v", info.Name, p.Side, info.Sides)
		}
	}
	rules, clock := SplitOptions(n.Options)
	if _, err := ParseClock(clock); err != nil {
		return Record{}, nil, err
	}
	c := Created{
		Game: n.ID, Ruleset: info.Name, RulesetVersion: info.Version,
		Scenario: n.Scenario, Position: string(n.Position), Options: rules, Clock: clock,
		Players: players, Referee: n.Referee, Parent: n.Parent,
	}
	mod, err := newModule(n)
	if err != nil {
		return Record{}, nil, err
	}
	if mod != nil {
		ref := mod.Ref()
		c.Module = &ref
	}
	st, err := n.Ruleset.Setup(setupOf(c, mod))
	if err != nil {
		return Record{}, nil, err
	}
	if err := checkTeams(n.Ruleset, st, players, teamOrders(clock)); err != nil {
		return Record{}, nil, err
	}
	c.StateHash = StateHash(st)
	if n.Faces != nil {
		c.Dice = DiceInfo{Mode: DiceScripted, Faces: n.Faces}
	} else {
		length := n.ChainLength
		if length == 0 {
			length = dice.DefaultChainLength
		}
		ch, err := dice.NewChain(n.Secret, length)
		if err != nil {
			return Record{}, nil, err
		}
		c.Dice = DiceInfo{Mode: DiceChain, Commitment: hex.EncodeToString(ch.Commitment()), ChainLength: length}
	}
	b, err := json.Marshal(c)
	if err != nil {
		return Record{}, nil, err
	}
	return Record{Type: TypeCreated, Schema: Schema(TypeCreated), Time: n.Time, Actor: ActorReferee, Payload: b}, &c, nil
}

// newModule is the module a new game is played from, checked: the one
// given, or the ruleset's default; nil for a ruleset not played from
// modules.
func newModule(n NewGame) (*adjudicator.Module, error) {
	if n.Module == nil {
		m, modular, err := DefaultModule(n.Ruleset)
		if !modular || err != nil {
			return nil, err
		}
		n.Module = &m
	}
	if err := CheckModule(n.Ruleset, *n.Module); err != nil {
		return nil, err
	}
	return n.Module, nil
}

func slicesContains[T comparable](s []T, v T) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
