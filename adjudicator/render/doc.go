// Package render draws a hex-and-counter board as a picture for the players:
// the map (terrain, walls, gates and doors, roads, bridges, VP hexes, entry
// and exit hexes, hex numbers, printed again over every counter so that
// nothing hides them), the units on it (those that may still act this
// phase marked), the markers of the game (fog, broken gates, destroyed VP,
// the ruleset's own markers), what the last adjudication did (moves,
// attacks, fire, spells) or, numbered and older ones paler, what each
// adjudication since the viewer's last picture did, and a header and
// legend. On a map with levels it also shows each floor's level (a tint
// and a tag), the drops between floors, stairs and ramps, decks such as
// footbridges, and counters on a deck (adjudicator.UnitView.Level); on a
// map assembled from several boards, the seams between them and a list of
// the boards; and counters covering several hexes (UnitView.Shape) as one
// outline with its front and rear.
//
// It also draws a game played on a map of regions rather than hexes
// (adjudicator.RegionGraph, Regions and GameRegions): a schematic plan of
// labelled boxes joined by paths, what each viewer knows stands in each
// region, fog where it does not see, and the last moves as arrows, with
// the same header, legend, palette and PNG and SVG writers.
//
// The package names no game. How a ruleset's terrain, flags, named hexes,
// hexside features and markers look comes with the picture
// (Options.Style, the ruleset's adjudicator.HexMaps.PictureStyle); a kind
// the style leaves out is drawn plainly, in grey with its name or its
// initials, so a new game's board reads before it has a style.
//
// Board builds a display list once, with exact coordinates; PNG and SVG are
// both drawn from that list, so the two pictures agree. Output is
// deterministic: identical input gives identical bytes (nothing iterates a
// map into the drawing order, the PNG encoder settings are fixed).
//
// The picture shows only what the View it is given holds: the ruleset has
// already filtered the View for its viewer, and the renderer never consults
// anything else about units. The map itself is public.
//
// Text is set in the Go fonts (Go Regular and Go Bold, by Bigelow & Holmes,
// under the BSD-style licence of the Go project), embedded through
// golang.org/x/image/font/gofont and rasterised in pure Go with
// golang.org/x/image/vector; no cgo.
//
// The package is pure, like the rest of the engine: it never opens files,
// never does network or process I/O, never reads the clock and never uses a
// random source. Writing the bytes somewhere is the caller's business. It
// keeps two caches across pictures, rasterised glyphs and the rasterised
// map layers of the last few pictures (at most three, each at most 12 MB);
// both are found by exactly what they draw, so no output depends on them.
package render
