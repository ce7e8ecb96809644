package dragonnoir

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir/negotiation"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// Chapter: the battles of Dragon Noir 3 — La Conquête (B.11.2,
// DN3-CAMP-BATTLE-4 … 11, DN3-MAPS-1, -2; AMB-69 … 71, AMB-88; PBEM-DN3-19,
// -21, -23). A battle is a game of this ruleset set up from a position
// with a battle: section (the campaign writes it: contracts of issue 16,
// docs/dragon-noir.md): the Region, its battle map (an assembly
// battle-<region> whose board edges lead to the neighbouring Regions,
// battle_maps.go), night or day, the names the two sides go by, who plays
// first, and every counter with its side, its wounds, fatigue and PE, set
// up at the centre of the Region or waiting off the map by the edge of its
// arrival path. The files:
//
//	battle.go        the battle section, read and checked; the sides' names; helpers
//	battle_setup.go  the secret, simultaneous set-up of the counters at the centre (AMB-71)
//	battle_turn.go   the symmetric game turn (AMB-69), entering and leaving the map, the end
//	battle_fatigue.go  Fatigue (DN3-CAMP-REST-6, -7) and night (AMB-88)
//	battle_view.go   the view, and the final view the campaign reads
//
// A battle differs from a DN2 game only where these files say: both sides
// shoot and cast, each in its own player-turn and defensively in the
// other's (the reactions mail of fire_reactions.go goes to whichever side
// does not play); there are no Gharv interphases and no turn limit.

// StepSetup is the battle's set-up, before its first turn (PBEM-DN3-19).
const StepSetup = "setup"

// Fatigue levels of a counter in battle (DN3-CAMP-REST-5 … 7).
const (
	Fresh     = "fresh"
	Fatigued  = "fatigued"
	Exhausted = "exhausted"
)

// Battle is what a battle position says beyond its counters: kept in the
// state, never changed once the battle is set up.
type Battle struct {
	Region string                      `json:"region"`
	Night  bool                        `json:"night,omitempty"`
	Names  map[adjudicator.Side]string `json:"names"`
	First  adjudicator.Side            `json:"first"`
	// Exits is where each outer edge of the map leads, by the edge's name
	// (hexmap EdgeRuns): a Region, or "" for an impassable edge, the
	// double red line (DN3-MAPS-1).
	Exits map[string]string `json:"exits"`
	// People waits off the map while both sides fight (Step 5,
	// DN3-CAMP-NEG-11): the seam of the allies' entry (DN3-CAMP-BATTLE-9),
	// played by a later chapter. Attacked names a people attacked
	// (DN3-CAMP-BATTLE-2): its counters are under forces, on the side that
	// did not attack; those People names fight to the death and never
	// leave the map.
	People   *BattlePeople `json:"people,omitempty"`
	Attacked string        `json:"attacked,omitempty"`
	// Secrets: the battle starts by reading the sealed parts of its
	// position its series hands it (battle_secrets.go).
	Secrets bool `json:"secrets,omitempty"`
	// Peoples is the people of each counter of a people, by unit
	// (forces: people:): the loyalty rolls go once per people
	// (battle_traitor.go, DN3-CAMP-TRAITOR-6).
	Peoples map[string]string `json:"peoples,omitempty"`
}

// BattlePeople is a people in a battle (contracts: battle: people:).
type BattlePeople struct {
	ID        string                        `json:"id" yaml:"id"`
	Units     []string                      `json:"units" yaml:"units"`
	Influence map[adjudicator.Side][]string `json:"influence,omitempty" yaml:"influence"`
	// Cup is the Negotiation markers Step 5 draws from, by kind; none:
	// 2 of each (GAP-21, assumed: battle_people.go).
	Cup map[negotiation.Marker]int `json:"cup,omitempty" yaml:"cup"`
}

// BattleSpec is a position's battle: section.
type BattleSpec struct {
	Region   string                      `yaml:"region"`
	Map      string                      `yaml:"map"`
	Night    bool                        `yaml:"night"`
	Names    map[adjudicator.Side]string `yaml:"names"`
	First    adjudicator.Side            `yaml:"first"`
	Edges    map[string]string           `yaml:"edges"`
	People   *BattlePeople               `yaml:"people"`
	Attacked string                      `yaml:"attacked"`
	Secrets  bool                        `yaml:"secrets"`
}

