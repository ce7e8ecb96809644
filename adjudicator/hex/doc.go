// Package hex is the hex-grid geometry shared by the hex-and-counter games the
// referee runs: naming hexes, neighbours, distances, facings, straight lines,
// hexsides and exact line of sight.
//
// Conventions (Dragon Rage digest DR-HEX-1..12):
//
//   - A hex is named by four digits, column then row (CCRR): "0606" is column
//     6, row 6. Rows grow southward, columns eastward.
//   - Hexes are flat-topped and stand in vertical columns. Even-numbered
//     columns sit half a hex lower (further south) than odd-numbered ones.
//   - The six directions are N, NE, SE, S, SW, NW, numbered 0..5 clockwise.
//
// Exact geometry: the centre of hex (c, r) is put at the integer point
// x = 3c, y = 2r + (1 if c is even). In these units a hex's six corners are at
// the centre plus (±2, 0) and (±1, ±1). This is an affine image of the true
// (regular) hexagon grid, so straight lines, crossings and collinearity are
// preserved, and every computation is done in whole numbers: no rounding can
// turn "runs along a hexside" into "crosses it".
//
// Layouts: the package-level functions and Hex's methods are the grid above
// (Dragon Rage's). A Layout value gives the same questions for other grids:
// Flat (the zero value, the grid above), PointyOdd and PointyEven
// (pointy-topped hexes in rows, odd or even rows half a hex to the right,
// directions NE E SE SW W NW). Names stay CCRR on every layout. Line of
// sight (TraceSides, LineOfSight) is computed on the flat grid only.
//
// Levels and counters (level.go, footprint.go, motion.go, span.go): a
// Level counts half-levels (0, +1 = 2, −1 = −2, stairs at +½ = 1) so that
// heights stay exact, and a Loc is a hex and a level. A Footprint is a
// counter covering several hexes (Single, Pair, Triangle, Rosette), anchored
// and facing one of the six directions on any layout, with the front, flank
// or rear of each side of its outline. A Motion is a rigid move of a whole
// board (a shift, with or without a half turn). TraceSideSpans and
// TraceHexSpans say where along a line of sight each hexside and hex is
// met, and HeightAt the line's exact height there.
//
// The package is pure geometry. It must never know about terrain, units or
// any game's rules beyond the grid, and must never do I/O, read the clock or
// use a random source.
package hex
