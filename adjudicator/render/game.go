package render

import (
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
)

// Game draws g's board on m as viewer may see it, with the header's "to
// move" taken from what the game waits for and the colours from the
// ruleset's sides, and the style from the ruleset when it implements
// adjudicator.HexMaps: the picture the results mails carry. When a setup is
// due from the viewer, its zones are shaded and named (SetupZoneMarks).
func Game(m *hexmap.Map, g *game.Game, viewer adjudicator.Side, scale float64) (*Picture, error) {
	return GameSince(m, g, viewer, scale, nil)
}

// GameSince draws g like Game, with traces in place of the view's (those
// of the last adjudication): the traces of every adjudication since the
// viewer's last picture, in order, each with its Step. nil traces keep the
// view's.
func GameSince(m *hexmap.Map, g *game.Game, viewer adjudicator.Side, scale float64, traces []adjudicator.Trace) (*Picture, error) {
	return gameMode(m, g, viewer, scale, traces, Full)
}

// BigMap is the number of hexes above which a game's pictures are a Crop of
// where things happened and an Overview of the whole map, not one picture
// of the whole board: a continent of thousands of hexes drawn whole at a
// readable counter size would be many megabytes.
const BigMap = 800

// MaxPictureBytes is the most a picture of a big map may weigh as PNG: a
// Crop of a region so wide that it would weigh more is drawn again
// smaller, a fifth at a time.
const MaxPictureBytes = 250_000

// Named is a picture with what it shows, for a file name ("board", "crop"
// or "overview"), and its PNG bytes.
type Named struct {
	Part    string
	Picture *Picture
	PNG     []byte
}

// GamePictures are the pictures of g for viewer, with traces in place of
// the view's as GameSince, encoded as PNG: the whole board for a map of up
// to BigMap hexes; for a bigger map, a Crop of the region where things
// happened (left out when nothing did) and an Overview, each under
// MaxPictureBytes.
func GamePictures(m *hexmap.Map, g *game.Game, viewer adjudicator.Side, scale float64, traces []adjudicator.Trace) ([]Named, error) {
	if m == nil || len(m.Hexes()) <= BigMap {
		p, err := gameMode(m, g, viewer, scale, traces, Full)
		if err != nil {
			return nil, err
		}
		png, err := p.PNG()
		if err != nil {
			return nil, err
		}
		return []Named{{Part: "board", Picture: p, PNG: png}}, nil
	}
	var out []Named
	v := g.View(viewer)
	if traces == nil {
		traces = v.Traces
	}
	modes := []Mode{Overview}
	if len(traces) > 0 {
		modes = []Mode{Crop, Overview}
	}
	for _, mode := range modes {
		v, opt := gameView(g, viewer, scale, traces, mode)
		n, err := FitBoard(m, v, opt)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// FitBoard draws a picture of a big map (Board), smaller and smaller until
// its PNG weighs less than MaxPictureBytes (at most five times, each a
// fifth smaller).
func FitBoard(m *hexmap.Map, v adjudicator.View, opt Options) (Named, error) {
	if opt.Scale <= 0 {
		opt.Scale = 1
	}
	for try := 0; ; try++ {
		p, err := Board(m, v, opt)
		if err != nil {
			return Named{}, err
		}
		png, err := p.PNG()
		if err != nil {
			return Named{}, err
		}
		if len(png) < MaxPictureBytes || try == 4 {
			return Named{Part: opt.Mode.String(), Picture: p, PNG: png}, nil
		}
		opt.Scale *= 0.8
	}
}

func gameMode(m *hexmap.Map, g *game.Game, viewer adjudicator.Side, scale float64, traces []adjudicator.Trace, mode Mode) (*Picture, error) {
	v, opt := gameView(g, viewer, scale, traces, mode)
	return Board(m, v, opt)
}

// gameView is the view and options of g's picture for viewer.
func gameView(g *game.Game, viewer adjudicator.Side, scale float64, traces []adjudicator.Trace, mode Mode) (adjudicator.View, Options) {
	var due []adjudicator.Side
	for _, r := range g.Due() {
		if !slices.Contains(due, r.Side) {
			due = append(due, r.Side)
		}
	}
	v := g.View(viewer)
	if traces != nil {
		v.Traces = traces
	}
	v.Hexes = append(slices.Clone(v.Hexes), SetupZoneMarks(g, viewer)...)
	var st *adjudicator.PictureStyle
	if hm, ok := g.Rules.(adjudicator.HexMaps); ok {
		st = hm.PictureStyle()
	}
	return v, Options{Game: g.ID, Viewer: viewer, ToMove: due, Sides: g.Rules.Info().Sides, Scale: scale, Style: st, Mode: mode}
}

// SetupZoneMarks are the zones of the setups g waits for from viewer (from
// every side for the referee; none for an observer), as the ruleset's
// adjudicator.SetupHelper gives them: HexMark{Kind: "zone", Label: the
// zone's name} on each hex, the first zone naming a hex shared by two.
// They help the player; they are no part of the View, which stays the
// same for every viewer when the ruleset hides nothing.
func SetupZoneMarks(g *game.Game, viewer adjudicator.Side) []adjudicator.HexMark {
	h, ok := g.Rules.(adjudicator.SetupHelper)
	if !ok || viewer == adjudicator.Observer {
		return nil
	}
	var out []adjudicator.HexMark
	seen := map[string]bool{}
	for _, r := range g.Due() {
		if r.Kind != "setup" || (r.Side != viewer && viewer != adjudicator.Referee) {
			continue
		}
		if _, answered := g.Answered(r.ID); answered {
			continue
		}
		zones, _, ok := h.SetupHelp(g.State, r)
		if !ok {
			continue
		}
		for _, z := range zones {
			for _, x := range append(slices.Clone(z.Hexes), z.Also...) {
				if !seen[x] {
					seen[x] = true
					out = append(out, adjudicator.HexMark{Kind: "zone", At: x, Label: z.Name})
				}
			}
		}
	}
	return out
}
