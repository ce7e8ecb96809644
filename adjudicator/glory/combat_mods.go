package glory

import "fmt"

// modifier is one die-roll modifier of a combat, for the report.
type modifier struct {
	Why string
	N   int
}

// fortified is the fortification that helps armies defending in h:
// fortress, fortified-city, dwarven-fortress, or "" (a dismantled
// semi-human capital is clear terrain, DG-CAP-4).
func (s *State) fortified(h string) string {
	if s.capitalDismantled(h) {
		return ""
	}
	return s.Geo().Fort(h)
}

// favoured reports whether army id stands on terrain favourable to its
// race (DG-COMBAT-MOD-15): dwarves and ogres in mountains, elves and kender
// in forests.
func (s *State) favoured(id string) bool {
	k := s.Kind(id)
	if !k.IsArmy() {
		return false
	}
	switch s.Geo().Terrain(s.Units[id].Hex) {
	case "mountain":
		return k.Race == "dwarf" || k.Race == "ogre"
	case "forest":
		return k.Race == "elf" || k.Race == "kender"
	}
	return false
}

// passHex reports whether h is a mountain pass hex: a hex a pass crosses
// into, that is one with a pass on one of its hexsides (the map marks
// passes on hexsides).
func (s *State) passHex(h string) bool {
	for _, n := range s.Geo().Near(h) {
		if s.Geo().Side(h, n).Kind == "pass" {
			return true
		}
	}
	return false
}

// strengths adds up the two sides' strength points, the defender's
// multiplied by his fortification (DG-COMBAT-11, -12, DG-AMB-46), and lists
// every die-roll modifier (DG-COMBAT-MOD).
func (s *State) strengths(c *combat) (att, def int, mods []modifier) {
	add := func(why string, n int) {
		if n != 0 {
			mods = append(mods, modifier{why, n})
		}
	}
	fort := s.fortified(c.Target)
	dwarven := fort == "dwarven-fortress"
	var cav, fly, river, bridge, ford, fav bool
	for _, id := range s.attackersLeft(c) {
		u, k := s.Units[id], s.Kind(id)
		f := s.Face(u)
		att += f.Strength
		if k.Race == "dragon" {
			add(fmt.Sprintf("%s's strength (DG-COMBAT-MOD-4)", id), f.Strength)
		}
		cav = cav || k.Type == Cavalry
		fly = fly || k.Flyer()
		if k.IsLand() {
			hs := s.Geo().Side(u.Hex, c.Target)
			switch {
			case hs.River() && s.FleetBridge(u.Hex, c.Target, c.Side):
				bridge = true // a friendly fleet bridges the river (DG-SEA-7, DG-AMB-27)
			case hs.Kind == "river":
				river = true
			case hs.Kind == "bridge":
				bridge = true
			case hs.Kind == "ford":
				ford = true
			}
		}
		fav = fav || s.favoured(id)
	}
	for _, id := range s.support(c.From, c.Side) {
		switch k := s.Kind(id); k.Type {
		case Leader:
			add(fmt.Sprintf("%s's Tactical Value (DG-COMBAT-MOD-3)", id), s.Face(s.Units[id]).Strength)
		case Wizard:
			add(fmt.Sprintf("wizard %s (DG-COMBAT-MOD-5)", id), 3)
		}
	}
	if cav && !dwarven {
		add("cavalry attacking (DG-COMBAT-MOD-6)", 1)
	}
	if fly && !dwarven {
		add("flyers attacking (DG-COMBAT-MOD-7)", 1)
	}
	if river {
		add("attacking across a river (DG-COMBAT-MOD-11)", -4)
	}
	if bridge {
		add("attacking across a bridge (DG-COMBAT-MOD-12)", -4)
	}
	if ford {
		add("attacking across a ford (DG-COMBAT-MOD-13)", -3)
	}
	if fav {
		add("attacker on favourable terrain (DG-COMBAT-MOD-15)", 1)
	}
	if c.Taunt {
		add("taunted (DG-COMBAT-MOD-16)", -2)
	}
	var dfly, dfav bool
	for _, id := range s.onMap(c.Defenders) {
		u, k := s.Units[id], s.Kind(id)
		f := s.Face(u)
		def += f.Strength
		if k.Race == "dragon" {
			add(fmt.Sprintf("%s's strength (DG-COMBAT-MOD-4)", id), -f.Strength)
		}
		dfly = dfly || k.Flyer()
		dfav = dfav || s.favoured(id)
	}
	for _, id := range s.support([]string{c.Target}, c.enemy()) {
		switch k := s.Kind(id); k.Type {
		case Leader:
			add(fmt.Sprintf("%s's Tactical Value (DG-COMBAT-MOD-3)", id), -s.Face(s.Units[id]).Strength)
		case Wizard:
			add(fmt.Sprintf("wizard %s (DG-COMBAT-MOD-5)", id), -3)
		}
	}
	if dfly {
		add("flyers defending (DG-COMBAT-MOD-7)", -1)
	}
	switch fort {
	case "fortress":
		def *= 3
		add("fortress (DG-COMBAT-MOD-8)", -4)
	case "fortified-city":
		def *= 2
		add("fortified city (DG-COMBAT-MOD-9)", -2)
	case "dwarven-fortress":
		def *= 3
		add("dwarven fortress (DG-COMBAT-MOD-10)", -10)
	}
	if s.passHex(c.Target) {
		add("mountain pass (DG-COMBAT-MOD-14)", -2)
	}
	if dfav {
		add("defender on favourable terrain (DG-COMBAT-MOD-15)", -1)
	}
	return att, def, mods
}

// attackersLeft lists the combat's attackers still on the map.
func (s *State) attackersLeft(c *combat) []string { return s.onMap(c.Attackers) }

// onMap lists those of ids on the map.
func (s *State) onMap(ids []string) []string {
	var out []string
	for _, id := range ids {
		if s.Units[id].Where == OnMap {
			out = append(out, id)
		}
	}
	return out
}
