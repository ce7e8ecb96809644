package dragonrage

// Positions: a game set up from any legal position instead of a scenario
// (umpire new --position, a game script's "position:"). The format is
// documented in docs/positions.md; WritePosition writes a state in it, so
// that any game can be taken up again from where it stands.

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonrage/board"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// position is the YAML of a position. Field order is the order
// WritePosition writes them in.
type position struct {
	Scenario   string                 `yaml:"scenario,omitempty"`
	Map        yaml.Node              `yaml:"map"`
	Goal       int                    `yaml:"goal,omitempty"`
	First      string                 `yaml:"first,omitempty"`
	Turn       int                    `yaml:"turn"`
	Phase      string                 `yaml:"phase"`
	Pre        bool                   `yaml:"pre-turn,omitempty"`
	VP         int                    `yaml:"vp,omitempty"`
	LastDamage int                    `yaml:"last-damage,omitempty"`
	LastInside int                    `yaml:"last-inside,omitempty"`
	Waiting    int                    `yaml:"reinforcements-waiting,omitempty"`
	Units      []posUnit              `yaml:"units"`
	Box        map[string]int         `yaml:"box,omitempty"`
	Destroyed  map[string]int         `yaml:"vp-destroyed,omitempty"`
	Entrances  map[string]posEntrance `yaml:"entrances,omitempty"`
	Bridges    map[string]string      `yaml:"bridges,omitempty"`
	Fogs       []posMarker            `yaml:"fog,omitempty"`
	Whirlwinds []posMarker            `yaml:"whirlwinds,omitempty"`
	Boosts     []posBoost             `yaml:"boosts,omitempty"`
	Bolts      []posBolt              `yaml:"lightning,omitempty"`
	Elementals []posElemental         `yaml:"elementals,omitempty"`
	Elowyn     *elowynState           `yaml:"elowyn,omitempty"`
	Grudges    map[string]Grudge      `yaml:"trex-meleed-by,omitempty"`
	Collapsed  []string               `yaml:"collapsed,omitempty"` // where major monsters died (DR-DRAGON-DEAD-3)
	HurtBy     map[string][]string    `yaml:"hurt-by,omitempty"`   // this turn: who damaged each major monster (DR-YDRAGON-9)
	Pending    *Decision              `yaml:"decision,omitempty"`
}

type posUnit struct {
	ID       string `yaml:"id"`
	Type     string `yaml:"type"`
	Side     string `yaml:"side"`
	At       string `yaml:"at"`
	Gone     bool   `yaml:"gone,omitempty"`
	Wounded  bool   `yaml:"wounded,omitempty"`
	Damage   int    `yaml:"damage,omitempty"`
	SP       *int   `yaml:"sp,omitempty"`
	Ladder   bool   `yaml:"ladder-used,omitempty"`
	Moved    bool   `yaml:"moved,omitempty"`
	Attacked bool   `yaml:"attacked,omitempty"`
	NoAttack bool   `yaml:"no-attack,omitempty"`
	// Major monsters (§18): the hexside faced, in flight, the hit points
	// lost per area of the record sheet (spread over its groups in order,
	// DR-MATK-9), breaths used, the movement mode of this turn; and the
	// Killer marker any unit may carry (DR-YDRAGON-9).
	Facing  string         `yaml:"facing,omitempty"`
	Flying  bool           `yaml:"flying,omitempty"`
	Sheet   map[string]int `yaml:"sheet,omitempty"`
	Breaths int            `yaml:"breaths-used,omitempty"`
	Mode    string         `yaml:"mode,omitempty"`
	TookOff bool           `yaml:"took-off,omitempty"`
	Used    []string       `yaml:"groups-used,omitempty"`
	Spread  []string       `yaml:"crash-order,omitempty"` // the owner's standing order for spreading damage
	Killer  bool           `yaml:"killer,omitempty"`
}

type posEntrance struct {
	Broken     bool   `yaml:"broken,omitempty"`
	Controller string `yaml:"controller,omitempty"`
	OpenUntil  int    `yaml:"open-until,omitempty"`
}

type posMarker struct {
	Hex    string `yaml:"hex"`
	Wizard string `yaml:"wizard"`
	Age    int    `yaml:"age,omitempty"` // whirlwinds: 1 where cast, 2 after the drift
}

type posBoost struct {
	Wizard string   `yaml:"wizard"`
	Hex    string   `yaml:"hex"`
	Radius int      `yaml:"radius,omitempty"`
	Units  []string `yaml:"units,omitempty"`
}

type posBolt struct {
	Wizard string `yaml:"wizard"`
	Target string `yaml:"target"` // the unit it will strike in melee
	Power  int    `yaml:"power"`
}

type posElemental struct {
	Unit       string `yaml:"unit"`
	Wizard     string `yaml:"wizard"`
	Side       string `yaml:"side"`
	Controlled bool   `yaml:"controlled,omitempty"`
	Turn       int    `yaml:"turn"`
	Pre        bool   `yaml:"pre-turn,omitempty"`
}

