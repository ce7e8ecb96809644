package dragonrage

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// Point games (§20, §21): in a point scenario (DR-PTS-2) each side builds
// its army in secret within its points, before setup. Both "build"
// requests are due at once and hidden, so the engine seals each answer
// until the one adjudication that uses both; that adjudication reveals
// the armies, creates their units, sets the VP goal by DR-THR-1 and starts
// the setup phase of the fixed scenarios. The weighted scenario
// (DR-PTS-1), where one player builds both armies and the other picks a
// side, is in weighted.go.

// phBuild is the phase in which both sides build their armies.
const phBuild = "build"

func init() {
	phases[phBuild] = phaseInfo{Invader, "build", "army building (point scenario)"}
}

// Order error codes of army building.
const (
	codeUnknownType = "unknown-type"  // no counter of that name can be bought
	codeNotBuyable  = "not-buyable"   // this side may not buy that counter here
	codeOverPoints  = "over-points"   // the army costs more than the side's points
	codeOverMix     = "over-counters" // more counters than the box holds
)

// PointType is one line of Table DR-TABLE-POINTS, with umpire's additions.
type PointType struct {
	Code     string   `yaml:"-"`
	Name     string   `yaml:"name"`
	Points   float64  `yaml:"points"`
	Invader  float64  `yaml:"invader"`
	Defender float64  `yaml:"defender"`
	Colour   string   `yaml:"colour"` // human, greenskin, monster, both
	Rule     string   `yaml:"rule"`
	Counters int      `yaml:"counters"`
	Assumed  []string `yaml:"assumed"`
	Playable *bool    `yaml:"playable"`
}

// half is the type's cost for side, in half points (2.5 points is 5).
func (t *PointType) half(side adjudicator.Side) int {
	p := t.Points
	switch {
	case side == Invader && t.Invader > 0:
		p = t.Invader
	case side == Defender && t.Defender > 0:
		p = t.Defender
	}
	return int(p * 2)
}

// PointScenario is a point scenario: a map and each side's points. In a
// weighted scenario (DR-PTS-1) the points are ranges, from the mins to
// Invader and Defender, and Units bounds the units of both armies
// together.
type PointScenario struct {
	ID          string `yaml:"id"`
	Rule        string `yaml:"rule"`
	Title       string `yaml:"title"`
	Map         string `yaml:"map"`
	Weighted    bool   `yaml:"weighted"`
	Invader     int    `yaml:"invader"`
	Defender    int    `yaml:"defender"`
	InvaderMin  int    `yaml:"invader-min"`
	DefenderMin int    `yaml:"defender-min"`
	Units       []int  `yaml:"units"` // [min, max], both armies together
}

// check says what is wrong with a scenario of data/points.yaml.
func (s *PointScenario) check() error {
	switch {
	case s.Invader <= 0 || s.Defender <= 0:
		return fmt.Errorf("%s: give each side its points", s.ID)
	case !s.Weighted && (s.InvaderMin != 0 || s.DefenderMin != 0 || s.Units != nil):
		return fmt.Errorf("%s: point ranges and unit counts are for weighted scenarios", s.ID)
	case s.Weighted && (s.InvaderMin <= 0 || s.InvaderMin > s.Invader || s.DefenderMin <= 0 || s.DefenderMin > s.Defender):
		return fmt.Errorf("%s: a weighted scenario's points run from invader-min to invader and from defender-min to defender", s.ID)
	case s.Weighted && (len(s.Units) != 2 || s.Units[0] < 1 || s.Units[0] > s.Units[1]):
		return fmt.Errorf("%s: a weighted scenario bounds the units of both armies: units: [MIN, MAX]", s.ID)
	}
	return nil
}

// PointData is data/points.yaml.
type PointData struct {
	Types     map[string]*PointType `yaml:"types"`
	Scenarios []*PointScenario      `yaml:"scenarios"`
}

var (
	pointsOnce sync.Once
	pointsData *PointData
	pointsErr  error
)

