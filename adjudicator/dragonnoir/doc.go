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
//	geo.go                  locations, touching, in position to attack
//	setup.go, view.go       scenarios and positions; what each side sees
//	maps.go                 the boards' vocabulary, checks and picture style
//	module.go, load.go,     the module's files, read and checked; load_units.go the
//	load_units.go, prov.go  counters' faces; prov.go every value's provenance
//	tables.go, tags.go      table lookups with their provenance; counter tags
//	summary.go              where a module's values come from, in a line
//
// The chapters, one or more files each:
//
//	fire*.go      archery (A.5, A.6): fire.go offensive and defensive fire, fire_line.go the
//	              line of fire and cover, fire_geometry.go shots from openings, fire_trigger.go
//	              the defensive-fire triggers, fire_reactions.go the Adventurers' sealed
//	              reactions mail, fire_board.go a board written in a position
//	move*.go      movement (A.7, A.8): move.go the legs of a move, move_step.go one step,
//	              move_infil.go infiltration and jumps, move_boat.go boats, move_orders.go checks
//	combat.go     combat, several attackers and defenders (A.9); combat_orders.go the
//	              standing answers; advance.go the advance after combat; web.go webs
//	results.go    stunned, wounded, killed (A.9.6); retreat.go retreats
//	special*.go   the Adventurers' and Krobs' special rules (A.10.1, A.10.3): special.go as
//	              conversions, special_kill.go lethal wounds, special_krob.go the Queen's
//	              and Guards' bodies
//	gharv*.go     the Gharv interphases (A.10.4): gharv_attack.go, gharv_capsize.go, gharv_leave.go
//	spectre*.go   Gargoyles and Living Dead (A.10.2): spectre_fly.go the Gargoyles' flight
//	magic.go      spells, PE, the casting roll (A.11); spell_*.go the spells' rows, effects,
//	              lasting charms, reach (one cave), orders and Krob-turn triggers
//	scenario.go   what the loader checks of a scenario: entries, terrain, boats, hidden markers
//	turn.go       stunned recovery, turning over hidden markers and their draw (PBEM-DN-14), victory
//
// It must never name another game, roll a die it does not label, or
// report a table's value without its provenance. The rule cases are under
// testdata/, one directory a chapter, and whole games under testdata/games;
// TestRuleCoverage fails on a rule ID of Part A no case, test or reason
// accounts for. The players' and referees' docs are docs/dragon-noir.md,
// docs/orders/dragon-noir.md (whose example mails a test parses) and
// docs/rulings/dragon-noir.md.
package dragonnoir