// majorUnit checks and sets what a position says of a major monster.
func (c *posChecker) majorUnit(n *yaml.Node, pu posUnit, t *UnitType, u *Unit) {
	u.Killer = pu.Killer
	if !t.IsMajor() {
		for k, set := range map[string]bool{"facing": pu.Facing != "", "flying": pu.Flying, "sheet": pu.Sheet != nil, "breaths-used": pu.Breaths != 0, "mode": pu.Mode != ""} {
			if set {
				c.at(field(n, k), "only major monsters have %s: (§18); remove it from %s", k, pu.ID)
			}
		}
		return
	}
	m := t.Major
	switch d, err := hex.ParseDirection(pu.Facing); {
	case pu.Facing == "" && !pu.Gone && pu.At != "off-map":
		c.at(n, "%s needs \"facing:\", the hexside it faces: N, NE, SE, S, SW or NW (DR-HEX-7)", pu.ID)
	case pu.Facing != "" && err != nil:
		c.at(field(n, "facing"), "%q is not a facing: N, NE, SE, S, SW or NW (DR-HEX-7)", pu.Facing)
	case pu.Facing != "":
		u.Facing = d.String()
	}
	hits := make([]int, 0, 8)
	for _, a := range m.Areas {
		hits = append(hits, make([]int, len(a.Groups))...)
	}
	for _, name := range slices.Sorted(maps.Keys(pu.Sheet)) {
		lost, a := pu.Sheet[name], m.area(name)
		switch {
		case a == nil:
			c.at(field(n, "sheet"), "a %s has no %s: its areas are %s", t.Name, name, strings.Join(m.AreaNames(), ", "))
		case lost < 0:
			c.at(field(n, "sheet"), "%s: the hit points lost are 0 or more", name)
		default:
			if taken := absorb(m, hits, name, lost); taken < lost {
				c.at(field(n, "sheet"), "%s: a %s's %s has %d hit points, not %d", name, t.Name, name, taken, lost)
			}
		}
	}
	if slices.ContainsFunc(hits, func(x int) bool { return x != 0 }) {
		u.Hits = hits
	}
	u.Flying, u.Breaths = pu.Flying, pu.Breaths
	sheet := Sheet{def: m, hits: hits}
	switch {
	case pu.Flying && !sheet.MayFly():
		c.at(field(n, "flying"), "%s cannot be flying: a %s flies only with less than half its wing points lost (DR-DRAGON-FLY-1, DR-AMB-10)", pu.ID, t.Name)
	case pu.Breaths < 0 || pu.Breaths > m.Breath:
		c.at(field(n, "breaths-used"), "a %s breathes %d times a game (DR-DRAGON-BREATH-9, DR-YDRAGON-4)", t.Name, m.Breath)
	case sheet.Dead() && !pu.Gone:
		c.at(field(n, "sheet"), "%s's belly is destroyed: it is dead (DR-DRAGON-DEF-10); write gone: true or at: gone", pu.ID)
	}
	switch pu.Mode {
	case "", modeWalk, modeSlither, modeBound, modeFly, modeDrop:
		u.Mode = pu.Mode
	default:
		c.at(field(n, "mode"), "the movement modes are walk, slither, bound, fly and drop")
	}
	for i, a := range pu.Spread {
		if m.area(a) == nil || slices.Index(pu.Spread, a) != i {
			c.at(field(n, "crash-order"), "crash-order lists %s's areas in the order its owner spreads damage, each once: %s", pu.ID, strings.Join(m.AreaNames(), ", "))
			break
		}
	}
	u.Spread = slices.Clone(pu.Spread)
	u.TookOff = pu.TookOff
	if pu.TookOff && pu.Mode != modeFly {
		c.at(field(n, "took-off"), "took-off: true goes with mode: fly (a flight that began on the ground this turn)")
	}
	u.Used = nil
	for _, g := range pu.Used {
		key := strings.Replace(g, ".", "-", 1) // "wings.2" as the view shows it, "wings-2" as the state keeps it
		name, num, numbered := strings.Cut(key, "-")
		a := m.area(name)
		i, err := strconv.Atoi(num)
		switch {
		case a == nil || (numbered && (err != nil || i < 1 || i > len(a.Groups))) || (!numbered && len(a.Groups) > 1):
			c.at(field(n, "groups-used"), "%q is not a group of a %s: write a one-group area (head, belly) or an area and a group number such as wings.2 (areas: %s)", g, t.Name, strings.Join(m.AreaNames(), ", "))
		default:
			u.Used = append(u.Used, key)
		}
	}
}

var unitIDRE = regexp.MustCompile(`^[A-Z][A-Z0-9]*(-[A-Z0-9]+)*$`)

// PositionError is every problem of a position, each at its line.
type PositionError []*yamlx.Error

func (e PositionError) Error() string {
	parts := make([]string, len(e))
	for i, x := range e {
		parts[i] = "position: " + x.Error()
	}
	return strings.Join(parts, "\n")
}

// posChecker collects a position's problems.
type posChecker struct {
	errs PositionError
}

func (c *posChecker) at(n *yaml.Node, format string, args ...any) {
	c.errs = append(c.errs, yamlx.Errorf(n, "bad-position", format, args...))
}

// field returns the node of key in the mapping n, or n itself.
func field(n *yaml.Node, key string) *yaml.Node {
	if v := yamlx.Value(n, key); v != nil {
		return v
	}
	return n
}

// item returns the i-th item of the sequence under key in n, or n.
func item(n *yaml.Node, key string, i int) *yaml.Node {
	s := yamlx.Value(n, key)
	if s == nil || s.Kind != yaml.SequenceNode || i >= len(s.Content) {
		return n
	}
	return s.Content[i]
}

