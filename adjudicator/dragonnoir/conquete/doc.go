// Package conquete is the campaign of Dragon Noir 3 — La Conquête (the
// French working draft), as umpire plays it by mail: ruleset
// "dragonnoir-conquete", a series (adjudicator/series.go) whose Battles
// are child games of the tactical ruleset dragonnoir. Its sides are the
// rebels and the reptilians. The rules are Part B of the project's digest
// (DN3-CAMP-…), with its rulings (AMB-40 … 100) and its decisions for play
// by mail (PBEM-DN3-…, E.5 for what each side may know).
//
// The valley, the counters' campaign values, the calendar, the victory
// conditions and the Negotiation markers are module data (module.go,
// data/assumed/), every value with its provenance (dragonnoir.Prov);
// report lines that used an assumed value end "(assumed table)".
//
// Hidden state is sealed (adjudicator.Seal): the army sheets (HID-11), the
// stealthy troops' moves (HID-12), the messenger (HID-9), the relations
// (HID-10), the Sertegs' night (HID-8); View shows each side its own and
// the other's markers only.
//
// The core:
//
//	ruleset.go           the Ruleset, its option, Setup, Due, Decide, the defaults
//	requests.go          the kinds of request (requestKinds): how each is asked, read, applied, defaulted
//	state.go, events.go  the state and every event with its fold
//	world.go             one adjudication: events, sealed events, report lines, rolls, asking
//	turn.go              the turn machine: the phases of a strategic turn, the calendar, victory
//	orders.go            the orders' error codes and shared readers
//	setup.go             the two secret setups; position.go, a game started mid-campaign
//	module.go, summary.go the module's files, read and checked; where its values come from
//	view.go              what each side sees
//
// The seams the chapters fill, each a function called at its moment:
//
//	reorg.go      parseStrategicSpells, strategicSpells (magic: PBEM-DN3-10)
//	rest.go       fatigue (AMB-42), kandarTurn and kandarArrived (Kandärs), arrivals (Sertegs, Kandärs)
//	move.go       Capacity, mustStop, checkMove (movement: Table DN3-T3, DN3-CAMP-MOVE-4 … 7); parseMoveSpells, moveSpells (magic: DN3-MAGIC-5)
//	reveal.go     forcedReveals, discoveryRolls (stealth: DN3-CAMP-REVEAL-3, -4)
//	negotiate.go  negotiate (Steps 1 … 5), attackChoice, fightChoice (forcedChoices), battleDue, regionDone,
//	              afterBattle (post-battle spells, DN3-MAGIC-7), afterRetreat, afterBattles (AMB-75)
//	battle.go     battlePosition, startBattle, applyBattle (Battles; animals.go, DN3-PEOPLE-GOB-9, -DRUID-6;
//	              referee.go, option battles=referee)
//	retreat.go    retreat (the owners' choices), place: flightPlan, exitPlan (DN3-CAMP-RETREAT-*); sheet.go, army-sheet edits
//	traitor.go    checkTraitor, announceTraitor, loyaltyRolls (DN3-CAMP-TRAITOR-*)
//
// The rule cases are under testdata/, one directory a chapter; the
// coverage test (coverage_test.go) accounts for every DN3- ID of Part B
// across them and dragonnoir's testdata/dn3-*.
package conquete
