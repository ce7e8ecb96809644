package conquete

import (
	"fmt"
	"maps"
	"slices"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Negotiations & Battles (B.11). The sides choose in turn, the Reptilians
// first, a Region to resolve: one with visible troops of both sides, or a
// visible troop and a people's marker (DN3-CAMP-NEG-1, -3); no passing
// (DN3-CAMP-NEG-2); each Region at most once a phase (AMB-98), resolved
// whole before the next is chosen (DN3-CAMP-NEG-4). A Region's resolution
// runs these steps (State.Region.Step), each a function a chapter fills:
//
//	negotiate  with the people whose marker stands there (negotiate, DN3-CAMP-NEG-6 … 11)
//	attack     the side alone there may attack the people left neutral (attackChoice, DN3-CAMP-BATTLE-2, AMB-60)
//	fight      both sides choose to fight or flee, at once (fightChoice, DN3-CAMP-BATTLE-3)
//	battle     the Battle, a child game (battle.go: startBattle, applyBattle)
//	after      after a Battle: its casters' last spells (afterBattle, DN3-MAGIC-7, the magic chapter's)
//	retreat    the sides that have a choice in their retreat say it (retreat.go: retreat, PBEM-DN3-24, -25)
//	place      the retreats (retreat.go: place, DN3-CAMP-RETREAT-1 … 5)
//	again      after the retreats (afterRetreat: Step 5 when a side fled, DN3-CAMP-NEG-11, the negotiation chapter's)
//	done       the Region is resolved (regionDone), or, both sides still there, a second Battle at once (DN3-CAMP-NEG-11)

// Steps of a Region's resolution.
const (
	StepNegotiate = "negotiate"
	StepAttack    = "attack"
	StepFight     = "fight"
	StepBattle    = "battle"
	StepAfter     = "after"
	StepRetreat   = "retreat"
	StepPlace     = "place"
	StepAgain     = "again"
	StepDone      = "done"
)

// eligibleRegions are the Regions that may be chosen now (DN3-CAMP-NEG-1,
// -3, AMB-98), in the valley's order.
func eligibleRegions(st *State) []string {
	var out []string
	for _, id := range st.data.Order {
		if st.data.Regions[id].Offmap || slices.Contains(st.Resolved, id) {
			continue
		}
		reb, rep := st.Visible(id, Rebels), st.Visible(id, Reptilians)
		if reb && rep || (reb || rep) && st.PeopleAt(id) != "" {
			out = append(out, id)
		}
	}
	return out
}

// RegionOrders is a side's choice of the next Region.
type RegionOrders struct {
	Region  string `json:"region" yaml:"region"`
	Traitor bool   `json:"traitor,omitempty" yaml:"traitor,omitempty"` // the Rebels announce the traitor first (traitor.go)
}

var regionRequest = &requestKind{
	Kind: "orders", Title: "choice of a Region to resolve",
	Prompt: "Choose the next Region where a negotiation or a battle is resolved (region: la-croisee); you may not pass (DN3-CAMP-NEG-1, -2): docs/orders/la-conquete.md.",
	Choice: func(st *State, w Wait) []string { return eligibleRegions(st) },
	Parse:  parseRegion,
	Decide: decideRegion,
	Default: func(st *State, w Wait) (string, bool) {
		if rs := eligibleRegions(st); len(rs) > 0 {
			return "{region: " + rs[0] + "}", true
		}
		return "", false
	},
}

func parseRegion(st *State, w Wait, n *yaml.Node) (adjudicator.Orders, error) {
	var f RegionOrders
	e := &errs{}
	if isNull(n) || !decode(e, n, &f) {
		if len(e.list) == 0 {
			e.add(n, adjudicator.CodeEmpty, "choose a Region: region: %s (you may not pass, DN3-CAMP-NEG-2)", list(eligibleRegions(st)))
		}
		return nil, e.err()
	}
	if f.Traitor {
		checkTraitor(e, st, w.Side, key(n, "traitor"))
	}
	at := yamlValue(n, "region")
	switch {
	case f.Region == "":
		e.add(n, adjudicator.CodeMissingField, "choose a Region: region: %s (you may not pass, DN3-CAMP-NEG-2)", list(eligibleRegions(st)))
	case regionOf(e, st.data, at, f.Region) == nil:
	case !slices.Contains(eligibleRegions(st), f.Region):
		e.add(at, codeNotEligible, "%s has nothing to resolve now: choose one of %s (DN3-CAMP-NEG-1, AMB-98)", f.Region, list(eligibleRegions(st)))
	}
	return &f, e.err()
}

func decideRegion(x *world, w Wait, o adjudicator.Orders) {
	ro := o.(*RegionOrders)
	if ro.Traitor {
		x.announceTraitor()
	}
	if !slices.Contains(eligibleRegions(x.st()), ro.Region) { // the announcement may have emptied it
		x.say(nil, "%s chose %s, which has nothing left to resolve.", capital(sideName(w.Side)), ro.Region)
		return
	}
	x.emit(&RegionChosen{Side: w.Side, Region: ro.Region})
	x.say(nil, "%s choose %s (DN3-CAMP-NEG-1).", capital(sideName(w.Side)), x.data().regionName(ro.Region))
}

// regionStep moves the resolution on to step.
func (x *world) regionStep(step string) { x.emit(&RegionStep{Step: step}) }

// resolveRegion runs the Region's next step. Each step first moves the
// resolution on, so that a step that asks a side resumes at the next.
func (x *world) resolveRegion() {
	st := x.st()
	region := st.Region.Region
	switch st.Region.Step {
	case StepNegotiate:
		x.regionStep(StepAttack)
		if p := st.PeopleAt(region); p != "" {
			x.negotiate(region, p) // DN3-CAMP-NEG-6: the negotiation first
		}
	case StepAttack:
		x.regionStep(StepFight)
		x.attackChoice(region)
	case StepFight:
		x.regionStep(StepBattle)
		x.fightChoice(region)
	case StepBattle:
		x.regionStep(StepAfter)
		if x.battleDue(region) {
			x.startBattle(region)
		} else {
			x.step5Fled(region) // alliance.go
		}
	case StepAfter:
		x.regionStep(StepRetreat)
		if st.Region.Battle != "" {
			x.afterBattle(region, st.Region.Battle)
		}
	case StepRetreat:
		x.regionStep(StepPlace)
		x.retreat(region)
	case StepPlace:
		x.regionStep(StepAgain)
		x.place(region)
	case StepAgain:
		x.regionStep(StepDone)
		x.afterRetreat(region)
	case StepDone:
		if st.Visible(region, Rebels) && st.Visible(region, Reptilians) {
			// DN3-CAMP-NEG-11: a people joined the side that had left the
			// field, in a troop of its own here; or the Battle ended with
			// both sides there. A second Battle is fought at once, as
			// after a flight (secondBattle, AMB-98).
			x.emit(&RegionStep{Step: StepAfter, Again: true})
			x.say(nil, "Both sides are still at %s: a second Battle is fought at once (DN3-CAMP-NEG-11, AMB-98).", x.data().regionName(region))
			x.startBattle(region)
			return
		}
		x.regionDone(region)
	default:
		x.r.Fail(fmt.Errorf("conquete: no step %q in a Region's resolution", st.Region.Step))
	}
}

// attackChoice asks the side alone in region, when a people's marker still
// stands there after the negotiation, whether it attacks that people
// (DN3-CAMP-BATTLE-2, AMB-60, PBEM-DN3-17).
func (x *world) attackChoice(region string) {
	st := x.st()
	reb, rep := st.Visible(region, Rebels), st.Visible(region, Reptilians)
	if reb == rep || st.PeopleAt(region) == "" {
		return
	}
	side := Rebels
	if rep {
		side = Reptilians
	}
	x.await(Wait{Phase: ReqAttack, Side: side})
}

// AttackOrders is the side alone's decision to attack the people.
type AttackOrders struct {
	Attack bool `json:"attack" yaml:"attack"`
}

var attackRequest = &requestKind{
	Kind: "decision", Title: "attack on the people",
	Prompt: "The people here stays neutral: do you attack it (attack: yes) or leave it in peace (attack: no)? If you attack, the other player commands its counters, which fight to the death (DN3-CAMP-BATTLE-2, AMB-60).",
	Parse: func(st *State, w Wait, n *yaml.Node) (adjudicator.Orders, error) {
		e := &errs{}
		v := yamlValue(n, "attack")
		var f struct {
			Attack string `yaml:"attack"`
		}
		if isNull(n) || !decode(e, n, &f) || v == nil {
			if len(e.list) == 0 {
				e.add(n, adjudicator.CodeMissingField, "answer attack: yes or attack: no")
			}
			return nil, e.err()
		}
		b, ok := yesNo(f.Attack)
		if !ok {
			e.add(v, codeBadChoice, "attack: write yes or no")
		}
		return &AttackOrders{Attack: b}, e.err()
	},
	Decide: func(x *world, w Wait, o adjudicator.Orders) {
		a := o.(*AttackOrders)
		x.emit(&AttackDecided{Side: w.Side, Attack: a.Attack})
		p := x.data().Peoples[x.st().PeopleAt(x.st().Region.Region)]
		if a.Attack {
			x.say(nil, "%s attack %s (DN3-CAMP-BATTLE-2).", capital(sideName(w.Side)), p.Name)
		} else {
			x.say(nil, "%s leave %s in peace.", capital(sideName(w.Side)), p.Name)
		}
	},
	Default: func(*State, Wait) (string, bool) { return "{attack: no}", true },
}

// attackedCounters are the counters of people that fight when it is
// attacked (AMB-60): all of its counters still in play, those of every
// marker of it still standing (the Hermit's people has two, AMB-49),
// alive and neutral, in the module's order. Counters on no marker (the
// Ents the module keeps off the valley) are not in play.
func attackedCounters(st *State, people string) []*Counter {
	var out []*Counter
	ps := st.Peoples[people]
	if ps == nil {
		return nil
	}
	for _, m := range st.data.Peoples[people].Markers {
		if !slices.Contains(ps.Markers, m.Region) {
			continue
		}
		for _, id := range m.Counters {
			if c := st.Counters[id]; c != nil && c.Side == "" && !c.Dead {
				out = append(out, c)
			}
		}
	}
	return out
}

// fightChoice asks both sides at once, when both have visible troops in
// region, whether they fight or flee (DN3-CAMP-BATTLE-3, HID-15), but for
// a side whose choice the rules make (forcedChoices).
func (x *world) fightChoice(region string) {
	st := x.st()
	if !st.Visible(region, Rebels) || !st.Visible(region, Reptilians) {
		return
	}
	forced := forcedChoices(st, region)
	var ws []Wait
	for _, side := range sides {
		if forced[side] == "" {
			ws = append(ws, Wait{Phase: ReqFight, Side: side})
		}
	}
	if len(forced) > 0 {
		x.emit(&FightChosen{Choices: forced})
		// Kandärs (rest.go's chapter): the forced choices' lines.
		switch forced[Reptilians] {
		case "fight":
			x.say(nil, "The Kandärs attack the Rebels besieging Fort Ekal at once, whatever the odds: the Reptilians fight (DN3-CAMP-KANDAR-5, PBEM-DN3-18).")
		case "flee":
			x.say(nil, "Their Officer dead, the Kandärs flee any Battle: troop K, the Reptilians' only troop here, flees; the Reptilians are not asked (DN3-CAMP-KANDAR-8, AMB-56, PBEM-DN3-28).")
		}
	}
	if len(ws) > 0 {
		x.await(ws...)
		return
	}
	x.say(nil, "The choices are revealed together: the Rebels %s, the Reptilians %s (DN3-CAMP-BATTLE-3).", forced[Rebels], forced[Reptilians])
}

// forcedChoices are the fight-or-flee choices the rules make (Kandärs):
// their Officer dead, troop K flees any Battle (DN3-CAMP-KANDAR-8, AMB-56):
// where K is the Reptilians' only visible troop, their choice is flee;
// beside other Reptilian troops the side's one marker (G.9.2.a) is the
// Reptilians' to choose, and K shares it (a ruling, see the docs).
// Otherwise the Kandärs attack the Rebels besieging the Fort the
// Reptilians hold (DN3-CAMP-KANDAR-5, AMB-55: both sides at Fort Ekal
// before its Battle).
func forcedChoices(st *State, region string) map[adjudicator.Side]string {
	out := map[adjudicator.Side]string{}
	k := st.Troop(Reptilians, KandarTroop)
	here := k != nil && k.Region == region && !k.Stealthy
	switch {
	case here && kandarOfficerDead(st):
		if kandarAlone(st, region) {
			out[Reptilians] = "flee"
		}
	case here && region == "fort-ekal" && st.Held == Reptilians:
		out[Reptilians] = "fight"
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// FightOrders is a side's fight-or-flee choice.
type FightOrders struct {
	Choice string `json:"choice" yaml:"choice"` // fight or flee
}

var fightRequest = &requestKind{
	Kind: "decision", Title: "choice to fight or flee", Hidden: true,
	Prompt: "Do you fight (choice: fight) or flee (choice: flee)? Both choices are revealed together (DN3-CAMP-BATTLE-3).",
	Choice: func(*State, Wait) []string { return []string{"fight", "flee"} },
	Parse: func(st *State, w Wait, n *yaml.Node) (adjudicator.Orders, error) {
		var f FightOrders
		e := &errs{}
		if isNull(n) || !decode(e, n, &f) {
			if len(e.list) == 0 {
				e.add(n, adjudicator.CodeMissingField, "answer choice: fight or choice: flee")
			}
			return nil, e.err()
		}
		if f.Choice != "fight" && f.Choice != "flee" {
			e.add(yamlValue(n, "choice"), codeBadChoice, "choice: write fight or flee (DN3-CAMP-BATTLE-3)")
		}
		return &f, e.err()
	},
	Decide: func(x *world, w Wait, o adjudicator.Orders) {
		st := x.st()
		choices := maps.Clone(st.Region.Fight)
		if choices == nil {
			choices = map[adjudicator.Side]string{}
		}
		choices[w.Side] = o.(*FightOrders).Choice
		x.emit(&FightChosen{Choices: choices})
		if len(choices) == 2 {
			x.say(nil, "The choices are revealed together: the Rebels %s, the Reptilians %s (DN3-CAMP-BATTLE-3).", choices[Rebels], choices[Reptilians])
		}
	},
	Default: func(*State, Wait) (string, bool) { return "{choice: fight}", true },
}

// battleDue reports whether region has a Battle (DN3-CAMP-BATTLE-1): both
// sides chose to fight, or the side alone attacks the people.
func (x *world) battleDue(region string) bool {
	r := x.st().Region
	return r.Attack != "" || r.Fight[Rebels] == "fight" && r.Fight[Reptilians] == "fight"
}

// regionDone ends the Region's resolution: the troops of a Region where a
// Battle or a fight-or-flee choice took place lose their Rest markers
// (DN3-CAMP-REST-11, DN3-CAMP-RETREAT-6, AMB-90).
func (x *world) regionDone(region string) {
	st := x.st()
	if st.Region.Fight != nil || st.Region.Battle != "" {
		for _, side := range sides {
			var woken []*Troop
			for _, t := range st.TroopsIn(region, side) {
				if t.Rest && !t.Stealthy {
					c := *t
					c.Counters = slices.Clone(t.Counters)
					c.Rest, c.RestSince = false, 0
					woken = append(woken, &c)
				}
			}
			if len(woken) > 0 {
				x.seal(side, "", &Sheet{Side: side, Troops: woken})
				for _, t := range woken {
					x.say(nil, "%s troop %s loses its Rest marker (DN3-CAMP-REST-11, AMB-90).", capital(sideName(side))+"'", t.ID)
				}
			}
		}
	}
	x.emit(&RegionDone{Region: region})
}

// afterBattle is the moment after the Battle key of region, before the
// troops are re-formed and put back on the strategic map: the last moment
// its casters may heal or raise the dead (DN3-MAGIC-7, PBEM-DN3-26), the
// magic chapter's. The Battle's dead are dead in the state (applyBattle);
// the counters that left its map wait in State.Region.Left.
func (x *world) afterBattle(region, key string) { x.askHeals(ReqAfterBattle, key) } // postbattle.go

// afterRetreat is the moment after the retreats of region: when a side
// fled where both sides found a people left neutral (step5Fled settled the
// marker of the side that stayed before the flight), a people that allies
// with the side that fled takes a Troop of its own here and fights the
// side that stayed at once: the second Battle (secondBattle, alliance.go;
// DN3-CAMP-NEG-11, AMB-98).
func (x *world) afterRetreat(region string) {
	x.secondBattle(region) // alliance.go
}

// afterBattles is the end of the Negotiations & Battles phase, once every
// Region is resolved: the casters who were in no Battle may cast a spell
// in their Region (AMB-75, PBEM-DN3-26), the magic chapter's.
func (x *world) afterBattles() { x.askHeals(ReqOutside, "") } // postbattle.go
