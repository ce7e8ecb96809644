// Package dragonnoir is the ruleset of Dragon Noir 2 — L'Épreuve (Duccio
// Vitale, Eurogames 1993), a tactical game of the Cry Havoc family in
// caves, as umpire plays it by mail (ruleset "dragonnoir", sides
// adventurers and krobs). The rules are those of the project's digest,
// Part A, rule by rule (DN-…), with its rulings (AMB-…) and its decisions
// for play by mail (PBEM-…).
//
// The game sheets the rules refer to — the combat, fire, terrain,
// infiltration, Gharv and jump tables, the counters' values, the spells,
// the cave maps, the scenarios — are in no source: they are module data
// (module.go, load.go, data/assumed/), every value with its provenance
// (prov.go: rule, assumed with its clues, or user), looked up through
// tables.go so that every report line that used an assumed value says so
// (world.go say, AssumedMark). A group replaces any file with its own.
//
// The core every chapter shares:
//
//	ruleset.go, options.go  the Ruleset, its options, the requests, Decide
//	state.go, events.go     the state, every event and its fold
//	orders.go               the two mails and the answers, strictly parsed
//	world.go                the program of a player-turn, stages, pauses, rolls, the report
//	geo.go                  locations, touching, in position to attack, line of fire
//	setup.go, view.go       scenarios and positions; what each side sees
//	maps.go                 the boards' vocabulary, checks and picture style
//
// The chapters, one file each (and who owns it):
//
//	fire.go       archery: offensive and defensive fire, cover (A.5, A.6)
//	move*.go      movement, infiltration, stacking, jumps, boats (A.7, A.8)
//	combat.go     combat, several attackers and defenders, webs (A.9); advance.go the advance after combat
//	results.go    stunned, wounded, killed, retreats (A.9.6)
//	special.go    the Adventurers' and Krobs' special rules as conversions (A.10.1, A.10.3)
//	gharv.go      the Gharv interphases (A.10.4)
//	spectre.go    Gargoyles and Living Dead (A.10.2)
//	magic.go      spells, PE, the casting roll (A.11); spell_*.go the spells' rows, effects,
//	              lasting charms, reach (one cave), orders and Krob-turn triggers
//	turn.go       stunned recovery and victory (scenarios)
//
// It must never name another game, roll a die it does not label, or
// report a table's value without its provenance. The rule cases are under
// testdata/, one directory a chapter; TestRuleCoverage lists the rule IDs
// of Part A no case accounts for yet.
package dragonnoir