// Points returns the point table and the point scenarios shipped with umpire.
func Points() (*PointData, error) {
	pointsOnce.Do(func() {
		b, err := dataFS.ReadFile("data/points.yaml")
		if err != nil {
			pointsErr = err
			return
		}
		var p PointData
		if err := yamlx.Unmarshal(b, &p); err != nil {
			pointsErr = fmt.Errorf("dragonrage data/points.yaml: %w", err)
			return
		}
		for code, t := range p.Types {
			t.Code = code
			if t.Points == 0 && (t.Invader == 0 || t.Defender == 0) {
				pointsErr = fmt.Errorf("dragonrage data/points.yaml: %s has no point value for a side", code)
				return
			}
		}
		for _, sc := range p.Scenarios {
			if err := sc.check(); err != nil {
				pointsErr = fmt.Errorf("dragonrage data/points.yaml: %w", err)
				return
			}
		}
		pointsData = &p
	})
	return pointsData, pointsErr
}

// scenario returns a point scenario by id.
func (p *PointData) scenario(id string) (*PointScenario, bool) {
	for _, s := range p.Scenarios {
		if s.ID == id {
			return s, true
		}
	}
	return nil, false
}

// halfText writes half points as points: 5 is "2.5", 160 is "80".
func halfText(h int) string {
	if h%2 == 0 {
		return strconv.Itoa(h / 2)
	}
	return fmt.Sprintf("%d.5", h/2)
}

// budgets returns each side's points, in half points: the scenario's (the
// top of its ranges in a weighted scenario), or the option
// points=INVADER/DEFENDER.
func budgets(sc *PointScenario, opts map[string]string) (inv, def int, err error) {
	inv, def = sc.Invader*2, sc.Defender*2
	v, ok := opts["points"]
	if !ok {
		return inv, def, nil
	}
	if sc.Weighted {
		return 0, 0, fmt.Errorf("option points=%s: the weighted scenario's points are ranges, the invader %d to %d and the defender %d to %d (%s); leave the option out", v, sc.InvaderMin, sc.Invader, sc.DefenderMin, sc.Defender, sc.Rule)
	}
	i, d, err := parsePoints(v)
	return i * 2, d * 2, err
}

// armyLimits are the points one army may cost, in half points, and the
// rule that says so.
type armyLimits struct {
	min, max int // min 0: no floor
	rule     string
}

// armyLimits returns what side's army may cost in this point game.
func (st *State) armyLimits(side adjudicator.Side) armyLimits {
	sc, inv, def := st.pointBudgets()
	lim := armyLimits{max: inv, rule: sc.Rule}
	if st.campaignGame() > 0 {
		lim.rule = "DR-CAMP-4" // the points are the side's potential
	}
	if side == Defender {
		lim.max = def
	}
	if sc.Weighted {
		lim.min = map[adjudicator.Side]int{Invader: sc.InvaderMin, Defender: sc.DefenderMin}[side] * 2
	}
	return lim
}

// text is the limits as a player reads them: "80" or "80 to 85".
func (l armyLimits) text() string {
	if l.min == 0 {
		return halfText(l.max)
	}
	return halfText(l.min) + " to " + halfText(l.max)
}

// parsePoints reads the option points=INVADER/DEFENDER.
func parsePoints(v string) (inv, def int, err error) {
	a, b, found := strings.Cut(v, "/")
	i, e1 := strconv.Atoi(a)
	d, e2 := strconv.Atoi(b)
	if !found || e1 != nil || e2 != nil || i <= 0 || d <= 0 || i > 500 || d > 500 {
		return 0, 0, fmt.Errorf("option points=%s: write INVADER/DEFENDER in whole points from 1 to 500, e.g. points=80/75 (DR-PTS-2)", v)
	}
	return i, d, nil
}

// goalAdjust reads the option goal-adjust=N: a whole number, signed, added
// to any scenario's goal (DR-THR-2, and the handicap of DR-HCAP-3).
func goalAdjust(opts map[string]string) (int, error) {
	v, ok := opts["goal-adjust"]
	if !ok {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(v, "+"))
	if err != nil || n < -30 || n > 30 {
		return 0, fmt.Errorf("option goal-adjust=%s: give a whole number from -30 to +30, e.g. goal-adjust=+2 (DR-THR-2, DR-HCAP-3)", v)
	}
	return n, nil
}

