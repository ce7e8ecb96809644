package testrules

// Legend explains the race's text map (adjudicator.Legend).
func (race) Legend() []string {
	return []string{
		"a runner's place is its square on the track: 0 is the start, the last square is the finish",
		"squares 5, 10, 15 … are traps: a runner stopping there may be pushed back 2 squares",
		"score: the sum of each side's runners' squares",
		"energy-SIDE: the energy your side has left to bid (each side sees only its own)",
	}
}
