package dragonrage

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// The weighted scenario (DR-PTS-1): one player builds both armies — the
// invader's of 80 to 85 points, the defender's of 72 to 77, 20 to 22 units
// in all — and sets the VP goal; the other player then chooses which side
// to play (DR-PBEM-43), and the builder plays the other.
//
// The players are named for the invader and the defender when the game is
// created, as in every game: the invader's player builds, the defender's
// chooses. Both steps are public: the chooser must see the armies to
// choose, and nothing else is hidden. The choice is the event SideChosen;
// when the chooser takes the invader, the game layer swaps the two
// players as it folds that event (adjudicator.PlayersSwap), so every later
// request, report, view and mail follows the log, and each player keeps
// the secret he was given.

// phChoose is the phase in which the chooser picks his side.
const phChoose = "choose"

func init() {
	phases[phChoose] = phaseInfo{Defender, "choose", "side choice (weighted scenario)"}
}

// Order error codes of the weighted build.
const (
	codeUnderPoints = "under-points" // the army costs less than its side's range
	codeUnitCount   = "unit-count"   // both armies together have too few or too many units
)

// WeightedBuild is the builder's answer: both armies, each as its counts
// per type, and the VP goal.
type WeightedBuild struct {
	Invader  map[string]int `yaml:"invader"`
	Defender map[string]int `yaml:"defender"`
	Goal     int            `yaml:"goal,omitempty"` // 0: DR-THR-1's for these armies

	inv, def *Army // as checked, with their costs
}

// SideChoice is the chooser's answer: the side he plays from now on.
type SideChoice struct {
	Play adjudicator.Side `yaml:"play"`
}

// SideChosen records the side choice of a weighted scenario: the player
// named for By plays Side from now on. When Side is not By, the players
// of the two sides swap (adjudicator.PlayersSwap); the state itself does
// not change.
type SideChosen struct {
	By   adjudicator.Side `json:"by"`
	Side adjudicator.Side `json:"side"`
}

func (*SideChosen) EventType() string { return "dragonrage.side-chosen" }

// SwapsPlayers makes SideChosen an adjudicator.PlayersSwap.
func (e *SideChosen) SwapsPlayers() (a, b adjudicator.Side, ok bool) {
	return e.By, e.Side, e.By != e.Side
}

// isWeighted reports whether the game is a weighted scenario.
func (st *State) isWeighted() bool {
	sc, ok := pointScenario(st.Scenario)
	return ok && sc.Weighted
}

// weightedRequests is what a weighted scenario waits for before the setup:
// the builder's armies, then the chooser's side.
func (st *State) weightedRequests(sc *PointScenario) []adjudicator.Request {
	if st.Phase == phChoose {
		return []adjudicator.Request{{
			ID: "t0." + phChoose, Side: Defender, Kind: "decision", Turn: 0, Phase: phChoose,
			Title: phases[phChoose].title,
			Prompt: fmt.Sprintf("the invader's player has built both armies and set the goal (the results say what they are): choose the side you play from now on, and he plays the other (%s, DR-PBEM-43); \"play: defender\" keeps the side you were named for, \"play: invader\" takes his",
				sc.Rule),
			Choice: []string{"play: defender", "play: invader"},
		}}
	}
	inv, def := st.armyLimits(Invader), st.armyLimits(Defender)
	w := newWorld(st, nil) // read only: who may buy what here
	return []adjudicator.Request{{
		ID: "t0." + phBuild, Side: Invader, Kind: "setup", Turn: 0, Phase: phBuild,
		Title: fmt.Sprintf("both armies and the VP goal (weighted scenario, %s; then the defender's player picks his side)", sc.Rule),
		Prompt: fmt.Sprintf("build both armies: the invader's of %s points and the defender's of %s, %d to %d units in all; set the invader's VP goal if you wish (%s, DR-THR-2). Then the defender's player chooses which side to play, and you play the other (DR-PBEM-43). Answer \"invader:\" and \"defender:\", each with one line per counter type, \"TYPE: COUNT\", and \"goal: N\" (left out, the goal is DR-THR-1's for your armies). What the invader may buy, and its price (DR-TABLE-POINTS): %s. The defender: %s %s",
			inv.text(), def.text(), sc.Units[0], sc.Units[1], sc.Rule, priceItems(Invader, w), priceItems(Defender, w), assumedNote),
	}}
}