// setupPoints builds the state of a point scenario: no units yet (but
// Elowyn, who is never bought), both sides to build their armies.
func setupPoints(s adjudicator.Setup, sc *PointScenario) (*State, error) {
	d, err := Embedded()
	if err != nil {
		return nil, err
	}
	if err := checkOptions(s.Options, false); err != nil {
		return nil, err
	}
	for k := range s.Options {
		if strings.HasPrefix(k, forcesPrefix) {
			return nil, fmt.Errorf("option %s: in a point scenario each side builds its army (DR-PTS-2); the forces options are for the fixed scenarios", k)
		}
	}
	if _, _, err := budgets(sc, s.Options); err != nil {
		return nil, err
	}
	if err := checkCampaignScenario(sc.ID, false, sc.Weighted, s.Options); err != nil {
		return nil, err
	}
	if v, ok := s.Options["goal-adjust"]; ok && sc.Weighted {
		return nil, fmt.Errorf("option goal-adjust=%s: in the weighted scenario the builder sets the VP goal with the armies (%s, DR-THR-2), and a handicap (DR-HCAP-3) depends on the side the better player takes, chosen after the build; leave the option out", v, sc.Rule)
	}
	types, err := d.withOverrides(s.Options)
	if err != nil {
		return nil, err
	}
	m, err := loadBoard(sc.Map)
	if err != nil {
		return nil, err
	}
	// Units is a list from the start, empty until the armies come, as a
	// scenario's setup has it.
	st := &State{Scenario: sc.ID, Map: sc.Map, First: Invader, Phase: phBuild, Units: []*Unit{},
		Options: cloneMap(s.Options), types: types, board: m}
	if s.Options["elowyn"] == "on" {
		st.Units = append(st.Units, &Unit{ID: "ELW-1", Type: "ELW", Side: Defender})
	}
	// Until the armies are known, the goal shown is the formula's without them.
	st.Goal, _ = st.pointGoal(nil)
	return st, nil
}

// pointPhase reports whether the game is in a point game's phases before
// the setup, where points.go and weighted.go answer for the ruleset.
func (st *State) pointPhase() bool {
	return (st.Phase == phBuild || st.Phase == phChoose) && st.Pending == nil
}

// buildRequests are what a point game waits for before the setup: the two
// hidden build requests of a point scenario, or the weighted scenario's
// build or side choice.
func (st *State) buildRequests() []adjudicator.Request {
	sc, inv, def := st.pointBudgets()
	if sc.Weighted {
		return st.weightedRequests(sc)
	}
	out := make([]adjudicator.Request, 0, 2)
	for _, side := range []adjudicator.Side{Invader, Defender} {
		pts := map[adjudicator.Side]int{Invader: inv, Defender: def}[side]
		out = append(out, adjudicator.Request{
			ID: "t0.build." + string(side), Side: side, Kind: "setup", Turn: 0, Phase: phBuild,
			Title: fmt.Sprintf("%s army, %s points (%s)", side, halfText(pts), st.armyLimits(side).rule),
			Prompt: fmt.Sprintf("build your army in secret: one line per counter type, \"TYPE: COUNT\", within %s points (DR-PTS-2)%s; the prices (DR-TABLE-POINTS): %s",
				halfText(pts), st.campaignPrompt(side), priceList(side)),
			Hidden: true,
		})
	}
	return out
}

// priceList is what each counter type costs side, dearest first, as a
// player reads it before building: "GIANT 13, ..., INF 2.5*" with "*" on
// the values umpire assumes and the counts it assumes, and the types it
// cannot play yet left out. Who may buy what is checked when the army
// comes (notBuyable).
func priceList(side adjudicator.Side) string {
	return priceItems(side, nil) + " " + assumedNote
}

// assumedNote says what the stars of a price list mean.
const assumedNote = "(* assumed by umpire: the rules do not print it; a group may correct it)"

