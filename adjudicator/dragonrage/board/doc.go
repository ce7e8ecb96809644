// Package board holds the two Dragon Rage maps, Esirien and Nurkott, as
// module data, and checks them against every map fact the rules state.
//
// Neither map is printed in any source the project has, so both files are
// reconstructions (DR-GAP-1, DR-GAP-2): every hex fact the rules give is
// honoured and tied to its rule ID; everything else is marked assumed. A
// group that owns the printed map can load a corrected copy with LoadFS and
// run Check on it.
//
// The package is pure: maps are embedded or read from an fs.FS the caller
// supplies; it never opens files by path, never does network or process I/O,
// never reads the clock and never uses a random source.
package board