// parseWeighted reads the builder's answer: "invader:" and "defender:",
// each an army, and "goal:". Every mistake is given, each at its line.
func (w *world) parseWeighted(n *yaml.Node) (adjudicator.Orders, error) {
	sc, _, _ := w.st.pointBudgets()
	shape := fmt.Sprintf("a weighted build is \"invader:\" and \"defender:\", each with one line per counter type, \"TYPE: COUNT\", and \"goal: N\" if you set the goal (%s)", sc.Rule)
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "%s", shape)
	}
	var errs adjudicator.OrderErrors
	add := func(err error) error {
		var list adjudicator.OrderErrors
		var one *adjudicator.OrderError
		switch {
		case errors.As(err, &list):
			errs = append(errs, list...)
		case errors.As(err, &one):
			errs = append(errs, one)
		default:
			return err
		}
		return nil
	}
	parts := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key := strings.ToLower(strings.TrimSpace(k.Value))
		switch {
		case key != string(Invader) && key != string(Defender) && key != "goal":
			errs = append(errs, adjudicator.Errorf(k, adjudicator.CodeBadValue, "%q is not part of the build: %s", k.Value, shape))
		case parts[key] != nil:
			errs = append(errs, adjudicator.Errorf(k, codeTwice, "%s is given twice: give it once", key))
		default:
			parts[key] = v
		}
	}
	b := &WeightedBuild{}
	for _, side := range []adjudicator.Side{Invader, Defender} {
		v := parts[string(side)]
		if v == nil {
			errs = append(errs, adjudicator.Errorf(n, adjudicator.CodeMissingField, "the %s's army is missing: add \"%s:\" with one line per counter type, \"TYPE: COUNT\" (%s)", side, side, sc.Rule))
			continue
		}
		a, err := w.parseBuild(side, v, w.st.armyLimits(side))
		if err != nil {
			if err := add(err); err != nil {
				return nil, err
			}
			continue
		}
		a.Side = side
		if side == Invader {
			b.Invader, b.inv = a.Counts, a
		} else {
			b.Defender, b.def = a.Counts, a
		}
	}
	if v := parts["goal"]; v != nil {
		most := w.mapVP()
		g, err := strconv.Atoi(strings.TrimSpace(v.Value))
		if v.Kind != yaml.ScalarNode || err != nil || g < 1 || g > most {
			errs = append(errs, adjudicator.Errorf(v, adjudicator.CodeBadValue, "the goal is the VP the invader must destroy to win: a whole number from 1 to %d (the VP on the map), e.g. \"goal: 18\"; leave it out for DR-THR-1's (%s, DR-THR-2)", most, sc.Rule))
		} else {
			b.Goal = g
		}
	}
	if b.inv != nil && b.def != nil {
		ni, nd := b.inv.units(), b.def.units()
		if total := ni + nd; total < sc.Units[0] || total > sc.Units[1] {
			fix := "add " + unitsText(sc.Units[0]-total)
			if total > sc.Units[1] {
				fix = "take off " + unitsText(total-sc.Units[1])
			}
			errs = append(errs, adjudicator.Errorf(n, codeUnitCount, "the armies have %d units (the invader %d, the defender %d) and the weighted scenario spreads its points over %d to %d units in all: %s or more (%s)",
				total, ni, nd, sc.Units[0], sc.Units[1], fix, sc.Rule))
		}
	}
	if len(errs) > 0 {
		sortErrs(errs)
		return nil, errs
	}
	return b, nil
}

// unitsText is "1 unit", "2 units".
func unitsText(n int) string {
	if n == 1 {
		return "1 unit"
	}
	return strconv.Itoa(n) + " units"
}

// units is how many counters the army has.
func (a *Army) units() int {
	n := 0
	for _, c := range a.Counts {
		n += c
	}
	return n
}

// mapVP is the VP the map holds: the highest goal that can be met.
func (w *world) mapVP() int {
	total := 0
	for _, h := range w.m.VPHexes() {
		total += w.m.VP(h)
	}
	return total
}

// parseSideChoice reads the chooser's answer: "play: invader" or "play:
// defender".
func (w *world) parseSideChoice(req adjudicator.Request, n *yaml.Node) (adjudicator.Orders, error) {
	how := fmt.Sprintf("answer \"play: %s\" to keep the side you were named for, or \"play: %s\" to take the builder's (DR-PTS-1, DR-PBEM-43)", req.Side, other(req.Side))
	if n.Kind != yaml.MappingNode || len(n.Content) != 2 || strings.ToLower(strings.TrimSpace(n.Content[0].Value)) != "play" {
		return nil, adjudicator.Errorf(n, adjudicator.CodeBadValue, "%s", how)
	}
	v := n.Content[1]
	side := adjudicator.Side(strings.ToLower(strings.TrimSpace(v.Value)))
	if v.Kind != yaml.ScalarNode || (side != Invader && side != Defender) {
		return nil, adjudicator.Errorf(v, adjudicator.CodeBadValue, "%q is not a side: %s", v.Value, how)
	}
	return &SideChoice{Play: side}, nil
}

// resolveWeightedBuild creates the units of both armies, sets the goal and
// asks the chooser for his side.
func (w *world) resolveWeightedBuild(b *WeightedBuild) {
	sc, _, _ := w.st.pointBudgets()
	units := w.armyUnits(map[adjudicator.Side]*Army{Invader: b.inv, Defender: b.def})
	formula, why := w.st.pointGoal(units)
	goal := formula
	if b.Goal > 0 {
		goal = b.Goal
	}
	w.emit(&ArmiesRevealed{Units: units, Goal: goal})
	if b.Goal > 0 {
		w.sayf("the invader's VP goal is %d, set by the builder (%s, DR-THR-2); DR-THR-1 would give %d: %s", goal, sc.Rule, formula, why)
	} else {
		w.sayf("the invader's VP goal is %d: %s", goal, why)
	}
	w.sayf("the defender's player now chooses which side to play; the invader's player, who built the armies, plays the other (%s, DR-PBEM-43)", sc.Rule)
	w.emit(&PhaseBegan{Turn: 0, Phase: phChoose})
}

// resolveSideChoice records the choice of the player named for by, and
// starts the setup: the defender sets up first, as in every scenario.
func (w *world) resolveSideChoice(by adjudicator.Side, c *SideChoice) {
	sc, _, _ := w.st.pointBudgets()
	w.emit(&SideChosen{By: by, Side: c.Play})
	if c.Play == by {
		w.sayf("the %s's player keeps the %s; the builder plays the %s (%s)", by, by, other(by), sc.Rule)
	} else {
		w.sayf("the %s's player takes the %s: from now on he plays the %s and the builder the %s (%s)", by, c.Play, c.Play, by, sc.Rule)
	}
	w.emit(&PhaseBegan{Turn: 0, Phase: phSetupDefender})
}