// priceItems is priceList without the note on the stars; with a world,
// only what side may buy there.
func priceItems(side adjudicator.Side, w *world) string {
	p, err := Points()
	if err != nil {
		return "see data/points.yaml"
	}
	var ts []*PointType
	for _, t := range p.Types {
		if (t.Playable == nil || *t.Playable) && (w == nil || w.notBuyable(side, t) == "") {
			ts = append(ts, t)
		}
	}
	slices.SortFunc(ts, func(a, b *PointType) int {
		if c := cmp.Compare(b.half(side), a.half(side)); c != 0 {
			return c
		}
		return strings.Compare(a.Code, b.Code)
	})
	var parts []string
	for _, t := range ts {
		s := t.Code + " " + halfText(t.half(side))
		if slices.Contains(t.Assumed, "points") {
			s += "*"
		}
		if t.Counters > 0 {
			s += fmt.Sprintf(" (at most %d", t.Counters)
			if slices.Contains(t.Assumed, "counters") {
				s += "*"
			}
			s += ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// pointBudgets returns the point scenario of the game and each side's
// points in half points. It is only called in point games, whose options
// were checked at setup.
func (st *State) pointBudgets() (*PointScenario, int, int) {
	p, _ := Points()
	sc, _ := p.scenario(st.Scenario)
	inv, def, _ := budgets(sc, st.Options)
	return sc, inv, def
}

// isPointGame reports whether the game is a point scenario.
func (st *State) isPointGame() bool {
	p, err := Points()
	if err != nil {
		return false
	}
	_, ok := p.scenario(st.Scenario)
	return ok
}

// Army is a side's answer to its build request: how many counters of each
// type, and what they cost.
type Army struct {
	Side   adjudicator.Side `yaml:"-"`
	Counts map[string]int   `yaml:"army"`
	Points string           `yaml:"points"`
	// DestroyedVP are the hexes the invader of a campaign game marks
	// destroyed before the game (DR-CAMP-10, campaign_game.go).
	DestroyedVP []string `yaml:"destroyed-vp,omitempty"`
	half        int
	balance     int // the VP of DestroyedVP
}

// defenderColour is the colour of the defending army on a map: the humans
// hold Esirien, the greenskins Nurkott (DR-COMP-3).
func defenderColour(mapName string) string {
	if mapName == "nurkott" {
		return "greenskin"
	}
	return "human"
}

// notBuyable says why side may not buy t on this map, or "".
func (w *world) notBuyable(side adjudicator.Side, t *PointType) string {
	own := defenderColour(w.st.Map)
	switch {
	case t.Colour == "monster" && side == Defender:
		return "monsters always belong to the invader (DR-COMP-8)"
	case t.Colour == "both" || t.Colour == "monster":
	case side == Defender && t.Colour != own:
		return fmt.Sprintf("the defender of %s buys %s counters only (%s)", w.st.Map, own, w.st.colourRule())
	case side == Invader && t.Colour == own:
		return fmt.Sprintf("the %s counters are the defender's at %s (%s)", own, w.st.Map, w.st.colourRule())
	}
	if side == Invader && w.st.Map == "nurkott" {
		if ut := w.st.types[t.Code]; ut != nil && ut.MP == 0 {
			return fmt.Sprintf("the invaders enter Nurkott by moving (DR-SCEN-9) and %s cannot move (DR-COMP-7)", t.Name)
		}
	}
	return ""
}

// counterLimit is how many counters of the type one army may take: the
// counter mix's count (half of it for the hero and the wizard, printed in
// both colours), or the point table's assumed count.
func counterLimit(t *PointType, mix map[string]int) int {
	if n, ok := mix[t.Code]; ok {
		if t.Colour == "both" {
			return n / 2
		}
		return n
	}
	return t.Counters
}

// parseBuild reads a side's army: "TYPE: COUNT" lines, checked against the
// point table, the side's points (lim) and the counter mix.
func (w *world) parseBuild(side adjudicator.Side, n *yaml.Node, lim armyLimits) (*Army, error) {
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "an army is one line per counter type, \"TYPE: COUNT\", e.g. \"INF: 8\" (%s)", lim.rule)
	}
	pd, err := Points()
	if err != nil {
		return nil, err
	}
	d, err := Embedded()
	if err != nil {
		return nil, err
	}
	a := &Army{Side: side, Counts: map[string]int{}}
	var errs adjudicator.OrderErrors
	lines := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		code := strings.ToUpper(strings.TrimSpace(k.Value))
		t, ok := pd.Types[code]
		switch {
		case code == "ELW":
			errs = append(errs, adjudicator.Errorf(k, codeNotBuyable, "Elowyn is never bought: she comes with the option elowyn=on (DR-PTS-4)"))
			continue
		case code == "ELM":
			errs = append(errs, adjudicator.Errorf(k, codeNotBuyable, "an Elemental is summoned by a wizard, never bought (DR-PTS-4, DR-GAP-10)"))
			continue
		case !ok:
			errs = append(errs, adjudicator.Errorf(k, codeUnknownType, "no counter type %q to buy; the types are %s (DR-TABLE-POINTS)", k.Value, strings.Join(buyableCodes(pd), ", ")))
			continue
		case t.Playable != nil && !*t.Playable:
			errs = append(errs, adjudicator.Errorf(k, codeNotBuyable, "this version of umpire cannot play the %s yet: buy other counters", t.Name))
			continue
		}
		if _, twice := lines[code]; twice {
			errs = append(errs, adjudicator.Errorf(k, codeTwice, "%s is given twice: give each type once, with its count", code))
			continue
		}
		lines[code] = k
		c, err := strconv.Atoi(v.Value)
		if v.Kind != yaml.ScalarNode || err != nil || c < 1 {
			errs = append(errs, adjudicator.Errorf(v, adjudicator.CodeBadValue, "give how many %s, a whole number from 1 (leave out a type you do not buy)", t.Name))
			continue
		}
		if why := w.notBuyable(side, t); why != "" {
			errs = append(errs, adjudicator.Errorf(k, codeNotBuyable, "the %s may not buy %s: %s", side, t.Name, why))
			continue
		}
		if max := counterLimit(t, d.Mix); c > max {
			errs = append(errs, adjudicator.Errorf(v, codeOverMix, "%d %s: the box holds %d for one army (the counter mix, assumed: DR-GAP-4)", c, t.Name, max))
			continue
		}
		a.Counts[code] = c
		a.half += c * t.half(side)
	}
	if len(errs) == 0 && (a.half > lim.max || a.half < lim.min) {
		var parts []string
		for _, code := range slices.Sorted(maps.Keys(a.Counts)) {
			parts = append(parts, fmt.Sprintf("%d %s × %s", a.Counts[code], code, halfText(pd.Types[code].half(side))))
		}
		cost := fmt.Sprintf("the army costs %s points (%s)", halfText(a.half), strings.Join(parts, " + "))
		switch {
		case lim.min == 0:
			errs = append(errs, adjudicator.Errorf(n, codeOverPoints, "%s and the %s has %s: take off %s points or more (%s, DR-TABLE-POINTS)",
				cost, side, halfText(lim.max), halfText(a.half-lim.max), lim.rule))
		case a.half > lim.max:
			errs = append(errs, adjudicator.Errorf(n, codeOverPoints, "%s and the %s's must cost %s: take off %s points or more (%s, DR-TABLE-POINTS)",
				cost, side, lim.text(), halfText(a.half-lim.max), lim.rule))
		default:
			errs = append(errs, adjudicator.Errorf(n, codeUnderPoints, "%s and the %s's must cost %s: add %s points or more (%s, DR-TABLE-POINTS)",
				cost, side, lim.text(), halfText(lim.min-a.half), lim.rule))
		}
	}
	if e := w.overCap(side, n, a); e != nil {
		errs = append(errs, e) // DR-CAMP-7, campaign_game.go
	}
	if len(errs) > 0 {
		sortErrs(errs)
		return nil, errs
	}
	a.Points = halfText(a.half)
	return a, nil
}

