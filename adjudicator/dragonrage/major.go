package dragonrage

// Major monsters (§18): the Dragon, the Young Dragon, the Roc and the
// Wyvern. Their record sheets are module data (the "major:" entries of
// data/counters.yaml, DR-TABLE-MMT); this file holds what every chapter
// about them shares: the sheet and its damage (DR-MATK-9..12), facing and
// the positions around a monster (DR-HEX-7, DR-HEX-8), what the damage
// takes away (DR-MAJOR-5, DR-DRAGON-DEF-*), collapse (DR-DRAGON-DEAD-*),
// crashes (DR-DRAGON-CRASH-*), Killer markers (DR-YDRAGON-9), and the
// chapter's events and evolve function. Movement is in major_move.go,
// melee by and against them in major_melee.go, breath and fire in
// major_breath.go.

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// MajorDef is a major monster's record sheet and movement rules.
type MajorDef struct {
	Modes   []string `yaml:"modes"`   // walk, slither, bound, fly (DR-MAJOR-4)
	Fly     int      `yaml:"fly"`     // hexes per flight (DR-DRAGON-FLY-4, DR-YDRAGON-5c, DR-ROC-4)
	Bound   int      `yaml:"bound"`   // longest bound (DR-DRAGON-BOUND-2, DR-ROC-5)
	Overrun int      `yaml:"overrun"` // overrun attack strength, 0 = none (DR-OVR-4, -6); overrun moves are the type's "overrun"
	Breath  int      `yaml:"breath"`  // breaths per game (DR-DRAGON-BREATH-9, DR-YDRAGON-4)
	// BreathReach is how many hexes the breath goes (2, or 1 for the Young
	// Dragon, DR-AMB-21); BreathEscape is added to escape rolls against it
	// (DR-YDRAGON-4); BreathAloft says it may breathe on towers in flight
	// (DR-DRAGON-BREATH-2).
	BreathReach  int  `yaml:"breath-reach"`
	BreathEscape int  `yaml:"breath-escape"`
	BreathAloft  bool `yaml:"breath-aloft"`
	// CrashDice is the crash damage: 2 = 2d6, 1 = 1d6 (DR-DRAGON-CRASH-2,
	// DR-YDRAGON-5e).
	CrashDice int `yaml:"crash-dice"`
	// LandAttack: may attack in the turn it lands (DR-ROC-7); LeapLegs is the
	// leg groups' strength in a turn it bounds or lands (DR-ROC-9).
	LandAttack bool `yaml:"land-attack"`
	LeapLegs   int  `yaml:"leap-legs"`
	// Killer: its death or lost head enrages the Dragons (DR-YDRAGON-9);
	// Enraged: it is a Dragon that triples against Killers (DR-DRAGON-ATK-10).
	Killer  bool `yaml:"marks-killers"`
	Enraged bool `yaml:"enraged-by-killers"`
	// Smash is how it breaks entrances: "facing" (DR-SMASH-1, -2: doors by
	// facing, gates with MP) or "table" (the Climbing & Smashing table row
	// of its type, DR-AMB-18).
	Smash string `yaml:"smash"`
	// AnyEdge: it starts on any edge of the map, the N, S, E or W one, at
	// Nurkott too rather than off the map (DR-ROC-14, DR-SCEN-4, DR-SCEN-9).
	AnyEdge bool    `yaml:"any-edge"`
	Areas   []*Area `yaml:"areas"`
	Rule    string  `yaml:"rule"` // the rule the sheet is read from
}

// Area is one zone of the record sheet (DR-MATK-3, DR-TABLE-MMT).
type Area struct {
	Name     string   `yaml:"name"`     // head, wings, legs, belly
	Groups   []int    `yaml:"groups"`   // hit points of each group, in damage order (DR-MATK-9)
	Strength int      `yaml:"strength"` // attack strength of each group; 0 = no attack
	Hit      int      `yaml:"hit"`      // to-hit number (DR-MATK-3)
	Attacks  []string `yaml:"attacks"`  // where its groups reach: front3, front5, not-behind, around, under, above
	From     []string `yaml:"from"`     // where it may be attacked from: front, sides, around, under, above, anywhere
	Rule     string   `yaml:"rule"`
}

