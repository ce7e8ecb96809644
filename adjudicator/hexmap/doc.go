// Package hexmap is a generic hex-and-counter map: the terrain of each hex,
// features on hexsides (walls, gates, doors, palisades), roads, bridges,
// victory-point values, named zones and named entry and exit hexes, read from
// a compact, strictly checked YAML file.
//
// A game supplies the vocabulary (which terrain, flag, hexside and bridge
// kinds exist) and the rules; this package only stores and answers questions
// about the drawn map. It is reused by every game and by the map renderer.
//
// Every fact may carry its provenance: the rule ID that states it, or
// "assumed: true" when a reconstruction invented it. That lets a group load a
// corrected copy of a map, and lets the referee say which facts are guesses.
//
// Levels (levels.go, sight.go): a hex may have its floor at another level,
// a half level makes it stairs or a ramp between two levels, and a deck (a
// footbridge) gives a hex a second location above its floor; Connects says
// which locations a step joins and Sight traces a line of sight between
// locations with its exact height over every hex and hexside. Boards
// (assemble.go, join.go): Assemble puts several boards, moved and maybe
// turned half round, into one Map that remembers each hex's origin, and
// checks that joined edges carry the same label.
//
// The package is pure: it never opens files itself (callers pass an fs.FS or
// bytes), never does network or process I/O, never reads the clock and never
// uses a random source.
package hexmap
