//go:build race

package store_test

// raceEnabled: the race detector slows the damage test several times over,
// so it runs an eighth of its cases.
const raceEnabled = true
