package hexmap

// fileFloor gives the floor level of some hexes (every other hex is at
// level 0). A half level makes them stairs or ramp hexes; up and down may
// then name the sides that lead to the level above and the level below.
type fileFloor struct {
	Level word     `yaml:"level"`
	Hexes []word   `yaml:"hexes"`
	Up    []word   `yaml:"up"`
	Down  []word   `yaml:"down"`
	P     fileProv `yaml:",inline"`
}

// fileDeck is a structure above the floor (a footbridge, an upper deck): a
// path of adjacent hexes at one level. The path's hexes whose floor is at
// that level are where it rests; over the others it is a location of its
// own, above the floor.
type fileDeck struct {
	Name  string   `yaml:"name"`
	Kind  word     `yaml:"kind"`
	Level word     `yaml:"level"`
	Path  []word   `yaml:"path"`
	P     fileProv `yaml:",inline"`
}

// fileEdges labels the four sides of a board for assembly: a side labelled
// X joins only a side labelled X.
type fileEdges struct {
	North word     `yaml:"north"`
	East  word     `yaml:"east"`
	South word     `yaml:"south"`
	West  word     `yaml:"west"`
	P     fileProv `yaml:",inline"`
}