// Positions around a facing monster (DR-HEX-8).
const (
	posFront    = "front"      // the hex it faces
	posFront3   = "front3"     // the three front hexes
	posFront5   = "front5"     // the front and the four side hexes (the Roc's wings)
	posSides    = "sides"      // the four side hexes
	posBehind   = "behind"     // directly behind
	posNotBack  = "not-behind" // every neighbour but the one behind, and underneath and above
	posAround   = "around"     // all six neighbours
	posUnder    = "under"      // its own hex
	posAbove    = "above"      // an adjacent tower hex
	posAnywhere = "anywhere"   // around, underneath and above
)

// Movement modes (DR-DRAGON-MODE-1) and the other ways a monster's turn is
// spent, as the per-turn Mode of a unit records them.
const (
	modeWalk    = "walk"
	modeSlither = "slither"
	modeBound   = "bound"
	modeFly     = "fly"
	modeDrop    = "drop"  // a deliberate drop off a tower (DR-DRAGON-CRASH-5)
	modeCrash   = "crash" // a flight or bound that ended in a crash this turn
)

// major returns the record sheet of u's type, nil for every other unit.
func (st *State) major(u *Unit) *MajorDef { return st.typ(u).Major }

// IsMajor reports whether the type is a major monster (§18).
func (t *UnitType) IsMajor() bool { return t.Major != nil }

// facing returns a major monster's facing.
func (u *Unit) facing() hex.Direction {
	d, err := hex.ParseDirection(u.Facing)
	if err != nil {
		return hex.N
	}
	return d
}

// values is the record sheet in short, as the counter's values: each
// area's groups × attack strength and hit points, and its to-hit number:
// "head 1×3 8HP 6+, wings 2×2 6HP 4+, legs 4×1 3HP 5+, belly 6HP 4+".
func (m *MajorDef) values() string {
	var parts []string
	for _, a := range m.Areas {
		p := a.Name + " "
		if a.Strength > 0 {
			p += fmt.Sprintf("%d×%d ", len(a.Groups), a.Strength)
		} else if len(a.Groups) > 1 {
			p += fmt.Sprintf("%d× ", len(a.Groups))
		}
		parts = append(parts, p+fmt.Sprintf("%dHP %d+", a.Groups[0], a.Hit))
	}
	return strings.Join(parts, ", ")
}

