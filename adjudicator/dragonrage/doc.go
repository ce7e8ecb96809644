// Package dragonrage is the Dragon Rage ruleset (Lewis Pulsipher; the
// revised edition's reference rules), as specified rule by rule in
// shared/rules/dragon-rage.md: the two city maps, troops, characters, magic,
// the minor monsters and the major ones (Dragons, Young Dragons, Rocs,
// wyverns: major*.go), the twelve printed scenarios and the point games.
//
// A turn has ten phases (DR-TURN-1). Each phase that needs a player's
// choices is one request: the invader's magic, movement, fire and melee,
// then the defender's magic, reinforcements, movement, fire and melee.
// Phases where a side has nothing it could do are passed automatically, and
// the tenth phase (turn marker, victory checks) is always automatic.
//
// Content the rulebook does not print (the maps, the counter values, the
// counter mix) is module data under data/ and board/maps/, marked assumed
// or reconstructed, and can be corrected per game with options.
//
// Like every ruleset, the package is pure: no I/O, no clock, no randomness
// but the dice it is handed.
package dragonrage