// entry returns the key node of k in the mapping under key in n, or n.
func entry(n *yaml.Node, key, k string) *yaml.Node {
	m := yamlx.Value(n, key)
	if m == nil || m.Kind != yaml.MappingNode {
		return n
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == k {
			return m.Content[i]
		}
	}
	return n
}

// checkOptions validates a game's options. Positions list their units, so
// they refuse the forces options.
func checkOptions(opts map[string]string, position bool) error {
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := opts[k]
		switch {
		case k == "elowyn":
			if v != "on" && v != "off" {
				return fmt.Errorf("option elowyn=%q: say on or off", v)
			}
		case k == "archers" || k == "unguarded-doors":
			if info := optionInfo(k); !slices.Contains(info.Values, v) {
				return fmt.Errorf("option %s=%q: say %s (%s)", k, v, strings.Join(info.Values, " or "), info.Doc)
			}
		case k == "campaign-game" || k == "balance-vp":
			if err := checkCampaignOption(k, v); err != nil { // campaign_game.go
				return err
			}
		case strings.HasPrefix(k, "counter."):
		case k == "points" || k == "goal-adjust":
			// With a position they only matter in a point game's build
			// phase: the position's goal is the goal.
			if k == "goal-adjust" {
				if _, err := goalAdjust(opts); err != nil {
					return err
				}
			} else if _, _, err := parsePoints(v); err != nil {
				return err
			}
		case strings.HasPrefix(k, forcesPrefix):
			if position {
				return fmt.Errorf("option %s: a position lists its units; the forces options are for scenarios", k)
			}
		default:
			return fmt.Errorf("unknown option %q; Dragon Rage knows elowyn, archers, unguarded-doors, points, goal-adjust, campaign-game, balance-vp, counter.TYPE.FIELD and forces.SIDE.TYPE", k)
		}
	}
	return nil
}

// setupPosition builds a state from a position.
func setupPosition(s adjudicator.Setup) (*State, error) {
	d, err := Embedded()
	if err != nil {
		return nil, err
	}
	if s.Scenario != "" {
		return nil, fmt.Errorf("give a scenario or a position, not both (a position may name its scenario inside: \"scenario: %s\")", s.Scenario)
	}
	if err := checkOptions(s.Options, true); err != nil {
		return nil, err
	}
	types, err := d.withOverrides(s.Options)
	if err != nil {
		return nil, err
	}
	root, err := yamlx.Parse(s.Position)
	if err != nil {
		return nil, fmt.Errorf("position: %w", err)
	}
	var p position
	if err := yamlx.Decode(root, &p); err != nil {
		return nil, fmt.Errorf("position: %w", err)
	}
	c := &posChecker{}
	st := &State{Options: cloneMap(s.Options), types: types, First: Invader}
	// The scenario, when named, gives the map, the goal and who starts.
	if p.Scenario != "" {
		sc, ok := d.Scenario(p.Scenario)
		ps, isPoints := pointScenario(p.Scenario)
		switch {
		case isPoints:
			// A point game's position: its armies are its units, and it
			// states its goal (the DR-THR-1 goal was set when built).
			st.Scenario, st.Map = ps.ID, ps.Map
			if p.Goal == 0 {
				c.at(field(root, "scenario"), "a position of point scenario %s states its goal: \"goal: N\"", ps.ID)
			}
		case !ok:
			c.at(field(root, "scenario"), "no Dragon Rage scenario %q", p.Scenario)
		case !sc.IsPlayable():
			c.at(field(root, "scenario"), "scenario %s (%s) is not playable in this version of umpire; umpire rulesets lists the playable ones", sc.ID, sc.Title)
		default:
			st.Scenario, st.Map, st.Goal = sc.ID, sc.Map, sc.Goal
			if sc.DefenderFirst {
				st.First = Defender
			}
		}
	}
	if p.Map.Kind != 0 {
		m, name, err := positionMap(&p.Map)
		if err != nil {
			c.errs = append(c.errs, err...)
		} else {
			st.Map, st.board = name, m
			if p.Map.Kind == yaml.MappingNode {
				st.mapSrc, _ = yaml.Marshal(&p.Map)
			}
		}
	} else if st.Map != "" {
		if st.board, err = loadBoard(st.Map); err != nil {
			return nil, err
		}
	} else if p.Scenario == "" {
		c.at(root, "a position needs a map: \"map: esirien\", \"map: {cols: 12, rows: 10}\" (an open map) or a map document (docs/maps.md)")
	}
	if p.Goal != 0 {
		st.Goal = p.Goal
	}
	if st.Goal <= 0 && (p.Scenario == "" || p.Goal != 0) {
		c.at(field(root, "goal"), "give the invader's VP goal, \"goal: N\" with N above 0")
	}
	switch p.First {
	case "":
	case string(Invader), string(Defender):
		st.First = adjudicator.Side(p.First)
	default:
		c.at(field(root, "first"), "first is invader or defender, who plays first in each turn (DR-TURN-2)")
	}
	if len(c.errs) > 0 || st.board == nil {
		if len(c.errs) == 0 {
			c.at(root, "a position needs a map")
		}
		return nil, c.errs
	}
	c.turn(root, &p, st)
	c.units(root, &p, st, d)
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	w := newWorld(st, nil)
	c.placement(root, &p, w)
	c.markers(root, &p, w)
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	return st, nil
}