// BattleForce is one counter of a battle position (forces:): its side, and
// where it starts — zone centre (set up in secret, DN3-CAMP-BATTLE-5) or
// edge with the Region its path comes from (DN3-CAMP-BATTLE-6); or, for a
// rule case, at: a location, placed already. Wounds, fatigue and PE are
// the campaign's.
type BattleForce struct {
	Unit    string           `yaml:"unit"`
	Side    adjudicator.Side `yaml:"side"`
	Zone    string           `yaml:"zone"`
	Edge    string           `yaml:"edge"`
	At      string           `yaml:"at"`
	Facing  string           `yaml:"facing"`
	Wounds  int              `yaml:"wounds"`
	Fatigue string           `yaml:"fatigue"`
	PE      *int             `yaml:"pe"`
	Level   int              `yaml:"level"`
	Face    string           `yaml:"face"`   // a rule case's: stunned
	People  string           `yaml:"people"` // the people of a people's counter (battle_traitor.go)
	// Mount is the steed it starts in the saddle of (move_rider.go,
	// battleRiders): the steed's own entry gives no place, or the rider's.
	Mount string `yaml:"mount"`
}

// InBattle reports whether the game is a battle of La Conquête (a DN3
// game: the magic and peoples' chapters read it too).
func (s *State) InBattle() bool { return s.Battle != nil }

// Other is the players' side that side fights.
func Other(side adjudicator.Side) adjudicator.Side {
	if side == Krobs {
		return Adventurers
	}
	return Krobs
}

// SideName is side as its players and the reports call it: the battle's
// names (the Rebels, the Reptilians), else the side itself.
func (s *State) SideName(side adjudicator.Side) string {
	if s.Battle != nil {
		if n := s.Battle.Names[side]; n != "" {
			return n
		}
	}
	return string(side)
}

// defender is the side that fires defensively and casts by its triggers
// in the player-turn under way: the Adventurers in DN2's Krob turn, in a
// battle the side that is not playing (AMB-69).
func (s *State) defender() adjudicator.Side {
	if s.Battle != nil {
		return Other(adjudicator.Side(s.Step))
	}
	return Adventurers
}

// firedAt reports whether the moves of side's player-turn meet defensive
// fire: the Krobs' in DN2 (DN-FIRE-12), either side's in a battle
// (AMB-69: DN-FIRE-* applies to both).
func (s *State) firedAt(side adjudicator.Side) bool {
	return s.Battle != nil || side == Krobs
}

// waiting reports whether c waits off the map to enter by the edge of its
// arrival path (DN3-CAMP-BATTLE-6).
func (c *Char) waiting() bool { return c.At == "" && c.Edge != "" && !c.Left && c.Face != Killed }

// exitRuns are the map's outer edges that lead to region.
func (s *State) exitRuns(region string) []hexmap.EdgeRun {
	var out []hexmap.EdgeRun
	for _, r := range s.board.EdgeRuns() {
		if s.Battle != nil && region != "" && s.Battle.Exits[r.Name] == region {
			out = append(out, r)
		}
	}
	return out
}

// edgeHexes are the hexes along the edges that lead to region.
func (s *State) edgeHexes(region string) []hex.Hex {
	var out []hex.Hex
	for _, r := range s.exitRuns(region) {
		out = append(out, r.Hexes...)
	}
	slices.SortFunc(out, func(a, b hex.Hex) int { return strings.Compare(a.String(), b.String()) })
	return slices.Compact(out)
}

