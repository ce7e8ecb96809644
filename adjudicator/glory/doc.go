// Package glory is the ruleset of Dragons of Glory (TSR DL11), the War of
// the Lance on a continent, as umpire plays it by mail (ruleset "glory").
// The rules are those of the project's digest, rule by rule (DG-…); the
// game's content — the map, the nations with their Activation Values, the
// counters, the strategic events, the scenarios and their victory
// conditions — is module data (module.go, load.go): the builtin module
// "demo" is invented and assumed throughout, and a group imports its own
// copy of the public fan data of Ansalon (importer*.go). The combat table
// is the rulebook's (data/crt.yaml).
//
// A turn is one mail from each side for steps 1 to 4 (strategic.go,
// replace.go, events_draw.go, activation.go: replacements, the Dark Temple,
// the event draw, activation, initiative), then one mail from each mover
// (world.go's program: fleet.go, move*.go, combat*.go, naval.go, in the
// order the rules resolve them). Every choice the rules give the other
// side in the middle of a mover's step is a pause (adjudicator/pause) that
// a standing order may answer in advance; each has a default for a
// deadline. Conquest is conquest.go, victory victory.go, the view and the
// hidden-stacks option view.go, teams split by nation team.go.
//
// The rule cases are under testdata/, one directory a chapter; every rule
// ID of the digest is accounted for by TestRuleCoverage.
package glory
