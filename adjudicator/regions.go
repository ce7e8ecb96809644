package adjudicator

import (
	"fmt"
	"slices"
)

// Maps of regions. Some games are played not on hexes but on a map of
// regions joined by paths: a campaign's valley, a strategic map of
// provinces. Such a ruleset implements RegionMaps, and the generic parts of
// umpire (the results mails, `umpire render`) draw its map as a schematic
// picture for each viewer: the regions as labelled boxes placed on a
// 100×100 plan, the paths between them as lines, in each region what the
// viewer may know stands there, fog on the regions it does not see, and
// what moved in the last adjudication as arrows.
//
// Like a View, a RegionGraph is already filtered for its viewer: the
// renderer draws everything it holds and asks nothing else. A fogged
// region lists only what the viewer may know of it (its own troops that
// are there, a "?" for a rumour), never what it may not: the fog is drawn,
// not applied.

// RegionMaps is implemented by a ruleset whose games are played on a map
// of regions. A game whose View names no hex Map and whose ruleset
// implements it gets a region picture in its results mails.
type RegionMaps interface {
	// RegionGraph is the map of regions of st as viewer may see it
	// (Referee: everything; Observer: only what every side may see). ok
	// is false when st has no map of regions to show (a game of the
	// ruleset that is not on one, a state before the map is set up).
	RegionGraph(st State, viewer Side) (g RegionGraph, ok bool)
}

// RegionGraph is a map of regions as one viewer sees it.
type RegionGraph struct {
	// Title names the map in the picture's header ("The valley").
	Title string `json:"title,omitempty" yaml:"title,omitempty"`
	// Regions are the map's regions, drawn in this order.
	Regions []RegionNode `json:"regions" yaml:"regions"`
	// Paths join two regions each.
	Paths []RegionPath `json:"paths,omitempty" yaml:"paths,omitempty"`
	// Traces are what the last adjudication did that the viewer may
	// know: troops that went from region to region, a battle fought.
	Traces []RegionTrace `json:"traces,omitempty" yaml:"traces,omitempty"`
	// Kinds says how the ruleset's kinds of region are drawn (a fill and
	// a pattern, as TerrainStyle draws a hex's terrain). A kind left out
	// is drawn in the renderer's own style for the common words (plain,
	// forest, hills, mountain, marsh, water, fort, town, village, cave,
	// framed, exit), or plainly with its name.
	Kinds []TerrainStyle `json:"kinds,omitempty" yaml:"kinds,omitempty"`
	// Legend explains, in words, what the picture's labels mean ("R2 (5):
	// troop R2 of 5 counters"): one explanation a line.
	Legend []string `json:"legend,omitempty" yaml:"legend,omitempty"`
	// Notes are lines about the map as a whole for this viewer ("Season:
	// spring", "The Goblins are your allies").
	Notes []string `json:"notes,omitempty" yaml:"notes,omitempty"`
}

// RegionNode is one region.
type RegionNode struct {
	ID   string `json:"id" yaml:"id"`                         // stable, as orders name it
	Name string `json:"name,omitempty" yaml:"name,omitempty"` // for people; the ID when empty
	// X and Y place the region's centre on a plan 100 wide and 100 high,
	// (0, 0) at the top left: the layout of the rulebook's map, roughly.
	X int `json:"x" yaml:"x"`
	Y int `json:"y" yaml:"y"`
	// Kind is the kind of region, for its colour and pattern (Kinds):
	// "plain", "forest", "fort", "exit" (a way off the map)…
	Kind string `json:"kind,omitempty" yaml:"kind,omitempty"`
	// Fog says the viewer does not see into the region now: it is drawn
	// greyed and hatched, with what the viewer knows of it all the same.
	Fog bool `json:"fog,omitempty" yaml:"fog,omitempty"`
	// Items are what stands in the region, as the viewer may know it.
	Items []RegionItem `json:"items,omitempty" yaml:"items,omitempty"`
	// Marks are short tags on the region: "battle", "people: Goblins",
	// "occupied by rebels".
	Marks []string `json:"marks,omitempty" yaml:"marks,omitempty"`
}

// RegionItem is one thing in a region: a troop, a people, a marker.
type RegionItem struct {
	// Side is whose it is, for its colour; "" for no side's (a people
	// not allied to any).
	Side Side `json:"side,omitempty" yaml:"side,omitempty"`
	// Label is what the viewer may know of it: "R2 (5)", "a people:
	// Goblins", "?".
	Label string `json:"label" yaml:"label"`
	// At is where in the region it stands: "" at its centre, or the ID of
	// the path it arrived by (or the region that path comes from), when
	// the rules care at which edge a troop stands.
	At string `json:"at,omitempty" yaml:"at,omitempty"`
	// Status are its states, e.g. "wounded", "fatigued", "hidden".
	Status []string `json:"status,omitempty" yaml:"status,omitempty"`
}