func buyableCodes(pd *PointData) []string {
	var out []string
	for code, t := range pd.Types {
		if t.Playable == nil || *t.Playable {
			out = append(out, code)
		}
	}
	sort.Strings(out)
	return out
}

// ArmiesRevealed creates the units of both armies (and the counters left
// in the box for reinforcements) and sets the VP goal.
type ArmiesRevealed struct {
	Units []NewUnit `json:"units"`
	Goal  int       `json:"goal"`
}

// NewUnit is one counter an army brings into the game.
type NewUnit struct {
	ID   string           `json:"id"`
	Type string           `json:"type"`
	Side adjudicator.Side `json:"side"`
	Pool bool             `json:"pool,omitempty"`
}

func (*ArmiesRevealed) EventType() string { return "dragonrage.armies-revealed" }

var pointEvents = []adjudicator.EventType{
	{Name: "dragonrage.armies-revealed", Schema: 1, New: func() adjudicator.Event { return new(ArmiesRevealed) }},
	{Name: "dragonrage.side-chosen", Schema: 1, New: func() adjudicator.Event { return new(SideChosen) }},
}

func evolvePoints(st *State, ev adjudicator.Event) bool {
	if _, ok := ev.(*SideChosen); ok {
		return true // the players move (the game layer folds it); the state does not
	}
	e, ok := ev.(*ArmiesRevealed)
	if !ok {
		return false
	}
	for _, nu := range e.Units {
		u := &Unit{ID: nu.ID, Type: nu.Type, Side: nu.Side, Pool: nu.Pool}
		if st.typ(u).Casts() {
			u.SP = 10 // DR-MAGIC-2
		}
		st.Units = append(st.Units, u)
	}
	sortUnits(st.Units)
	st.Goal = e.Goal
	return true
}