// positionMap reads the map of a position: a board's name, an open map of
// cols × rows, or a whole map document.
func positionMap(n *yaml.Node) (*hexmap.Map, string, PositionError) {
	bad := func(format string, args ...any) PositionError {
		return PositionError{yamlx.Errorf(n, "bad-position", format, args...)}
	}
	switch {
	case n.Kind == yaml.ScalarNode:
		m, err := loadBoard(n.Value)
		if err != nil {
			return nil, "", bad("%v", err)
		}
		return m, n.Value, nil
	case n.Kind != yaml.MappingNode:
		return nil, "", bad("the map is a board's name, {cols: C, rows: R} for an open map, or a map document")
	case yamlx.Value(n, "file") != nil:
		return nil, "", bad("a map file must be written into the position (umpire new --position does it for \"map: {file: F}\"); here, give the map document itself")
	case yamlx.Value(n, "bounds") != nil:
		src, err := yaml.Marshal(n)
		if err != nil {
			return nil, "", bad("%v", err)
		}
		m, err := hexmap.Parse("position map", src, &board.Vocabulary)
		if err != nil {
			return nil, "", bad("the map document: %v (lines counted from \"map:\")", err)
		}
		if slices.Contains(board.Names, m.Name) {
			return nil, "", bad("a map document may not take the name of the board %q; name your map otherwise, or say \"map: %s\"", m.Name, m.Name)
		}
		return m, m.Name, nil
	}
	var open struct {
		Cols int `yaml:"cols"`
		Rows int `yaml:"rows"`
	}
	if err := yamlx.Decode(n, &open); err != nil {
		return nil, "", PositionError{err.(*yamlx.Error)}
	}
	if open.Cols < 1 || open.Rows < 1 || open.Cols > 99 || open.Rows > 99 {
		return nil, "", bad("an open map has 1 to 99 columns and rows: {cols: 12, rows: 10}")
	}
	name := fmt.Sprintf("open-%dx%d", open.Cols, open.Rows)
	src := fmt.Sprintf("name: %s\ntitle: open map %d x %d\nbounds: {cols: [1, %d], rows: [1, %d]}\ndefault: open\n", name, open.Cols, open.Rows, open.Cols, open.Rows)
	m, err := hexmap.Parse(name, []byte(src), &board.Vocabulary)
	if err != nil {
		return nil, "", bad("%v", err)
	}
	return m, name, nil
}