// area returns the named area of a record sheet, or nil.
func (m *MajorDef) area(name string) *Area {
	for _, a := range m.Areas {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// has reports whether the monster has that movement mode.
func (m *MajorDef) has(mode string) bool { return slices.Contains(m.Modes, mode) }

// AreaNames lists the areas, in sheet order.
func (m *MajorDef) AreaNames() []string {
	var out []string
	for _, a := range m.Areas {
		out = append(out, a.Name)
	}
	return out
}

// groupBase returns the index in Unit.Hits of the area's first group.
func (m *MajorDef) groupBase(name string) int {
	n := 0
	for _, a := range m.Areas {
		if a.Name == name {
			return n
		}
		n += len(a.Groups)
	}
	return -1
}

// Sheet is a major monster's damage, area by area: for each group, the
// hit points lost.
type Sheet struct {
	def  *MajorDef
	hits []int
}

// sheet returns u's record sheet (DR-COMP-13).
func (st *State) sheet(u *Unit) Sheet {
	m := st.major(u)
	n := 0
	for _, a := range m.Areas {
		n += len(a.Groups)
	}
	hits := make([]int, n)
	copy(hits, u.Hits)
	return Sheet{def: m, hits: hits}
}

// lost returns the hit points lost in each group of an area.
func (s Sheet) lost(area string) []int {
	a := s.def.area(area)
	if a == nil {
		return nil
	}
	b := s.def.groupBase(area)
	return s.hits[b : b+len(a.Groups)]
}

// Intact returns how many of an area's groups are not destroyed
// (DR-MATK-10).
func (s Sheet) Intact(area string) int {
	a := s.def.area(area)
	if a == nil {
		return 0
	}
	n := 0
	for i, l := range s.lost(area) {
		if l < a.Groups[i] {
			n++
		}
	}
	return n
}

// Lost returns the hit points an area has lost.
func (s Sheet) Lost(area string) int {
	n := 0
	for _, l := range s.lost(area) {
		n += l
	}
	return n
}

// Total returns an area's hit points; 0 if the monster has no such area.
func (s Sheet) Total(area string) int {
	a := s.def.area(area)
	if a == nil {
		return 0
	}
	n := 0
	for _, g := range a.Groups {
		n += g
	}
	return n
}

// Destroyed reports whether every group of the area is destroyed
// (DR-MATK-11). A monster without the area has it "destroyed".
func (s Sheet) Destroyed(area string) bool { return s.Intact(area) == 0 }

// lessThanHalfLost reports whether an area has lost strictly less than half
// its points (DR-AMB-10); true for a monster without the area.
func (s Sheet) lessThanHalfLost(area string) bool {
	return s.def.area(area) == nil || 2*s.Lost(area) < s.Total(area)
}

// MP is a walking monster's movement points: one per leg group not
// destroyed (DR-DRAGON-WALK-1, DR-AMB-63, DR-DRAGON-DEF-8).
func (s Sheet) MP() int { return s.Intact("legs") }

// MayBound reports whether the legs and wings allow a bound; fromTower
// waives the legs (DR-DRAGON-BOUND-1, DR-DRAGON-DEF-6, DR-AMB-10).
func (s Sheet) MayBound(fromTower bool) bool {
	return s.def.has(modeBound) && s.lessThanHalfLost("wings") && (fromTower || s.lessThanHalfLost("legs"))
}

// MayFly reports whether the wings carry it (DR-DRAGON-FLY-1).
func (s Sheet) MayFly() bool { return s.def.has(modeFly) && s.lessThanHalfLost("wings") }

// MayTakeOff reports whether it may take off from the ground; from a tower
// the legs do not matter (DR-DRAGON-FLY-1, DR-DRAGON-DEF-8).
func (s Sheet) MayTakeOff(fromTower bool) bool {
	return s.MayFly() && (fromTower || s.lessThanHalfLost("legs"))
}

// Berserk reports whether the head is destroyed (DR-DRAGON-DEF-2,
// DR-YDRAGON-7, DR-ROC-11, DR-WYVERN-10).
func (s Sheet) Berserk() bool { return s.def.area("head") != nil && s.Destroyed("head") }

// Dead reports whether the belly is destroyed (DR-DRAGON-DEF-10).
func (s Sheet) Dead() bool { return s.def.area("belly") != nil && s.Destroyed("belly") }

// Strength is the attack strength of an area's groups still intact.
func (s Sheet) Strength(area string) int {
	a := s.def.area(area)
	if a == nil {
		return 0
	}
	return a.Strength * s.Intact(area)
}

// String is the record sheet as a report line: "head 3/8, wings 0/6 6/6…",
// each group's hit points left of its total.
func (s Sheet) String() string {
	var parts []string
	for _, a := range s.def.Areas {
		var gs []string
		for i, l := range s.lost(a.Name) {
			gs = append(gs, fmt.Sprintf("%d/%d", a.Groups[i]-l, a.Groups[i]))
		}
		parts = append(parts, a.Name+" "+strings.Join(gs, " "))
	}
	return strings.Join(parts, ", ")
}

// absorb applies damage to an area: the first group not yet destroyed
// takes it first, the rest goes on to the next (DR-MATK-9); what the area
// cannot absorb is lost (DR-MATK-11, DR-MATK-12). It returns the points
// taken.
func absorb(def *MajorDef, hits []int, area string, n int) int {
	a := def.area(area)
	if a == nil || n <= 0 {
		return 0
	}
	b := def.groupBase(area)
	taken := 0
	for i, hp := range a.Groups {
		if n == 0 {
			break
		}
		room := hp - hits[b+i]
		if room <= 0 {
			continue
		}
		d := min(room, n)
		hits[b+i] += d
		n -= d
		taken += d
	}
	return taken
}

// relation returns the named positions (DR-HEX-8) that hex from holds
// around the monster u: "under" for its own hex; for a neighbour, the
// positions of that direction, plus "above" when from is a tower hex.
func (w *world) relation(u *Unit, from hex.Hex) []string {
	at := w.st.hexOf(u)
	if from == at {
		return []string{posUnder, posNotBack, posAnywhere}
	}
	if !at.Adjacent(from) {
		return nil
	}
	f := u.facing()
	var out []string
	switch from {
	case hex.Front(at, f):
		out = append(out, posFront, posFront3, posFront5, posNotBack)
	case hex.Behind(at, f):
		out = append(out, posBehind)
	default:
		out = append(out, posSides, posFront5, posNotBack)
		if from == at.Neighbour(f.Left()) || from == at.Neighbour(f.Right()) {
			out = append(out, posFront3)
		}
	}
	out = append(out, posAround, posAnywhere)
	if w.m.Terrain(from) == "tower" {
		out = append(out, posAbove)
	}
	return out
}

// reaches reports whether one of the positions of from is in list.
func (w *world) reaches(u *Unit, from hex.Hex, list []string) bool {
	for _, p := range w.relation(u, from) {
		if slices.Contains(list, p) {
			return true
		}
	}
	return false
}

// The chapter's events. Their names are stored in every game's log: never
// rename one.
type (
	// MajorPlaced sets a major monster's facing and flight, at setup, after
	// a move, a crash or a landing.
	MajorPlaced struct {
		Unit   string `json:"unit"`
		Facing string `json:"facing"`
		Flying bool   `json:"flying,omitempty"`
		Mode   string `json:"mode,omitempty"` // the movement mode this turn, when it moved
		// TookOff: the flight began on the ground this turn
		// (DR-DRAGON-FLY-2, DR-DRAGON-BREATH-2).
		TookOff bool `json:"took_off,omitempty"`
	}
	// MajorDamaged is damage to an area of a major monster's sheet; evolve
	// spreads it over the groups (DR-MATK-9..12). By is the unit that did
	// it, when one did (Killer markers, DR-YDRAGON-9).
	MajorDamaged struct {
		Unit   string `json:"unit"`
		Area   string `json:"area"`
		Points int    `json:"points"`
		By     string `json:"by,omitempty"`
	}
	// GroupsUsed records the groups of a monster that attacked this turn
	// (DR-AMB-42: each group attacks once), as "head", "wings-2", …
	GroupsUsed struct {
		Unit   string   `json:"unit"`
		Groups []string `json:"groups"`
	}
	// KillerMarked puts a Killer marker on a unit (DR-YDRAGON-9, DR-MARK-8).
	KillerMarked struct {
		Unit string `json:"unit"`
		For  string `json:"for"` // the Young Dragon
	}
	// Collapsed records a dead major monster's hex, impassable from now on
	// (DR-DRAGON-DEAD-3, DR-TERR-8).
	Collapsed struct {
		Unit string `json:"unit"`
		Hex  string `json:"hex"`
	}
	// SpreadSet records the owner's standing order for spreading the
	// damage he chooses where to put (DR-DRAGON-CRASH-2, DR-PBEM-32).
	SpreadSet struct {
		Unit  string   `json:"unit"`
		Areas []string `json:"areas"`
	}
	// Breathed uses one of a monster's breaths (DR-DRAGON-BREATH-9).
	Breathed struct {
		Unit  string   `json:"unit"`
		Hexes []string `json:"hexes"`
	}
)

func (*MajorPlaced) EventType() string  { return "dragonrage.major-placed" }
func (*MajorDamaged) EventType() string { return "dragonrage.major-damaged" }
func (*GroupsUsed) EventType() string   { return "dragonrage.groups-used" }
func (*KillerMarked) EventType() string { return "dragonrage.killer-marked" }
func (*Collapsed) EventType() string    { return "dragonrage.collapsed" }
func (*Breathed) EventType() string     { return "dragonrage.breathed" }
func (*SpreadSet) EventType() string    { return "dragonrage.spread-set" }

var majorEvents = []adjudicator.EventType{
	{Name: "dragonrage.major-placed", Schema: 1, New: func() adjudicator.Event { return new(MajorPlaced) }},
	{Name: "dragonrage.major-damaged", Schema: 1, New: func() adjudicator.Event { return new(MajorDamaged) }},
	{Name: "dragonrage.groups-used", Schema: 1, New: func() adjudicator.Event { return new(GroupsUsed) }},
	{Name: "dragonrage.killer-marked", Schema: 1, New: func() adjudicator.Event { return new(KillerMarked) }},
	{Name: "dragonrage.collapsed", Schema: 1, New: func() adjudicator.Event { return new(Collapsed) }},
	{Name: "dragonrage.breathed", Schema: 1, New: func() adjudicator.Event { return new(Breathed) }},
	{Name: "dragonrage.spread-set", Schema: 1, New: func() adjudicator.Event { return new(SpreadSet) }},
}

// majorState is what the chapter remembers besides the units' own fields.
type majorState struct {
	// Collapsed is the hexes where a major monster died: impassable to
	// every unit, flown and bounded over (DR-DRAGON-DEAD-3).
	Collapsed []string `json:"collapsed,omitempty"`
	// HurtBy lists, per major monster, the units that damaged it in the
	// current game turn (Killer markers, DR-YDRAGON-9); a new turn clears it.
	HurtBy map[string][]string `json:"hurt_by,omitempty"`
}

func (m majorState) clone() majorState {
	c := majorState{Collapsed: slices.Clone(m.Collapsed)}
	if m.HurtBy != nil {
		c.HurtBy = make(map[string][]string, len(m.HurtBy))
		for k, v := range m.HurtBy {
			c.HurtBy[k] = slices.Clone(v)
		}
	}
	return c
}

func evolveMajor(st *State, ev adjudicator.Event) bool {
	switch e := ev.(type) {
	case *MajorPlaced:
		u := st.unit(e.Unit)
		u.Facing, u.Flying = e.Facing, e.Flying
		if e.Mode != "" {
			u.Mode = e.Mode
		}
		u.TookOff = u.TookOff || e.TookOff
	case *MajorDamaged:
		u := st.unit(e.Unit)
		s := st.sheet(u)
		absorb(s.def, s.hits, e.Area, e.Points)
		u.Hits = s.hits
		if e.By != "" {
			if st.Major.HurtBy == nil {
				st.Major.HurtBy = map[string][]string{}
			}
			if !slices.Contains(st.Major.HurtBy[e.Unit], e.By) {
				st.Major.HurtBy[e.Unit] = append(st.Major.HurtBy[e.Unit], e.By)
			}
		}
	case *GroupsUsed:
		u := st.unit(e.Unit)
		u.Used = append(u.Used, e.Groups...)
	case *KillerMarked:
		st.unit(e.Unit).Killer = true
	case *Collapsed:
		if !slices.Contains(st.Major.Collapsed, e.Hex) {
			st.Major.Collapsed = append(st.Major.Collapsed, e.Hex)
		}
	case *Breathed:
		st.unit(e.Unit).Breaths++
	case *SpreadSet:
		st.unit(e.Unit).Spread = slices.Clone(e.Areas)
	default:
		return false
	}
	return true
}

// collapsedHex reports whether a major monster died in h (DR-TERR-8).
func (st *State) collapsedHex(h string) bool { return slices.Contains(st.Major.Collapsed, h) }

// damageMajor does n points of damage to an area of the major monster u,
// says so, and carries out what the damage causes: a head destroyed makes
// it berserk (DR-DRAGON-DEF-2), a belly destroyed kills it
// (DR-DRAGON-DEF-10), a flyer whose wings fall to half crashes
// (DR-DRAGON-CRASH-1, DR-AMB-10), a Young Dragon's death or lost head
// marks its killers (DR-YDRAGON-9). by is the unit that did it, or nil.
func (w *world) damageMajor(u *Unit, area string, n int, by *Unit, cause string) {
	if u.Gone || n <= 0 {
		return
	}
	before := w.st.sheet(u)
	if before.def.area(area) == nil {
		w.sayf("%s has no %s: the %d point(s) of %s are lost", u.ID, area, n, cause)
		return
	}
	if before.Destroyed(area) {
		w.sayf("%s's %s is already destroyed: the %d point(s) of %s have no effect (DR-MATK-11)", u.ID, area, n, cause)
		return
	}
	ev := &MajorDamaged{Unit: u.ID, Area: area, Points: n}
	if by != nil {
		ev.By = by.ID
	}
	w.emit(ev)
	after := w.st.sheet(u)
	taken := after.Lost(area) - before.Lost(area)
	msg := fmt.Sprintf("%s takes %d damage to the %s (%s)", u.ID, taken, area, cause)
	if taken < n {
		msg += fmt.Sprintf("; %d more are lost (DR-MATK-12)", n-taken)
	}
	if d := before.Intact(area) - after.Intact(area); d > 0 {
		msg += fmt.Sprintf("; %d %s group(s) destroyed (DR-MATK-10)", d, area)
	}
	w.sayf("%s: %s", msg, after)
	switch {
	case after.Dead() && !before.Dead():
		w.majorDies(u, "its belly is destroyed: it collapses and dies (DR-DRAGON-DEF-10; every major monster, DR-MAJOR-1, DR-ROC-12, DR-WYVERN-11)")
		return
	case after.Berserk() && !before.Berserk():
		w.sayf("%s's head is destroyed: it can no longer breathe or bite, and goes berserk (DR-DRAGON-DEF-2)", u.ID)
		w.markKillers(u)
	}
	if u.Flying && !after.MayFly() && before.MayFly() {
		w.crash(u, "its wings fell to half while it was flying (DR-DRAGON-CRASH-1, DR-AMB-10)", nil)
	}
}

// markKillers puts a Killer marker on every unit that damaged a Young
// Dragon this turn, when it dies or loses its head, if a Dragon is in play
// to be enraged (DR-YDRAGON-9).
func (w *world) markKillers(u *Unit) {
	m := w.st.major(u)
	if !m.Killer {
		return
	}
	enraged := false
	for _, x := range w.st.Units {
		if !x.Gone && !x.Pool && w.st.typ(x).IsMajor() && w.st.major(x).Enraged {
			enraged = true
		}
	}
	var marked []string
	for _, id := range w.st.Major.HurtBy[u.ID] {
		x := w.st.unit(id)
		if x == nil || x.Gone || x.Killer {
			continue
		}
		w.emit(&KillerMarked{Unit: id, For: u.ID})
		marked = append(marked, id)
	}
	if len(marked) == 0 {
		return
	}
	note := ""
	if !enraged {
		note = " (no Dragon is in play to be enraged now; the markers stay for the rest of the game)"
	}
	w.sayf("the Dragons are enraged against %s's killers: Killer markers on %s (DR-YDRAGON-9)%s", u.ID, strings.Join(marked, ", "), note)
}

// majorDies removes a dead major monster: it collapses in its hex, every
// other unit there rolls to escape or is crushed, the VP there are
// destroyed and scored, and the hex becomes impassable
// (DR-DRAGON-DEAD-1..3, DR-VP-11, DR-ROC-12, DR-WYVERN-11, DR-YDRAGON-8).
func (w *world) majorDies(u *Unit, cause string) {
	h := u.Hex
	w.markKillers(u)
	if u.Flying {
		// A flyer that dies in the air falls into the hex below, where it
		// collapses (DR-DRAGON-CRASH-2, DR-DRAGON-DEAD-1).
		w.emit(&MajorPlaced{Unit: u.ID, Facing: u.Facing})
	}
	w.emit(&Eliminated{Unit: u.ID, Cause: cause})
	w.sayf("%s dies: %s", u.ID, cause)
	if h == "" {
		return
	}
	w.emit(&Collapsed{Unit: u.ID, Hex: h})
	hx, _ := hex.Parse(h)
	w.crushed(hx, u, "under "+u.ID+"'s body", "crushed under "+u.ID+"'s body (DR-DRAGON-DEAD-1)")
	w.destroyVP(hx, u, u.ID+" collapses on it (DR-DRAGON-DEAD-2)")
	w.sayf("%s is impassable from now on, but may be flown or bounded over (DR-DRAGON-DEAD-3)", h)
	w.afterElimination(u)
	w.checkVictory()
}

// crushed makes every unit in h other than the monster roll to escape
// (1d6 ≥ escape number) or die; siege engines have no roll
// (DR-DRAGON-CRASH-4, DR-DRAGON-DEAD-1, DR-SIEGE-2, DR-AMB-76).
func (w *world) crushed(h hex.Hex, by *Unit, what, cause string) {
	for _, x := range w.st.at(h.String()) {
		if x.ID == by.ID || x.Gone || (x.Flying && x != by) {
			continue
		}
		w.escapeOrDie(x, 0, what, cause)
	}
}

// escapeOrDie rolls a unit's escape roll with a modifier: 1d6 + mod ≥ its
// escape number — the roll's label says what from ("from DRAGON-1's
// breath", "under DRAGON-1's crash", DR-DICE-8, -9) — or it is eliminated (a hero or Elowyn is wounded first,
// DR-AMB-76). A unit with no escape number (siege engines) is destroyed
// with no roll (DR-SIEGE-2). Major monsters make no escape rolls.
func (w *world) escapeOrDie(x *Unit, mod int, what, cause string) bool {
	t := w.st.typ(x)
	if t.IsMajor() {
		return true
	}
	if t.Escape == 0 {
		why := "it has no escape number"
		if t.Kind == "siege" {
			why = "a siege engine has no escape roll (DR-SIEGE-2)"
		}
		w.kill(x, cause+"; "+why)
		return false
	}
	roll := w.roll(fmt.Sprintf("escape roll of %s in %s %s", x.ID, x.Hex, what), 1)
	need := t.Escape
	ok := roll.Total+mod >= need
	modText := ""
	if mod != 0 {
		modText = fmt.Sprintf(", %+d", mod)
	}
	needs := fmt.Sprintf("needs %d+", need-mod)
	if need-mod <= 1 {
		needs = "escapes on any roll" // the modifier makes up the whole escape number
	}
	roll.Outcome = fmt.Sprintf("%s (escape number %d%s): %s", needs, need, modText, map[bool]string{true: "escapes", false: "fails"}[ok])
	w.sayf("%s: %s", roll.Label, roll.Outcome)
	if ok {
		return true
	}
	w.kill(x, cause) // a hero or Elowyn is wounded first (DR-AMB-76)
	return false
}

// crash brings a flying or bounding monster down in its hex: 2d6 damage
// (1d6 for a Young Dragon) spread by its owner over the areas not yet
// destroyed (DR-DRAGON-CRASH-2, DR-AMB-53, in the order of spread, the
// order the move gave, else the owner's standing order, else the default), death in river or
// sea or on a wooden bridge (DR-DRAGON-CRASH-3, DR-MAP-12, DR-AMB-47),
// escape rolls for the units in the hex and every VP and wooden bridge
// there destroyed (DR-DRAGON-CRASH-4, DR-VP-11, DR-BRIDGE-8). It keeps its
// facing (DR-AMB-77) and is on the ground after (DR-DRAGON-CRASH-6).
func (w *world) crash(u *Unit, cause string, spread []string) {
	m := w.st.major(u)
	h := w.st.hexOf(u)
	mode := ""
	if u.Mode == modeFly || u.Mode == modeBound {
		mode = modeCrash // its move ended in a crash: no attack or breath this turn
	}
	w.emit(&MajorPlaced{Unit: u.ID, Facing: u.Facing, Flying: false, Mode: mode})
	w.sayf("%s crashes in %s: %s", u.ID, h, cause)
	roll := w.roll(fmt.Sprintf("crash damage of %s in %s", u.ID, h), max(m.CrashDice, 1))
	total := roll.Total
	roll.Outcome = fmt.Sprintf("%d damage, spread by the %s over its areas (DR-DRAGON-CRASH-2, DR-AMB-53)", total, u.Side)
	w.sayf("%s: %s", roll.Label, roll.Outcome)
	if b, ok := w.m.Bridge(h); ok && b.Kind == "wooden" && w.bridgeState(h) != "burned" {
		w.emit(&BridgeChanged{Hex: h.String(), State: "burned"})
		w.sayf("the wooden bridge in %s is destroyed by the crash (DR-BRIDGE-8)", h)
		w.majorDies(u, "it crashed onto a wooden bridge and fell into the river (DR-AMB-47)")
		return
	}
	if w.crashDrowns(h) {
		w.majorDies(u, "it crashed into the water (DR-DRAGON-CRASH-3, DR-MAP-12)")
		return
	}
	w.crushed(h, u, "under "+u.ID+"'s crash", "caught under "+u.ID+"'s crash (DR-DRAGON-CRASH-4)")
	w.destroyVP(h, u, u.ID+" crashed on it (DR-DRAGON-CRASH-4)")
	if spread == nil {
		spread = u.Spread // the owner's standing order (DR-PBEM-32)
	}
	for _, area := range crashOrder(m, spread) {
		if total == 0 || u.Gone {
			break
		}
		s := w.st.sheet(u)
		if s.Destroyed(area) {
			continue
		}
		room := s.Total(area) - s.Lost(area)
		d := min(room, total)
		total -= d
		w.damageMajor(u, area, d, nil, "crash")
	}
}

// crashOrder is the order crash damage is spread in: the areas the owner
// listed, then the rest in the default order — legs, wings, head, belly —
// so that a crash kills only when every other area is gone.
func crashOrder(m *MajorDef, spread []string) []string {
	out := slices.Clone(spread)
	for _, a := range []string{"legs", "wings", "head", "belly"} {
		if m.area(a) != nil && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// crashDrowns reports whether a crash into h kills: a river or sea hex, or
// at Nurkott any hex with water in it (DR-DRAGON-CRASH-3, DR-MAP-12).
func (w *world) crashDrowns(h hex.Hex) bool {
	switch w.m.Terrain(h) {
	case "river", "sea", "ford":
		return true
	}
	return w.st.Map == "nurkott" && w.wet(h)
}

// setupFacing reads a major monster's setup line, "0403 SE": the hex and
// the hexside it faces (DR-HEX-7). It returns the hex part as a node of
// its own, and the facing; other units' lines are returned as they are.
func (w *world) setupFacing(u *Unit, v *yaml.Node) (*yaml.Node, string, error) {
	if !w.st.typ(u).IsMajor() {
		return v, "", nil
	}
	fs := strings.Fields(v.Value)
	if v.Kind != yaml.ScalarNode || len(fs) != 2 {
		return nil, "", adjudicator.Errorf(v, adjudicator.CodeBadValue, "give %s's hex and the hexside it faces, e.g. %s: \"0403 SE\" (facings N, NE, SE, S, SW, NW; DR-HEX-7)", u.ID, u.ID)
	}
	if strings.Trim(fs[0], "_") == "" {
		return nil, "", adjudicator.Errorf(v, codeBadHex, "replace %s by a hex for %s in %s, and keep or change its facing (%s)", fs[0], u.ID, strings.Join(w.zonesOn(u), " or "), fs[1])
	}
	d, err := hex.ParseDirection(fs[1])
	if err != nil {
		return nil, "", adjudicator.Errorf(v, adjudicator.CodeBadValue, "%q is not a facing: write N, NE, SE, S, SW or NW after the hex (DR-HEX-7)", fs[1])
	}
	hn := *v
	hn.Value = fs[0]
	return &hn, d.String(), nil
}

// majorView shows a major monster's facing, flight and record sheet, group
// by group (DR-COMP-10, DR-COMP-11, DR-COMP-13), and what its damage has
// taken away.
func majorView(st *State, u *Unit, uv *adjudicator.UnitView) {
	uv.Facing, uv.Flying = u.Facing, u.Flying
	s := st.sheet(u)
	for _, a := range s.def.Areas {
		for i, l := range s.lost(a.Name) {
			d := adjudicator.Damage{Area: a.Name, Left: a.Groups[i] - l, Of: a.Groups[i]}
			if len(a.Groups) > 1 {
				d.Group = fmt.Sprint(i + 1)
			}
			uv.Damage = append(uv.Damage, d)
		}
	}
	if u.Flying {
		uv.Status = append(uv.Status, "flying")
	}
	if s.Berserk() {
		uv.Status = append(uv.Status, "berserk")
	}
	if m := s.def; m.Breath > 0 {
		uv.Status = append(uv.Status, fmt.Sprintf("breath %d of %d left", max(m.Breath-u.Breaths, 0), m.Breath))
	}
}