// resolveBuilds reveals both armies, creates their units, sets the goal
// and starts the setup (DR-PTS-2, DR-PBEM-5); in a weighted scenario it
// resolves the build or the side choice (weighted.go).
func (w *world) resolveBuilds(subs []adjudicator.Submission) {
	armies := map[adjudicator.Side]*Army{}
	for _, s := range subs {
		if o, ok := s.Orders.(*Orders); ok && o.Concede {
			w.concede(s.Side)
			return
		}
		switch o := s.Orders.(type) {
		case *WeightedBuild:
			w.resolveWeightedBuild(o)
			return
		case *SideChoice:
			w.resolveSideChoice(s.Side, o)
			return
		}
		a := s.Orders.(*Army)
		a.Side = s.Side
		armies[s.Side] = a
	}
	units := w.armyUnits(armies)
	goal, why := w.st.pointGoal(units)
	w.emit(&ArmiesRevealed{Units: units, Goal: goal})
	w.sayf("the invader's VP goal is %d: %s", goal, why)
	w.placeBalance(armies[Invader]) // DR-CAMP-10, campaign_game.go
	if w.st.Over {
		return
	}
	w.emit(&PhaseBegan{Turn: 0, Phase: phSetupDefender})
}

// armyUnits are the units of both armies, numbered per type, the
// invader's first, and the rest of the counter mix waiting in the box for
// reinforcements; each army is told with its cost.
func (w *world) armyUnits(armies map[adjudicator.Side]*Army) []NewUnit {
	d, _ := Embedded()
	counts := map[string]int{}
	var units []NewUnit
	for _, side := range []adjudicator.Side{Invader, Defender} {
		a := armies[side]
		var parts []string
		for _, code := range slices.Sorted(maps.Keys(a.Counts)) {
			parts = append(parts, fmt.Sprintf("%s×%d", code, a.Counts[code]))
			for i := 0; i < a.Counts[code]; i++ {
				counts[code]++
				units = append(units, NewUnit{ID: fmt.Sprintf("%s-%d", code, counts[code]), Type: code, Side: side})
			}
		}
		lim := w.st.armyLimits(side)
		of := "of " + lim.text()
		if lim.min > 0 {
			of = "(" + lim.text() + ")"
		}
		w.sayf("the %s's army, %s points %s: %s (%s)", side, a.Points, of, strings.Join(parts, ", "), lim.rule)
	}
	for _, code := range reinforcementTypes(w.st.Map) {
		for counts[code] < d.Mix[code] {
			counts[code]++
			units = append(units, NewUnit{ID: fmt.Sprintf("%s-%d", code, counts[code]), Type: code, Side: Defender, Pool: true})
		}
	}
	return units
}

