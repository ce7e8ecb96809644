package render

import "github.com/umpire-pbem/umpire/adjudicator"

// The palette is built on Okabe & Ito's colour-blind safe set (orange, sky
// blue, bluish green, yellow, blue, vermillion, reddish purple, black), and
// the rulesets' styles are expected to give every terrain and feature a
// pattern or a letter too, so the picture still reads printed in grey or by
// a reader who confuses colours.
var (
	white    = rgb(0xffffff)
	black    = rgb(0x000000)
	ink      = rgb(0x1a1a1a) // text and outlines
	inkSoft  = rgb(0x4a4a4a)
	grid     = rgb(0x7d7d72)
	paper    = rgb(0xffffff)
	okOrange = rgb(0xe69f00)
	okSky    = rgb(0x56b4e9)
	okGreen  = rgb(0x009e73)
	okYellow = rgb(0xf0e442)
	okBlue   = rgb(0x0072b2)
	okVerm   = rgb(0xd55e00)
	okPurple = rgb(0xcc79a7)

	waterLine = rgb(0x1f5f96) // the ripple of the "stones" pattern
	roadEdge  = rgb(0x6b4f2a)
	roadFill  = rgb(0xecdcaa)
)

// terrainStyle is how one terrain kind is drawn: a fill and a pattern.
type terrainStyle struct {
	fill    Colour
	pattern string // "", "trees", "waves", "sea", "planks", "stones", "rings", "hills", "houses", "tufts", "letter"
	mark    Colour // the pattern's colour
}

// sideStyle is a side's counter colours.
type sideStyle struct{ fill, text Colour }

// sidePalette gives the sides their colours in order: blue and orange first
// (apart for every kind of colour blindness, and dark against light in
// grey).
var sidePalette = []sideStyle{
	{okBlue, white},
	{okOrange, black},
	{okPurple, black},
	{okGreen, white},
	{okSky, black},
	{okYellow, black},
	{okVerm, white},
	{black, white},
}

var neutralSide = sideStyle{rgb(0xa0a0a0), black}

// statusChip is how a unit status is marked on its counter.
type statusChip struct {
	label    string
	fill, fg Colour
	meaning  string
}

var statusChips = map[string]statusChip{
	"wounded": {"WD", okVerm, white, "wounded"},
	"killer":  {"K", black, white, "killer"},
	"broken":  {"BR", rgb(0x8a8a8a), white, "broken"},
	"flying":  {"FLY", okSky, black, "flying"},
	"boosted": {"B+", okPurple, black, "boosted"},
}

// knownStatuses orders the legend's status entries.
var knownStatuses = []string{"wounded", "killer", "broken", "flying", "boosted"}

// chipFor is the chip of a status: its own for a known one; else the status
// itself when short ("SP 3"), or its first three letters, on grey.
func chipFor(status string) statusChip {
	if c, ok := statusChips[status]; ok {
		return c
	}
	l := []rune(status)
	if len(l) > 5 {
		l = []rune(upper(string(l[:3])))
	}
	return statusChip{string(l), rgb(0xdddddd), ink, ""}
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// pointStyle is how a named hex (entry, exit, …) is tagged.
type pointStyle struct {
	label    string
	fill, fg Colour
}

// traceStyle is how one kind of trace is drawn.
type traceStyle struct {
	col   Colour
	width float64 // in units
	dash  []float64
	label string
}

var traceStyles = map[string]traceStyle{
	"melee": {okVerm, 4, nil, "melee attack"},
	"fire":  {ink, 2.2, []float64{7, 4}, "fire (missile, breath)"},
	"spell": {rgb(0x9b3f86), 3, []float64{2, 4}, "spell"},
	"smash": {rgb(0x8f2d00), 4, []float64{8, 3}, "smash (gate, wall)"},
	"climb": {rgb(0x2c6a37), 3, []float64{5, 3}, "wall climb"},
}

func traceStyleOf(kind string) traceStyle {
	if s, ok := traceStyles[kind]; ok {
		return s
	}
	return traceStyle{inkSoft, 2.2, []float64{3, 3}, kind}
}

// sideOrder is the order in which sides get colours: the ones given, then
// the others met in the View, sorted by name (so a side keeps its colour
// from one turn to the next whatever units remain).
func sideOrder(given []adjudicator.Side, v adjudicator.View) []adjudicator.Side {
	seen := map[adjudicator.Side]bool{}
	var out []adjudicator.Side
	for _, s := range given {
		if !seen[s] && s != "" {
			seen[s] = true
			out = append(out, s)
		}
	}
	var rest []adjudicator.Side
	add := func(s adjudicator.Side) {
		if !seen[s] && s != "" {
			seen[s] = true
			rest = append(rest, s)
		}
	}
	for _, u := range v.Units {
		add(u.Side)
	}
	for s := range v.Score {
		add(s)
	}
	if v.Winner != "" {
		add(v.Winner)
	}
	sortSides(rest)
	return append(out, rest...)
}

func sortSides(s []adjudicator.Side) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