// regions are the Regions the map's edges lead to, sorted.
func (s *State) regions() []string {
	var out []string
	for _, r := range s.Battle.Exits {
		if r != "" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return out
}

// centreDepth is how far from every edge of the map a counter set up at
// the centre stands: 4 hexes or more (DN3-CAMP-BATTLE-5).
const centreDepth = 4

// centreOK says why location l is no place to set a counter up at the
// centre of the Region, "" when it is one: 4 hexes or more from every hex
// along the map's edges (the boards have no half hexes: every hex counts).
func (s *State) centreOK(h hex.Hex) string {
	for _, r := range s.board.EdgeRuns() {
		for _, e := range r.Hexes {
			if d := s.board.Layout.Distance(h, e); d < centreDepth {
				return fmt.Sprintf("%s is %d hexes from %s on the %s edge: the centre is %d hexes or more from every edge (DN3-CAMP-BATTLE-5)", h, d, e, r.Name, centreDepth)
			}
		}
	}
	return ""
}

// CentreHexes lists the hexes of the centre of the Region, sorted.
func (s *State) CentreHexes() []hex.Hex {
	var out []hex.Hex
	for _, h := range s.board.Hexes() {
		if s.centreOK(h) == "" {
			out = append(out, h)
		}
	}
	return out
}

// battleSetup builds a battle from a position with a battle: section.
func battleSetup(d *Data, opts Rules, p *Position) (*State, error) {
	b := p.Battle
	if len(p.Units) > 0 {
		return nil, fmt.Errorf("position: a battle lists its counters under forces:, each with its side (units: is for DN2 positions)")
	}
	mapName := b.Map
	if mapName == "" {
		mapName = p.Map
	}
	if b.Region == "" {
		return nil, fmt.Errorf("position: battle: region: name the Region the battle is fought in (la-croisee, fort-ekal …)")
	}
	var st *State
	switch {
	case p.Board.Kind != 0:
		mp, err := positionBoard(&p.Board)
		if err != nil {
			return nil, fmt.Errorf("position: board: %v", err)
		}
		st = newStateOn(d, opts, mp.Name, mp)
	case mapName == "":
		mapName = "battle-" + b.Region
		fallthrough
	default:
		var err error
		if st, err = newState(d, opts, mapName); err != nil {
			return nil, fmt.Errorf("position: battle: map: %v", err)
		}
	}
	for id, c := range st.Chars {
		if c.Side == Gharvs {
			delete(st.Chars, id) // no Gharv interphases in a battle (AMB-69)
		}
	}
	bt := &Battle{Region: b.Region, Night: b.Night, First: b.First, Names: map[adjudicator.Side]string{Adventurers: "Rebels", Krobs: "Reptilians"},
		Exits: map[string]string{}, People: b.People, Attacked: b.Attacked, Secrets: b.Secrets}
	for side, n := range b.Names {
		if side != Adventurers && side != Krobs {
			return nil, fmt.Errorf("position: battle: names: %q is adventurers or krobs", side)
		}
		bt.Names[side] = n
	}
	switch bt.First {
	case "":
		bt.First = Adventurers // AMB-69: the Rebels' player-turn first
	case Adventurers, Krobs:
	default:
		return nil, fmt.Errorf("position: battle: first: %q is adventurers or krobs", bt.First)
	}
	runs := st.board.EdgeRuns()
	var names []string
	for _, r := range runs {
		bt.Exits[r.Name] = r.Label
		names = append(names, r.Name)
	}
	for _, k := range slices.Sorted(maps.Keys(b.Edges)) {
		if _, ok := bt.Exits[k]; !ok {
			return nil, fmt.Errorf("position: battle: edges: the map %s has no edge %q; its edges are %s", st.Map, k, strings.Join(names, ", "))
		}
		bt.Exits[k] = b.Edges[k]
	}
	st.Battle = bt
	st.Valley = true // La Conquête's magic (spell_lists.go): 50 PE a level, the four sheets
	if err := st.battlePeople(); err != nil {
		return nil, err
	}
	st.Turn, st.Turns = max(p.Turn, 1), 0
	centre := false
	seen := map[string]bool{}
	sides := map[adjudicator.Side]bool{}
	covered := map[string]string{}
	steeds := steedsOf(p.Forces) // riders: each steed's rider (move_rider.go)
	for i, f := range p.Forces {
		at := func(format string, args ...any) error {
			return fmt.Errorf("position: forces %d (%s): %s", i+1, f.Unit, fmt.Sprintf(format, args...))
		}
		k := d.Counters[f.Unit]
		switch {
		case k == nil:
			return nil, at("no counter %q in the module%s", f.Unit, suggest(f.Unit, slices.Sorted(maps.Keys(d.Counters))))
		case seen[f.Unit]:
			return nil, at("the counter is in the battle twice")
		case f.Side != Adventurers && f.Side != Krobs:
			return nil, at("side %q: adventurers (played by the Rebels' player) or krobs (by the Reptilians')", f.Side)
		case f.Wounds < 0 || f.Wounds >= k.Wounds:
			return nil, at("wounds %d: a %s dies of its wound %d (AMB-11); give 0 to %d", f.Wounds, k.Title, k.Wounds, k.Wounds-1)
		case !slices.Contains([]string{"", Fresh, Fatigued, Exhausted}, f.Fatigue):
			return nil, at("fatigue %q is fresh, fatigued or exhausted (DN3-CAMP-REST-5)", f.Fatigue)
		case f.PE != nil && (k.Level == 0 || *f.PE < 0):
			return nil, at("pe: only a magician has PE, never below 0 (DN-MAGIC-6)")
		case f.Level > 0 && k.Level == 0:
			return nil, at("level %d: only a magician has a level (DN-MAGIC-1)", f.Level)
		case f.Face != "" && f.Face != Stunned:
			return nil, at("face %q: a counter starts a battle on its feet (face: stunned is for rule cases)", f.Face)
		}
		seen[f.Unit] = true
		sides[f.Side] = true
		c := &Char{ID: f.Unit, Kind: k.ID, Side: f.Side, Face: Healthy, Wounds: f.Wounds, Facing: f.Facing, Level: f.Level}
		c.PE = st.fullPE(st.levelOf(k, c)) // DN3-MAGIC-1: the campaign gives the PE left
		if f.PE != nil {
			c.PE = *f.PE
		}
		if f.Wounds > 0 {
			c.Face = Wounded
		}
		if f.Fatigue != Fresh {
			c.Fatigue = f.Fatigue
		}
		_, steed := steeds[f.Unit]
		switch {
		case steed && f.At == "" && f.Zone == "" && f.Edge == "": // riders: where its rider is (battleRiders)
		case f.At != "":
			if f.Zone != "" || f.Edge != "" {
				return nil, at("give at: (a rule case's counter already on the map) or zone:, not both")
			}
			if err := placeable(st.board, k, Placement{Unit: f.Unit, At: f.At, Facing: f.Facing}); err != nil {
				return nil, at("%v", err)
			}
			l, _ := locOn(st.board, f.At)
			if !st.CanEnter(k, l) {
				return nil, at("a %s may not stand on %s (%s)", k.Title, f.At, st.Terrain(l).Title)
			}
			c.At = locString(st.board, l)
			if o, ok := covered[c.At]; ok && !steed {
				return nil, at("%s is on %s too: one living character a hex (DN-STACK-2)", o, c.At)
			}
			covered[c.At] = c.ID
			if f.Face == Stunned {
				c.Face = Stunned
			}
		case f.Zone == "centre":
			if f.Edge != "" {
				return nil, at("a counter at the centre comes by no edge: leave out edge:")
			}
			centre = true
		case f.Zone == "edge":
			if f.Edge == "" || !slices.Contains(st.regions(), f.Edge) {
				return nil, at("edge %q: name the Region its path comes from, one the map's edges lead to: %s (DN3-CAMP-BATTLE-6, Table DN3-T2)", f.Edge, strings.Join(st.regions(), ", "))
			}
			c.Edge = f.Edge
		default:
			return nil, at("zone %q: centre (set up in secret, DN3-CAMP-BATTLE-5) or edge (off the map by the edge of its path, DN3-CAMP-BATTLE-6)", f.Zone)
		}
		st.Chars[f.Unit] = c
		if f.People != "" { // the loyalty rolls, once per people (battle_traitor.go)
			if st.Battle.Peoples == nil {
				st.Battle.Peoples = map[string]string{}
			}
			st.Battle.Peoples[f.Unit] = f.People
		}
	}
	if !sides[Adventurers] || !sides[Krobs] {
		return nil, fmt.Errorf("position: forces: a battle has counters of both sides, adventurers and krobs")
	}
	if err := st.battleRiders(p.Forces); err != nil { // riders in the saddle (move_rider.go)
		return nil, err
	}
	if b := st.Battle; b.Attacked != "" && b.People != nil {
		for _, id := range b.People.Units {
			if st.Chars[id] == nil {
				return nil, fmt.Errorf("position: battle: attacked %s: its counter %s fights, so it is under forces: too, on the side that does not attack (DN3-CAMP-BATTLE-2)", b.Attacked, id)
			}
		}
	}
	switch p.Step {
	case "":
		st.Step = string(st.Battle.First)
		if centre {
			st.Step = StepSetup
		}
	case StepAdventurers, StepKrobs:
		if centre {
			return nil, fmt.Errorf("position: step %s: counters at the centre are set up first (step setup)", p.Step)
		}
		st.Step = p.Step
	default:
		return nil, fmt.Errorf("position: step %q: a battle starts at its set-up, or (for a rule case) at adventurers or krobs", p.Step)
	}
	if err := st.positionStanding(p.Done, p.Standing); err != nil {
		return nil, err
	}
	return st, nil
}

// battlePeople checks the people: and attacked: of a battle.
func (st *State) battlePeople() error {
	b := st.Battle
	if pp := b.People; pp != nil {
		if pp.ID == "" || len(pp.Units) == 0 {
			return fmt.Errorf("position: battle: people: give its id and its units")
		}
		for _, id := range pp.Units {
			if st.data.Counters[id] == nil {
				return fmt.Errorf("position: battle: people: no counter %q in the module", id)
			}
		}
		for side := range pp.Influence {
			if side != Adventurers && side != Krobs {
				return fmt.Errorf("position: battle: people: influence: %q is adventurers or krobs", side)
			}
		}
	}
	if b.Attacked != "" && b.People != nil && b.People.ID != b.Attacked {
		return fmt.Errorf("position: battle: attacked %s, but people: is %s: the people attacked is the one in the Region", b.Attacked, b.People.ID)
	}
	return nil
}

// fightsToDeath reports whether c is a counter of a people attacked, which
// fights to the death and never leaves the map (DN3-CAMP-BATTLE-2).
func (s *State) fightsToDeath(c *Char) bool {
	b := s.Battle
	return b != nil && b.Attacked != "" && b.People != nil && slices.Contains(b.People.Units, c.ID)
}

// levelOf is the level c, of kind k, casts at: its own, or its kind's in
// the valley (State.level, before c is in the game).
func (s *State) levelOf(k *Kind, c *Char) int {
	if c.Level > 0 {
		return c.Level
	}
	if s.valley() && k.ValleyLevel > 0 {
		return k.ValleyLevel
	}
	return k.Level
}