// pointGoal is the VP goal of DR-THR-1 for these units (nil: none yet),
// with the option goal-adjust applied, and how it was reached. Every
// counter counts as a unit, characters too (DR-THR-3, DR-GAP-10). In a
// campaign game it is DR-CAMP-9's: the minor monsters add 1 each, a monster
// counts once (DR-AMB-26), and the defending units beyond 20 only take off
// in games 4 and 5 (and a tie-break sixth, campaign_game.go).
func (st *State) pointGoal(units []NewUnit) (int, string) {
	camp := st.campaignGame()
	goal := 17
	parts := []string{"17 (DR-THR-1)"}
	if camp > 0 {
		parts = []string{"17 (DR-CAMP-9)"}
	}
	add := func(n int, why string) {
		if n == 0 {
			return
		}
		goal += n
		parts = append(parts, fmt.Sprintf("%+d %s", n, why))
	}
	var inv, def int
	byType := map[string]int{}
	for _, u := range units {
		if u.Pool {
			continue
		}
		if u.Side == Invader {
			inv++
			byType[u.Type]++
		} else {
			def++
		}
	}
	if st.Options["elowyn"] == "on" {
		def++ // she is a defending unit (DR-THR-3)
	}
	add(2*byType["DRAGON"], fmt.Sprintf("for %d Dragons", byType["DRAGON"]))
	if n := byType["ROC"] + byType["YDRAGON"] + byType["WYVERN"]; n > 0 {
		var what []string
		for _, t := range []struct{ code, one, many string }{{"ROC", "Roc", "Rocs"}, {"YDRAGON", "Young Dragon", "Young Dragons"}, {"WYVERN", "wyvern", "wyverns"}} {
			if k := byType[t.code]; k > 0 {
				what = append(what, plural(k, t.one, t.many))
			}
		}
		add(n, "for "+strings.Join(what, " and ")+" (+1 each)")
	}
	if n := byType["GIANT"] + byType["TREX"] + byType["SERP"]; n > 0 && camp > 0 {
		var what []string
		for _, t := range []struct{ code, one, many string }{{"GIANT", "giant", "giants"}, {"TREX", "tyrannosaurus", "tyrannosaurs"}, {"SERP", "sea serpent", "sea serpents"}} {
			if k := byType[t.code]; k > 0 {
				what = append(what, plural(k, t.one, t.many))
			}
		}
		add(n, "for "+strings.Join(what, " and ")+" (minor monsters, +1 each, DR-AMB-26)")
	}
	if inv >= 11 {
		add(1, fmt.Sprintf("for %d invading units (11 or more)", inv))
	}
	if st.Options["elowyn"] == "on" {
		add(1, "for Elowyn")
	}
	switch {
	case def > 20 && (camp == 0 || camp >= 4):
		add(20-def, fmt.Sprintf("for %d defending units (beyond 20)", def))
	case def > 20:
		parts = append(parts, fmt.Sprintf("(%d defending units, but beyond 20 counts in games 4 and 5 only)", def))
	}
	if st.Map == "nurkott" {
		add(1, "for the Nurkott map")
	}
	if n, _ := goalAdjust(st.Options); n != 0 && camp > 0 {
		add(n, "by the option goal-adjust (the invader's potential ahead, DR-CAMP-11)")
	} else if n != 0 {
		add(n, "by the option goal-adjust (DR-THR-2, DR-HCAP-3)")
	}
	if goal < 1 {
		goal = 1
		parts = append(parts, "= 1 at least")
	}
	return goal, strings.Join(parts, " ")
}

// parseBuildOrders reads an answer to a point game's request before the
// setup: an army, the weighted scenario's build or side choice, or a
// concession.
func (w *world) parseBuildOrders(req adjudicator.Request, n *yaml.Node) (adjudicator.Orders, error) {
	if n.Kind == yaml.MappingNode && len(n.Content) == 2 && n.Content[0].Value == "concede" {
		return w.parse(req, n)
	}
	if sc, _, _ := w.st.pointBudgets(); sc.Weighted {
		if w.st.Phase == phChoose {
			return w.parseSideChoice(req, n)
		}
		return w.parseWeighted(n)
	}
	army, key, value := splitBalance(n) // "destroyed-vp:", campaign_game.go
	a, err := w.parseBuild(req.Side, army, w.st.armyLimits(req.Side))
	if key == nil {
		if err != nil {
			return nil, err
		}
		return a, nil
	}
	marks := &Army{}
	errs, err := mergeErrs(w.parseBalance(req.Side, key, value, marks), err)
	if err != nil {
		return nil, err
	}
	if len(errs) > 0 {
		sortErrs(errs)
		return nil, errs
	}
	a.DestroyedVP, a.balance = marks.DestroyedVP, marks.balance
	return a, nil
}

// pointScenarioInfos lists the point scenarios for Info.
func pointScenarioInfos(sides []adjudicator.Side) []adjudicator.ScenarioInfo {
	p, err := Points()
	if err != nil {
		return nil
	}
	var out []adjudicator.ScenarioInfo
	for _, s := range p.Scenarios {
		doc := fmt.Sprintf("map %s, invader %d points, defender %d, built in secret; VP goal by DR-THR-1 (%s)", s.Map, s.Invader, s.Defender, s.Rule)
		if s.Weighted {
			doc = fmt.Sprintf("map %s: the invader's player builds both armies (invader %d to %d points, defender %d to %d, %d to %d units in all) and sets the VP goal; the defender's player then chooses which side to play (%s)",
				s.Map, s.InvaderMin, s.Invader, s.DefenderMin, s.Defender, s.Units[0], s.Units[1], s.Rule)
		}
		out = append(out, adjudicator.ScenarioInfo{ID: s.ID, Title: s.Title, Sides: sides, Doc: doc})
	}
	return out
}

// pointScenario returns the point scenario called id, if there is one.
func pointScenario(id string) (*PointScenario, bool) {
	p, err := Points()
	if err != nil {
		return nil, false
	}
	return p.scenario(id)
}