// RegionPath is a path joining two regions. A path is open both ways.
type RegionPath struct {
	ID string `json:"id,omitempty" yaml:"id,omitempty"` // for RegionItem.At; "A-B" when empty
	A  string `json:"a" yaml:"a"`
	B  string `json:"b" yaml:"b"`
	// Kind is how the path is drawn: "" an ordinary path (a solid line),
	// "road" (a road's double line), "exit" (dotted: a way
	// off the map), or any other word, e.g. "tunnel" (a dashed line, the
	// legend naming it "tunnel path").
	Kind  string `json:"kind,omitempty" yaml:"kind,omitempty"`
	Label string `json:"label,omitempty" yaml:"label,omitempty"` // a short tag at the middle: "2 days"
}

// PathID is the path's ID: its own, or "A-B".
func (p RegionPath) PathID() string {
	if p.ID != "" {
		return p.ID
	}
	return p.A + "-" + p.B
}

// RegionTrace is one thing the last adjudication did on the map of
// regions: a move from region to region, an attack of one on another.
type RegionTrace struct {
	// Kind is "move" (the zero value means it too) or a kind the hex
	// pictures know ("melee", "fire", "spell"…), or any other word.
	Kind string `json:"kind,omitempty" yaml:"kind,omitempty"`
	Side Side   `json:"side,omitempty" yaml:"side,omitempty"` // whose: its colour
	// Path are the regions gone through, from the first to the last (at
	// least two).
	Path  []string `json:"path" yaml:"path"`
	Label string   `json:"label,omitempty" yaml:"label,omitempty"` // "R2", "battle"
	// Step numbers the adjudications a picture shows when it shows more
	// than one, as Trace.Step: set by whoever gathers traces for a
	// picture, never by a ruleset.
	Step int `json:"step,omitempty" yaml:"step,omitempty"`
}

// Problems lists what is wrong with g: a region without an ID or named
// twice, a place off the plan, a path, a trace or an item's At that names
// no region or path. The renderer leaves such entries out (and warns); a
// ruleset's tests should find none.
func (g RegionGraph) Problems() []string {
	var out []string
	regions := map[string]bool{}
	for i, r := range g.Regions {
		switch {
		case r.ID == "":
			out = append(out, fmt.Sprintf("region %d has no id", i+1))
		case regions[r.ID]:
			out = append(out, fmt.Sprintf("region %s is listed twice", r.ID))
		}
		regions[r.ID] = true
		if r.X < 0 || r.X > 100 || r.Y < 0 || r.Y > 100 {
			out = append(out, fmt.Sprintf("region %s is at (%d, %d), off the plan (0 to 100 each way)", r.ID, r.X, r.Y))
		}
	}
	paths := map[string]RegionPath{}
	for _, p := range g.Paths {
		id := p.PathID()
		switch {
		case !regions[p.A] || !regions[p.B]:
			out = append(out, fmt.Sprintf("path %s joins %q and %q: not both regions of the map", id, p.A, p.B))
		case p.A == p.B:
			out = append(out, fmt.Sprintf("path %s joins region %s to itself", id, p.A))
		}
		if _, dup := paths[id]; dup {
			out = append(out, fmt.Sprintf("path %s is listed twice", id))
		}
		paths[id] = p
	}
	for _, r := range g.Regions {
		for _, it := range r.Items {
			if it.At == "" {
				continue
			}
			if p, ok := paths[it.At]; ok && (p.A == r.ID || p.B == r.ID) {
				continue
			}
			if slices.ContainsFunc(g.Paths, func(p RegionPath) bool {
				return p.A == r.ID && p.B == it.At || p.B == r.ID && p.A == it.At
			}) {
				continue
			}
			out = append(out, fmt.Sprintf("region %s: %q is at %q, which is neither a path to the region nor a region a path joins it to", r.ID, it.Label, it.At))
		}
	}
	for i, t := range g.Traces {
		if len(t.Path) < 2 {
			out = append(out, fmt.Sprintf("trace %d (%s) goes through fewer than two regions", i+1, t.Label))
			continue
		}
		for _, id := range t.Path {
			if !regions[id] {
				out = append(out, fmt.Sprintf("trace %d (%s) goes through %q, not a region of the map", i+1, t.Label, id))
				break
			}
		}
	}
	return out
}

// Region returns the region called id.
func (g RegionGraph) Region(id string) (RegionNode, bool) {
	i := slices.IndexFunc(g.Regions, func(r RegionNode) bool { return r.ID == id })
	if i < 0 {
		return RegionNode{}, false
	}
	return g.Regions[i], true
}
