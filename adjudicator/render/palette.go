package render

import "github.com/umpire-pbem/umpire/adjudicator"

// The palette is built on Okabe & Ito's colour-blind safe set (orange, sky
// blue, bluish green, yellow, blue, vermillion, reddish purple, black), and
// every terrain and feature also carries a pattern or a letter, so the
// picture still reads printed in grey or by a reader who confuses colours.
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

	gateCol   = rgb(0xc8370b) // gates are red in the rules; a vermillion darkened for contrast
	doorCol   = okBlue        // doors are blue
	wallCol   = rgb(0x2b2b2b)
	palCol    = rgb(0x7b4a1e)
	riverEdge = rgb(0x1f5f96)
	roadEdge  = rgb(0x6b4f2a)
	roadFill  = rgb(0xecdcaa)
)

// terrainStyle is how one terrain kind is drawn: a fill and a pattern.
type terrainStyle struct {
	fill    Colour
	pattern string // "", "trees", "waves", "sea", "planks", "stones", "tower", "hills", "houses", "tufts", "letter"
	mark    Colour // the pattern's colour
}

var terrainStyles = map[string]terrainStyle{
	"open":   {rgb(0xf4f0dc), "", Colour{}},
	"forest": {rgb(0xb4d6a2), "trees", rgb(0x2c6a37)},
	"river":  {rgb(0x9ccbea), "waves", rgb(0x1f5f96)},
	"sea":    {rgb(0x5c93c4), "sea", rgb(0xe4f1fb)},
	"lake":   {rgb(0x5c93c4), "sea", rgb(0xe4f1fb)},
	"dock":   {rgb(0xd2b27f), "planks", rgb(0x7e5c32)},
	"ford":   {rgb(0xbfe0f2), "stones", rgb(0x7a6a5a)},
	"tower":  {rgb(0xc9c3b8), "tower", rgb(0x3f3a35)},
	"hill":   {rgb(0xe3cd96), "hills", rgb(0x8a6a2e)},
	"city":   {rgb(0xdcc9c2), "houses", rgb(0x6e5048)},
	"marsh":  {rgb(0xc9dfbd), "tufts", rgb(0x3f6a4a)},
}

func styleOf(kind string) terrainStyle {
	if s, ok := terrainStyles[kind]; ok {
		return s
	}
	return terrainStyle{rgb(0xdddddd), "letter", inkSoft}
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

var pointStyles = map[string]pointStyle{
	"entry":         {"IN", okGreen, white},
	"exit":          {"OUT", ink, white},
	"reinforcement": {"R", okSky, black},
	"serpent-entry": {"S", okPurple, black},
	"rescue":        {"RS", okYellow, black},
	"setup":         {"SU", rgb(0xdddddd), ink},
}

func pointStyleOf(kind string) pointStyle {
	if s, ok := pointStyles[kind]; ok {
		return s
	}
	l := []rune(kind)
	if len(l) > 2 {
		l = l[:2]
	}
	return pointStyle{upper(string(l)), rgb(0xdddddd), ink}
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
