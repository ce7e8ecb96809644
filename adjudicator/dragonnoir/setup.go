package dragonnoir

import (
	"fmt"
	"maps"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// newState is a game on map mp of d, with no character placed: the Gharvs
// wait off the map (DN-GHARV-1).
func newState(d *Data, opts Rules, mapName string) (*State, error) {
	mp, ok := d.maps[mapName]
	if !ok {
		return nil, fmt.Errorf("module %s has no board or assembly %q; it has %v", d.Info.Name, mapName, slices.Sorted(maps.Keys(d.maps)))
	}
	return newStateOn(d, opts, mapName, mp), nil
}

// newStateOn is newState on board mp, which need not be the module's (a
// board written in a position, positionBoard).
func newStateOn(d *Data, opts Rules, mapName string, mp *hexmap.Map) *State {
	st := &State{data: d, board: mp, Module: d.Digest, Map: mapName, Options: opts, Turn: 1, Step: StepAdventurers, Chars: map[string]*Char{}}
	for _, id := range d.Kinds[d.GharvKind].counterNames() {
		st.Chars[id] = &Char{ID: id, Kind: d.GharvKind, Side: Gharvs, Face: Healthy}
	}
	return st
}

// place puts a counter of the module on the map for a set-up.
func (st *State) place(p Placement) error {
	k := st.data.Counters[p.Unit]
	if k == nil {
		return fmt.Errorf("no counter %q in the module", p.Unit)
	}
	if err := placeable(st.board, k, p); err != nil {
		return fmt.Errorf("%s: %v", p.Unit, err)
	}
	l, _ := locOn(st.board, p.At)
	c := &Char{ID: p.Unit, Kind: k.ID, Side: adjudicator.Side(k.Side), At: locString(st.board, l), Facing: p.Facing, Face: Healthy}
	if p.Level == 0 && k.Level > 0 && st.Options.MagicianLevel > 0 && !st.valley() {
		p.Level = st.Options.MagicianLevel // magic chapter: the group's L'Exil (option magician-level)
	}
	if p.Level > 0 { // magic chapter: the scenario's level (DN-MAGIC-2)
		if k.Level == 0 {
			return fmt.Errorf("%s: level %d: only a magician has a level (DN-MAGIC-1)", p.Unit, p.Level)
		}
		c.Level = p.Level
	}
	st.Chars[p.Unit] = c
	c.PE = st.fullPE(st.level(c)) // DN-MAGIC-6; in the valley DN3-MAGIC-1
	return nil
}

func scenarioSetup(d *Data, opts Rules, id string) (*State, error) {
	if id == "" {
		id = d.Scenarios[0].ID
	}
	sc, ok := d.Scenario(id)
	if !ok {
		var ids []string
		for _, s := range d.Scenarios {
			ids = append(ids, s.ID)
		}
		return nil, fmt.Errorf("module %s has no scenario %q; it has %v", d.Info.Name, id, ids)
	}
	st, err := newState(d, opts, sc.Map)
	if err != nil {
		return nil, err
	}
	st.Scenario, st.Turns = sc.ID, sc.Turns
	for _, p := range sc.Forces {
		if err := st.place(p); err != nil {
			return nil, fmt.Errorf("scenario %s: %v", sc.ID, err)
		}
	}
	for _, w := range sc.Webs {
		l, _ := locOn(st.board, w)
		st.Webs = sortedInsert(st.Webs, locString(st.board, l))
	}
	if err := st.placeMarkers(sc.Boats, sc.Oubliettes); err != nil { // movement chapter
		return nil, fmt.Errorf("scenario %s: %v", sc.ID, err)
	}
	for _, h := range sc.Hidden {
		l, _ := locOn(st.board, h.At)
		h.At = locString(st.board, l)
		st.Hidden = append(st.Hidden, h)
	}
	return st, nil
}

// Position is a game set up at any moment, for rule cases and custom
// set-ups (docs/positions.md): the map (a board or assembly of the
// module, or the scenario's), the turn and player-turn, every character
// placed with its state, webs, hidden markers, this turn's flags and the
// sides' standing orders. Scenario, when given, brings its victory
// conditions and length.
type Position struct {
	Scenario string                                 `yaml:"scenario"`
	Map      string                                 `yaml:"map"`
	Turn     int                                    `yaml:"turn"`
	Turns    int                                    `yaml:"turns"`
	Step     string                                 `yaml:"step"` // adventurers (default) or krobs
	Units    []PosUnit                              `yaml:"units"`
	Webs     []string                               `yaml:"webs"`
	Hidden   []PosMarker                            `yaml:"hidden"`
	Done     map[string][]string                    `yaml:"done"`
	Standing map[adjudicator.Side]map[string]string `yaml:"standing"`
	// Boats ({unit: boat-1, at: "0502", facing: S}: the stern and the way
	// the bow points, DN-BOAT-7; chapters: Gharvs, movement) and oubliette
	// entrances (DN-MAP-11; movement chapter).
	Boats      []Placement `yaml:"boats"`
	Oubliettes []string    `yaml:"oubliettes"`
	// Valley: the position is a battle of La Conquête's valley (DN3
	// magic, spell_lists.go), for a rule case that starts in one; a
	// battle: section says so too.
	Valley bool `yaml:"valley"`
	// Board is a board document written in the position instead of map:
	// (fire chapter: the houses, towers and bridges the assumed boards
	// lack, for rule cases; positionBoard).
	Board yaml.Node `yaml:"board"`
	// Battle and Forces make the position a battle of La Conquête
	// (battle.go): its Region, map, names, and every counter with its side.
	Battle *BattleSpec   `yaml:"battle"`
	Forces []BattleForce `yaml:"forces"`
}

// PosMarker is a hidden marker of a position (DN-CNT-13): face down, or
// turned over (shown). Whether a face-down marker is the real one is
// drawn when it is turned over or sensed (PBEM-DN-14), as in a scenario;
// a position may say it was drawn already (drawn: true, and real: true if
// it is the real one; real: true alone says both). A position is public:
// its game's log holds it.
type PosMarker struct {
	ID    string `yaml:"id"`
	Kind  string `yaml:"kind"`
	At    string `yaml:"at"`
	Shown bool   `yaml:"shown"`
	Drawn bool   `yaml:"drawn"`
	Real  bool   `yaml:"real"`
}

// PosUnit is one character of a position.
type PosUnit struct {
	Unit      string `yaml:"unit"`
	At        string `yaml:"at"`
	Facing    string `yaml:"facing"`
	Face      string `yaml:"face"` // healthy (default), stunned, wounded
	Wounds    int    `yaml:"wounds"`
	Berserk   bool   `yaml:"berserk"`
	StunnedIn int    `yaml:"stunned-in"`
	Spent     int    `yaml:"spent"`
	PE        *int   `yaml:"pe"`
	Level     int    `yaml:"level"` // a magician's (DN-MAGIC-2; magic chapter)
	// Side puts the character on the other side than its kind's (a DN3
	// people fights for whoever it allied with): adventurers or krobs.
	Side string `yaml:"side"`
	// On: the Ent carrying it, at: one of the Ent's two front hexes
	// (DN3-PEOPLE-ENT-20; special_ent.go). The Ent comes earlier in units.
	On string `yaml:"on"`
	// Mount is the steed it rides, placed on the same location
	// (move_rider.go; chapter: the valley's peoples).
	Mount string `yaml:"mount"`
}

func positionSetup(d *Data, opts Rules, src []byte) (*State, error) {
	var p Position
	if err := yamlx.Unmarshal(src, &p); err != nil {
		return nil, fmt.Errorf("position: %w", err)
	}
	if p.Battle != nil { // DN3 battles (battle.go)
		return battleSetup(d, opts, &p)
	}
	if len(p.Forces) > 0 {
		return nil, fmt.Errorf("position: forces: is a battle's list of counters: give its battle: section too, or list the counters under units:")
	}
	mapName := p.Map
	turns := p.Turns
	var sc *Scenario
	if p.Scenario != "" {
		var ok bool
		if sc, ok = d.Scenario(p.Scenario); !ok {
			return nil, fmt.Errorf("position: module %s has no scenario %q", d.Info.Name, p.Scenario)
		}
		if mapName == "" {
			mapName = sc.Map
		}
		if turns == 0 {
			turns = sc.Turns
		}
	}
	var st *State
	switch {
	case p.Board.Kind != 0: // fire chapter: a board written in the position
		mp, err := positionBoard(&p.Board)
		if err != nil {
			return nil, fmt.Errorf("position: board: %v", err)
		}
		st = newStateOn(d, opts, mp.Name, mp)
	case mapName == "":
		return nil, fmt.Errorf("position: give the map (a board or assembly of the module: %v) or a scenario", slices.Sorted(maps.Keys(d.maps)))
	default:
		var err error
		if st, err = newState(d, opts, mapName); err != nil {
			return nil, fmt.Errorf("position: %v", err)
		}
	}
	if sc != nil {
		st.Scenario = sc.ID
	}
	st.Valley = p.Valley // magic chapter: before anyone is placed (fullPE)
	st.Turn = max(p.Turn, 1)
	st.Turns = max(turns, st.Turn)
	switch p.Step {
	case "", StepAdventurers:
		st.Step = StepAdventurers
	case StepKrobs:
		st.Step = StepKrobs
	default:
		return nil, fmt.Errorf("position: step %q: write adventurers or krobs", p.Step)
	}
	for i, u := range p.Units {
		if err := st.place(Placement{Unit: u.Unit, At: u.At, Facing: u.Facing, Level: u.Level}); err != nil {
			return nil, fmt.Errorf("position: units %d: %v", i+1, err)
		}
		c := st.Chars[u.Unit]
		switch adjudicator.Side(u.Side) {
		case "":
		case Adventurers, Krobs:
			c.Side = adjudicator.Side(u.Side)
		default:
			return nil, fmt.Errorf("position: units %d: side %q is adventurers or krobs", i+1, u.Side)
		}
		if u.Face != "" {
			if !slices.Contains([]string{Healthy, Stunned, Wounded}, u.Face) {
				return nil, fmt.Errorf("position: units %d: face %q is healthy, stunned or wounded", i+1, u.Face)
			}
			c.Face = u.Face
		}
		c.Wounds, c.Berserk, c.StunnedIn, c.Spent = u.Wounds, u.Berserk, u.StunnedIn, u.Spent
		if u.Face == Wounded && c.Wounds == 0 {
			c.Wounds = 1
		}
		if u.PE != nil {
			c.PE = *u.PE
		}
		if u.On != "" { // DN3: carried by an Ent (special_ent.go)
			if err := st.seatAt(c, u.On); err != nil {
				return nil, fmt.Errorf("position: units %d: on: %v", i+1, err)
			}
		}
	}
	if err := st.placeRiders(p.Units); err != nil { // chapter: the valley's peoples (move_rider.go)
		return nil, err
	}
	for _, w := range p.Webs {
		l, err := locOn(st.board, w)
		if err != nil {
			return nil, fmt.Errorf("position: webs: %v", err)
		}
		st.Webs = sortedInsert(st.Webs, locString(st.board, l))
	}
	for i, h := range p.Hidden {
		if _, ok := markerKinds[h.Kind]; !ok {
			return nil, fmt.Errorf("position: hidden %d: kind %q is orb, prisoner or exit (DN-CNT-13)", i+1, h.Kind)
		}
		l, err := locOn(st.board, h.At)
		if err != nil {
			return nil, fmt.Errorf("position: hidden %d: %v", i+1, err)
		}
		st.Hidden = append(st.Hidden, HiddenMarker{ID: h.ID, Kind: h.Kind, At: locString(st.board, l), Shown: h.Shown, Real: h.Real,
			Drawn: h.Drawn || h.Real})
	}
	if err := st.placeMarkers(p.Boats, p.Oubliettes); err != nil { // chapters: Gharvs, movement
		return nil, fmt.Errorf("position: %v", err)
	}
	if err := st.positionStanding(p.Done, p.Standing); err != nil {
		return nil, err
	}
	return st, nil
}

// positionStanding sets what a position says the counters have done this
// turn (done:) and the sides' standing orders (standing:).
func (st *State) positionStanding(done map[string][]string, standing map[adjudicator.Side]map[string]string) error {
	for flag, ids := range done {
		for _, id := range ids {
			st.mark(flag, id)
		}
	}
	for side, m := range standing {
		for k, v := range m {
			if !slices.Contains(standingKeys, k) {
				return fmt.Errorf("position: standing %s: no key %q (%v)", side, k, standingKeys)
			}
			if st.Pause.Standing == nil {
				st.Pause.Standing = map[adjudicator.Side]map[string]string{}
			}
			if st.Pause.Standing[side] == nil {
				st.Pause.Standing[side] = map[string]string{}
			}
			st.Pause.Standing[side][k] = v
		}
	}
	return nil
}