// turn checks the turn, the phase and the clocks.
func (c *posChecker) turn(root *yaml.Node, p *position, st *State) {
	st.Turn, st.Phase, st.Pre = p.Turn, p.Phase, p.Pre
	info, ok := phases[p.Phase]
	var keys []string
	for k := range phases {
		if k != phEnd && k != phBuild && k != phChoose {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	switch {
	case p.Phase == phBuild && st.isPointGame():
		// A point game before its armies are built: only Elowyn, who is
		// never bought, may be there (DR-PTS-2, DR-PTS-4).
	case p.Phase == phChoose && st.isWeighted():
		// A weighted game's armies are built; the side choice is due
		// (DR-PTS-1).
	case !ok || p.Phase == phEnd || p.Phase == phBuild || p.Phase == phChoose:
		c.at(field(root, "phase"), "no phase %q to wait in; the phases are %s (the turn marker, end-of-turn, is automatic)", p.Phase, strings.Join(keys, ", "))
	case info.key == "setup" && (p.Turn != 0 || p.Pre):
		c.at(field(root, "turn"), "the setup is turn 0, before any pre-turn")
	case p.Pre && (p.Turn != 0 || !slices.Contains(preTurnPhases, p.Phase)):
		c.at(field(root, "pre-turn"), "the defender's pre-turn is turn 0, in %s (DR-TURN-2, DR-AMB-25)", strings.Join(preTurnPhases, ", "))
	case info.key != "setup" && !p.Pre && p.Turn < 1:
		c.at(field(root, "turn"), "turn %d: turns count from 1 (turn 0 is the setup and the defender's pre-turn)", p.Turn)
	}
	if p.VP < 0 {
		c.at(field(root, "vp"), "the VP scored cannot be below 0")
	}
	st.VP = p.VP
	for _, k := range []struct {
		key string
		v   int
	}{{"last-damage", p.LastDamage}, {"last-inside", p.LastInside}} {
		if k.v < 0 || k.v > p.Turn {
			c.at(field(root, k.key), "%s is a turn from 0 (never) to the current turn %d (DR-WIN-3, DR-WIN-4)", k.key, p.Turn)
		}
	}
	st.LastDamage, st.LastInside = p.LastDamage, p.LastInside
	if p.Waiting < 0 {
		c.at(field(root, "reinforcements-waiting"), "reinforcements waiting cannot be below 0")
	}
	st.Waiting = p.Waiting
}

// units checks each unit's own values and makes the units.
func (c *posChecker) units(root *yaml.Node, p *position, st *State, d *Data) {
	seen := map[string]*yaml.Node{}
	counts := map[string]int{}
	elowyn := st.Options["elowyn"] == "on"
	hasElowyn := false
	for i, pu := range p.Units {
		n := item(root, "units", i)
		u := &Unit{ID: pu.ID, Type: pu.Type, Gone: pu.Gone, Wounded: pu.Wounded, Damage: pu.Damage, Ladder: pu.Ladder,
			Moved: pu.Moved, Attacked: pu.Attacked, NoAttack: pu.NoAttack}
		ok := true
		switch {
		case !unitIDRE.MatchString(pu.ID):
			c.at(field(n, "id"), "unit id %q: write it in capitals, letters, digits and dashes, e.g. INF-3 (orders name units by it)", pu.ID)
			ok = false
		case seen[pu.ID] != nil:
			c.at(field(n, "id"), "unit id %s is given twice (first at line %d)", pu.ID, seen[pu.ID].Line)
			ok = false
		default:
			seen[pu.ID] = field(n, "id")
		}
		t, known := st.types[pu.Type]
		switch {
		case !known:
			c.at(field(n, "type"), "unknown counter type %q; the types are %s", pu.Type, strings.Join(sortedTypeCodes(st.types), ", "))
			continue
		}
		c.majorUnit(n, pu, t, u)
		switch {
		case pu.Side == string(Invader) || pu.Side == string(Defender):
			u.Side = adjudicator.Side(pu.Side)
		case pu.Side == "none" && t.IsSummoned():
		default:
			c.at(field(n, "side"), "side is invader or defender (\"none\" only for an Elemental out of control)")
		}
		switch pu.At {
		case "pool", "box":
			u.Pool = true
			if pu.Side != string(Defender) || !slices.Contains(reinforcementTypes(st.Map), pu.Type) {
				c.at(field(n, "at"), "only the defender's reinforcement counters (%s) wait in the box (DR-REINF-6)", strings.Join(reinforcementTypes(st.Map), ", "))
			}
		case "off-map", "":
			if pu.At == "" && !pu.Gone {
				c.at(n, "%s needs \"at:\": a hex, off-map, pool or gone", pu.ID)
			}
		case "gone":
			u.Gone = true
		default:
			h, err := hex.ParseLenient(pu.At)
			switch {
			case err != nil:
				c.at(field(n, "at"), "%q is not a hex: write four digits, column then row, e.g. \"0808\" (or off-map, pool, gone)", pu.At)
			case !st.board.OnMap(h):
				c.at(field(n, "at"), "hex %s is not on the map %s", h, st.Map)
			default:
				u.Hex = h.String()
			}
		}
		if pu.Wounded && t.Kind != "character" {
			c.at(field(n, "wounded"), "only heroes, wizards and Elowyn are wounded (DR-CRT-4); %s is a %s", pu.ID, t.Name)
		}
		if pu.Damage < 0 || (pu.Damage > 0 && (t.HP == 0 || (pu.Damage >= t.HP && !u.Gone))) {
			c.at(field(n, "damage"), "damage is the hit points lost: 0 to %d for a %s", max(t.HP-1, 0), t.Name)
		}
		switch {
		case pu.SP != nil && !t.Casts():
			c.at(field(n, "sp"), "only wizards have spell points")
		case pu.SP != nil && (*pu.SP < 0 || *pu.SP > 10):
			c.at(field(n, "sp"), "a wizard has 0 to 10 SP (DR-MAGIC-2)")
		case pu.SP != nil:
			u.SP = *pu.SP
		case t.Casts():
			u.SP = 10
		}
		if t.Code == elowynType {
			hasElowyn = true
			if pu.ID != elowynID {
				c.at(field(n, "id"), "Elowyn's id is %s", elowynID)
			}
			if !elowyn {
				c.at(field(n, "type"), "Elowyn plays only with the option elowyn=on (DR-SCEN-11)")
			}
		}
		if ok {
			st.Units = append(st.Units, u)
			if _, num := splitID(pu.ID); num > counts[pu.Type] {
				counts[pu.Type] = num
			}
		}
	}
	if elowyn && !hasElowyn {
		c.at(field(root, "units"), "the option elowyn=on needs Elowyn among the units (id %s, type ELW)", elowynID)
	}
	// box: N more counters of a type waiting in the box, numbered on.
	for _, code := range slices.Sorted(maps.Keys(p.Box)) {
		n := entry(root, "box", code)
		if !slices.Contains(reinforcementTypes(st.Map), code) || p.Box[code] < 0 {
			c.at(n, "the box holds the defender's reinforcement counters (%s), a number of each", strings.Join(reinforcementTypes(st.Map), ", "))
			continue
		}
		if total := counts[code] + p.Box[code]; total > d.Mix[code] {
			c.at(n, "the counter mix has %d %s counters; the units and the box would need %d (DR-REINF-6)", d.Mix[code], code, total)
		}
		for i := 0; i < p.Box[code]; i++ {
			counts[code]++
			id := fmt.Sprintf("%s-%d", code, counts[code])
			st.Units = append(st.Units, &Unit{ID: id, Type: code, Side: Defender, Pool: true})
		}
	}
	if st.Units == nil {
		st.Units = []*Unit{} // as a scenario's setup has them: a list, empty or not
	}
	sortUnits(st.Units)
	if st.Phase == phBuild {
		for _, u := range st.Units {
			if !isElowyn(u) {
				c.at(field(root, "units"), "%s: in the build phase of a point game the armies are not built yet; only Elowyn may be listed", u.ID)
				break
			}
		}
	} else if len(st.alive(Invader)) == 0 {
		c.at(field(root, "units"), "the invader has no unit in play")
	}
}

func sortedTypeCodes(types map[string]*UnitType) []string {
	out := make([]string, 0, len(types))
	for k := range types {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// placement checks where the units stand: terrain and stacking.
func (c *posChecker) placement(root *yaml.Node, p *position, w *world) {
	st := w.st
	nodeOf := map[string]*yaml.Node{}
	for i, pu := range p.Units {
		nodeOf[pu.ID] = field(item(root, "units", i), "at")
	}
	byHex := map[string][]*Unit{}
	var hexes []string
	for _, u := range st.Units {
		if u.Hex == "" || u.Gone || u.Pool {
			continue
		}
		if why := w.cannotStand(u, st.hexOf(u)); why != "" {
			c.at(nodeOf[u.ID], "%s may not stand in %s: %s", u.ID, u.Hex, why)
		}
		if st.typ(u).IsSummoned() {
			continue // an Elemental follows its own rules (DR-SPELL-ELEM-5)
		}
		if byHex[u.Hex] == nil {
			hexes = append(hexes, u.Hex)
		}
		byHex[u.Hex] = append(byHex[u.Hex], u)
	}
	for _, h := range hexes {
		if why := w.stackProblem(byHex[h]); why != "" {
			last := nodeOf[byHex[h][0].ID] // the unit written last in the hex
			for _, u := range byHex[h][1:] {
				if n := nodeOf[u.ID]; n.Line > last.Line {
					last = n
				}
			}
			c.at(last, "hex %s: %s (DR-STACK-1, DR-STACK-2)", h, why)
		}
	}
}

// markers checks the board's markers and the chapters' state.
func (c *posChecker) markers(root *yaml.Node, p *position, w *world) {
	st, m := w.st, w.m
	onMap := func(n *yaml.Node, s string) (string, bool) {
		h, err := hex.ParseLenient(s)
		if err != nil || !m.OnMap(h) {
			c.at(n, "%q is not a hex of the map %s", s, st.Map)
			return "", false
		}
		return h.String(), true
	}
	unitOf := func(n *yaml.Node, id, typ string) *Unit {
		u := st.unit(id)
		switch {
		case u == nil:
			c.at(n, "no unit %s in the position", id)
			return nil
		case typ != "" && u.Type != typ:
			c.at(n, "%s is a %s, not a %s", id, u.Type, typ)
			return nil
		}
		return u
	}
	for _, k := range slices.Sorted(maps.Keys(p.Destroyed)) {
		n := entry(root, "vp-destroyed", k)
		h, ok := onMap(n, k)
		if !ok {
			continue
		}
		hx, _ := hex.Parse(h)
		if vp := m.VP(hx); vp == 0 || p.Destroyed[k] < 1 || p.Destroyed[k] > vp {
			c.at(n, "%s: a destroyed VP hex scored 1 to its printed VP (%d here; DR-VP-1)", h, vp)
			continue
		}
		if st.Destroyed == nil {
			st.Destroyed = map[string]int{}
		}
		st.Destroyed[h] = p.Destroyed[k]
	}
	for _, k := range slices.Sorted(maps.Keys(p.Entrances)) {
		n := entry(root, "entrances", k)
		a, b, ok := strings.Cut(k, "/")
		ha, ea := hex.ParseLenient(a)
		hb, eb := hex.ParseLenient(b)
		var sd hex.Hexside
		if ok && ea == nil && eb == nil {
			sd, ok = hex.SideBetween(ha, hb)
		}
		if !ok || ea != nil || eb != nil {
			c.at(n, "%q is not a hexside: write the two hexes, \"0606/0707\"", k)
			continue
		}
		f, has := m.Feature(sd)
		if !has || !(m.IsEntrance(f.Kind) || m.IsBarrier(f.Kind) || f.Kind == "breach") {
			c.at(n, "no gate, door, wall or palisade on the hexside %s (a palisade a sea serpent breached is an entrance, DR-SERP-7)", sd)
			continue
		}
		e := p.Entrances[k]
		ent := &Entrance{Broken: e.Broken, Controller: adjudicator.Side(e.Controller), OpenUntil: e.OpenUntil}
		if e.Controller != string(Invader) && e.Controller != string(Defender) {
			c.at(n, "%s: say who controls the entrance, controller: invader or defender (DR-ENTR-4)", sd)
		}
		if e.OpenUntil < 0 {
			c.at(n, "%s: open-until is a turn", sd)
		}
		if st.Entrances == nil {
			st.Entrances = map[string]*Entrance{}
		}
		st.Entrances[sd.String()] = ent
	}
	for _, k := range slices.Sorted(maps.Keys(p.Bridges)) {
		n := entry(root, "bridges", k)
		h, ok := onMap(n, k)
		if !ok {
			continue
		}
		hx, _ := hex.Parse(h)
		v := p.Bridges[k]
		if _, has := m.Bridge(hx); !has {
			c.at(n, "no bridge in %s", h)
			continue
		}
		by, destroyed := strings.CutPrefix(v, "destroyed:")
		switch {
		case v == "burned":
		case destroyed && st.unit(by) != nil:
		default:
			c.at(n, "bridge %s: say burned, or destroyed:UNIT for the unit that destroyed it (DR-BRIDGE-5)", h)
			continue
		}
		if st.Bridges == nil {
			st.Bridges = map[string]string{}
		}
		st.Bridges[h] = v
	}
	wizard := func(n *yaml.Node, id string) (*Unit, bool) {
		u := unitOf(n, id, "WZD")
		return u, u != nil
	}
	for i, f := range p.Fogs {
		n := item(root, "fog", i)
		wz, ok := wizard(field(n, "wizard"), f.Wizard)
		h, ok2 := onMap(field(n, "hex"), f.Hex)
		if f.Age != 0 {
			c.at(field(n, "age"), "a fog has no age")
		}
		if ok && ok2 {
			st.Magic.Fogs = append(st.Magic.Fogs, Fog{Hex: h, Wizard: wz.ID, Side: wz.Side})
		}
	}
	for i, x := range p.Whirlwinds {
		n := item(root, "whirlwinds", i)
		wz, ok := wizard(field(n, "wizard"), x.Wizard)
		h, ok2 := onMap(field(n, "hex"), x.Hex)
		if x.Age != 1 && x.Age != 2 {
			c.at(field(n, "age"), "a Whirlwind is age 1 where it was cast, 2 after its drift (DR-SPELL-WHIRL-2)")
			ok = false
		}
		if ok && ok2 {
			st.Magic.Whirlwinds = append(st.Magic.Whirlwinds, Whirlwind{Hex: h, Wizard: wz.ID, Side: wz.Side, Age: x.Age})
		}
	}
	for i, b := range p.Boosts {
		n := item(root, "boosts", i)
		wz, ok := wizard(field(n, "wizard"), b.Wizard)
		h, ok2 := onMap(field(n, "hex"), b.Hex)
		if b.Radius < 0 || b.Radius > 2 {
			c.at(field(n, "radius"), "a Boost Morale's radius is 0 to 2 (DR-SPELL-MORALE-1)")
			ok = false
		}
		for _, id := range b.Units {
			if unitOf(field(n, "units"), id, "") == nil {
				ok = false
			}
		}
		if ok && ok2 {
			st.Magic.Boosts = append(st.Magic.Boosts, Boost{Wizard: wz.ID, Side: wz.Side, Hex: h, Radius: b.Radius, Units: slices.Clone(b.Units)})
		}
	}
	for i, b := range p.Bolts {
		n := item(root, "lightning", i)
		wz, ok := wizard(field(n, "wizard"), b.Wizard)
		ok2 := unitOf(field(n, "target"), b.Target, "") != nil
		if b.Power < 1 {
			c.at(field(n, "power"), "a held Lightning has a power of 1 or more (DR-SPELL-LIGHT-7)")
			ok = false
		}
		if ok && ok2 {
			st.Magic.Bolts = append(st.Magic.Bolts, Bolt{Wizard: wz.ID, Side: wz.Side, Target: b.Target, Power: b.Power})
		}
	}
	for i, e := range p.Elementals {
		n := item(root, "elementals", i)
		el := unitOf(field(n, "unit"), e.Unit, "ELM")
		wz, ok := wizard(field(n, "wizard"), e.Wizard)
		if e.Side != string(Invader) && e.Side != string(Defender) {
			c.at(field(n, "side"), "side is the summoner's side, invader or defender")
			ok = false
		}
		if e.Turn < 0 || e.Turn > st.Turn {
			c.at(field(n, "turn"), "turn is when it was summoned, 0 to the current turn")
			ok = false
		}
		if el != nil && ok {
			if e.Controlled && el.Side != adjudicator.Side(e.Side) {
				c.at(field(n, "controlled"), "%s is controlled by %s, so it is on the %s side", el.ID, wz.ID, e.Side)
			}
			if !e.Controlled && el.Side != "" {
				c.at(field(n, "controlled"), "%s is out of control: its unit's side is none (DR-SPELL-ELEM-8)", el.ID)
			}
			st.Magic.Elementals = append(st.Magic.Elementals, Elemental{Unit: el.ID, Wizard: wz.ID, Side: adjudicator.Side(e.Side), Controlled: e.Controlled, Turn: e.Turn, Pre: e.Pre})
		}
	}
	for _, u := range st.Units {
		if st.typ(u).IsSummoned() && !u.Gone && st.Magic.elemental(u.ID) == nil {
			c.at(field(root, "units"), "Elemental %s needs its entry under elementals: (who summoned it, whether controlled)", u.ID)
		}
	}
	if p.Elowyn != nil {
		if st.elowyn() == nil {
			c.at(field(root, "elowyn"), "Elowyn's state needs Elowyn among the units")
		}
		st.Elowyn = *p.Elowyn
	}
	for _, id := range slices.Sorted(maps.Keys(p.Grudges)) {
		n := entry(root, "trex-meleed-by", id)
		g := p.Grudges[id]
		if unitOf(n, id, "TREX") == nil {
			continue
		}
		for _, by := range g.By {
			unitOf(n, by, "")
		}
		if st.Monsters.Meleed == nil {
			st.Monsters.Meleed = map[string]Grudge{}
		}
		st.Monsters.Meleed[id] = Grudge{Turn: g.Turn, By: slices.Clone(g.By)}
	}
	for i, x := range p.Collapsed { // where a major monster died (DR-DRAGON-DEAD-3)
		if h, ok := onMap(item(root, "collapsed", i), x); ok && !slices.Contains(st.Major.Collapsed, h) {
			st.Major.Collapsed = append(st.Major.Collapsed, h)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(p.HurtBy)) {
		n := entry(root, "hurt-by", id)
		if unitOf(n, id, "") == nil {
			continue
		}
		for _, by := range p.HurtBy[id] {
			unitOf(n, by, "")
		}
		if st.Major.HurtBy == nil {
			st.Major.HurtBy = map[string][]string{}
		}
		st.Major.HurtBy[id] = slices.Clone(p.HurtBy[id])
	}
	if d := p.Pending; d != nil {
		n := field(root, "decision")
		if d.Side != Invader && d.Side != Defender {
			c.at(field(n, "side"), "side is who answers the decision, invader or defender")
		}
		unitOf(field(n, "unit"), d.Unit, "")
		for _, id := range d.Units {
			unitOf(field(n, "units"), id, "")
		}
		onMap(field(n, "from"), d.From)
		onMap(field(n, "hex"), d.Hex)
		st.Pending = d.clone()
	}
}

// WritePosition writes a Dragon Rage state as a position (docs/positions.md)
// from which a game can be created. The current adjudication's traces are
// not part of a position, nor is a finished game's result.
func WritePosition(s adjudicator.State) ([]byte, error) {
	st := s.(*State)
	if st.Over {
		return nil, fmt.Errorf("the game is over: a finished game is no position to play from")
	}
	if st.Phase == phEnd {
		return nil, fmt.Errorf("the game stands in the automatic turn marker phase: no position to play from")
	}
	p := position{Goal: st.Goal, Turn: st.Turn, Phase: st.Phase, Pre: st.Pre, VP: st.VP,
		LastDamage: st.LastDamage, LastInside: st.LastInside, Waiting: st.Waiting,
		Destroyed: cloneMap(st.Destroyed), Bridges: cloneMap(st.Bridges), Grudges: st.Monsters.clone().Meleed,
		Collapsed: slices.Clone(st.Major.Collapsed), HurtBy: st.Major.clone().HurtBy,
		Pending: st.Pending.clone()}
	if st.First != Invader {
		p.First = string(st.First)
	}
	if st.mapSrc == nil {
		p.Map.SetString(st.Map)
	} else if err := yaml.Unmarshal(st.mapSrc, &p.Map); err != nil {
		return nil, err
	} else if p.Map.Kind == yaml.DocumentNode {
		p.Map = *p.Map.Content[0]
	}
	p.Scenario = st.Scenario
	for _, u := range st.Units {
		pu := posUnit{ID: u.ID, Type: u.Type, Side: string(u.Side), At: u.Hex, Gone: u.Gone, Wounded: u.Wounded, Damage: u.Damage,
			Ladder: u.Ladder, Moved: u.Moved, Attacked: u.Attacked, NoAttack: u.NoAttack,
			Facing: u.Facing, Flying: u.Flying, Breaths: u.Breaths, Mode: u.Mode, TookOff: u.TookOff, Spread: slices.Clone(u.Spread), Killer: u.Killer}
		for _, g := range u.Used {
			pu.Used = append(pu.Used, strings.Replace(g, "-", ".", 1))
		}
		if st.typ(u).IsMajor() {
			s := st.sheet(u)
			for _, a := range s.def.AreaNames() {
				if l := s.Lost(a); l > 0 {
					if pu.Sheet == nil {
						pu.Sheet = map[string]int{}
					}
					pu.Sheet[a] = l
				}
			}
		}
		switch {
		case u.Pool:
			pu.At = "pool"
		case u.Hex == "" && u.Gone:
			pu.At, pu.Gone = "gone", false
		case u.Hex == "":
			pu.At = "off-map"
		}
		if u.Side == "" {
			pu.Side = "none"
		}
		if st.typ(u).Casts() {
			sp := u.SP
			pu.SP = &sp
		}
		p.Units = append(p.Units, pu)
	}
	for k, e := range st.Entrances {
		if p.Entrances == nil {
			p.Entrances = map[string]posEntrance{}
		}
		p.Entrances[k] = posEntrance{Broken: e.Broken, Controller: string(e.Controller), OpenUntil: e.OpenUntil}
	}
	mg := st.Magic
	for _, f := range mg.Fogs {
		p.Fogs = append(p.Fogs, posMarker{Hex: f.Hex, Wizard: f.Wizard})
	}
	for _, x := range mg.Whirlwinds {
		p.Whirlwinds = append(p.Whirlwinds, posMarker{Hex: x.Hex, Wizard: x.Wizard, Age: x.Age})
	}
	for _, b := range mg.Boosts {
		p.Boosts = append(p.Boosts, posBoost{Wizard: b.Wizard, Hex: b.Hex, Radius: b.Radius, Units: slices.Clone(b.Units)})
	}
	for _, b := range mg.Bolts {
		p.Bolts = append(p.Bolts, posBolt{Wizard: b.Wizard, Target: b.Target, Power: b.Power})
	}
	for _, e := range mg.Elementals {
		p.Elementals = append(p.Elementals, posElemental{Unit: e.Unit, Wizard: e.Wizard, Side: string(e.Side), Controlled: e.Controlled, Turn: e.Turn, Pre: e.Pre})
	}
	if st.Elowyn != (elowynState{}) {
		e := st.Elowyn
		p.Elowyn = &e
	}
	return yaml.Marshal(&p)
}
