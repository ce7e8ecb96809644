package dragonnoir

import (
	"fmt"
	"maps"
	"slices"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Rules are the game options that change the rules.
type Rules struct {
	// LiveFire: the game pauses for the Adventurer player at every
	// location a Krob enters where a shooter has a shot (PBEM-GEN-4 (b));
	// otherwise the Adventurers' standing triggers fire (PBEM-DN-6).
	LiveFire bool `json:"live_fire,omitempty"`
	// BlockedWound (combat chapter, option blocked-retreat=wound): a
	// character that cannot retreat as far as the result says takes a
	// wound instead; by default it stops and suffers nothing more (AMB-10).
	BlockedWound bool `json:"blocked_wound,omitempty"`
	// MagicianLevel, when set, is every magician's level (DN-MAGIC-2: 2 if
	// he survived L'Exil, else 1) where the scenario or position does not
	// say; 0 keeps counters.yaml's (magic chapter).
	MagicianLevel int `json:"magician_level,omitempty"`
	// GharvScratch (special rules chapter, option gharv-scratch=always):
	// any wounded result kills a character tagged first-scratch (a Gharv),
	// in every combat and shot, not only in a combat Zed takes part in
	// (DN-SPEC-16; AMB-14's default is Zed's combats only).
	GharvScratch bool `json:"gharv_scratch,omitempty"`
	// EntHumans (DN3, option ent-passengers=and-humans): an Ent may carry
	// humans too, which DN3-PEOPLE-ENT-21 allows "if a scenario's special
	// rules allow it".
	EntHumans bool `json:"ent_humans,omitempty"`
	// Edition (chapter: the valley's peoples, option rules): "" for a game
	// of L'Épreuve; "dn3" for a battle of La Conquête fought under the
	// Dragon Noir 2 rules (AMB-69), where La Conquête's own rulings of
	// DN2 rules apply (AMB-23, AMB-65, AMB-93); "magna-carta" for one
	// fought with the Magna Carta notes of H.2 the digest defines
	// (DN3-MC-7). A battle of the campaign sets it.
	Edition string `json:"edition,omitempty"`
	// GreyDwarfRight (option grey-dwarf-shift=right): each Grey Dwarf in a
	// combat shifts the odds one column right, as the sentence reads,
	// defending too; by default one column in the dwarves' favour (AMB-61).
	GreyDwarfRight bool `json:"grey_dwarf_right,omitempty"`
}

var knownOptions = []adjudicator.OptionInfo{
	{Name: "defensive-fire", Default: "standing", Values: []string{"standing", "live"},
		Doc: "how the Adventurers fire during the Krob movement (DN-FIRE-12, PBEM-DN-6): standing — by their triggers (defensive-fire:), sent in a reactions mail due with the Krob player's orders and sealed until both are in, or left standing from an earlier mail; live — the game stops at each location a Krob enters where an Adventurer has a shot and asks the Adventurer player who fires, showing the Krob's move up to that location only (no reactions mail is due)"},
	// Combat chapter.
	{Name: "blocked-retreat", Default: "stay", Values: []string{"stay", "wound"},
		Doc: "a character that cannot retreat as far as a result says (enemies, walls, impassable terrain, no free location at the end): stay — it goes as far as it can and suffers nothing more (AMB-10, the digest's default); wound — it also takes one wound, a harsher house rule for groups who read AMB-10's warning that way"},
	// magic chapter
	{Name: "magician-level", Default: "module", Values: []string{"module", "1", "2"},
		Doc: "the level of Zacharie and Shaman (DN-MAGIC-2): 2 if they survived your game of L'Exil, else 1 (100 PE and +1 a level, spells reaching 7 or 10 hexes); module keeps the counters' level, and a scenario or position that names a magician's level keeps it"},
	// Special rules chapter.
	{Name: "gharv-scratch", Default: "zed", Values: []string{"zed", "always"},
		Doc: "when a Gharv dies of its first scratch (DN-SPEC-16, AMB-14): zed — a wounded result kills a Gharv in a combat Zed takes part in, as the sentence sits in Zed's paragraph (the digest's default); always — whatever wounds it, in any combat or shot"},
	// DN3: the Ents.
	{Name: "ent-passengers", Default: "elves-hobbits", Values: []string{"elves-hobbits", "and-humans"},
		Doc: "whom an Ent may carry (DN3-PEOPLE-ENT-21): elves-hobbits — elves and hobbits only; and-humans — humans too, which the rule allows when a scenario's special rules say so"},
	// Chapter: the valley's peoples (La Conquête).
	{Name: "rules", Default: "dn2", Values: []string{"dn2", "dn3", "magna-carta"},
		Doc: "which rules a game is played under: dn2 — L'Épreuve's; dn3 — a battle of La Conquête under the Dragon Noir 2 rules, with La Conquête's rulings where the two games differ (Elves fire on the Crossbow table with the longbow's restrictions, AMB-23; Goblins pay 2 MP from water to a bridge, AMB-65; +1 to fire at an armoured target, AMB-93); magna-carta — the same, with the Magna Carta notes the digest defines (swimming costs, DN3-MC-7); a battle of the campaign sets it"},
	{Name: "grey-dwarf-shift", Default: "favour", Values: []string{"favour", "right"},
		Doc: "the column each Grey Dwarf in a combat shifts (DN3-PEOPLE-DWARF-2): favour — one in the dwarves' favour, right when they attack, left when they defend (AMB-61, the digest's default); right — one right in attack and defence, as the sentence reads"},
}

func parseOptions(o map[string]string) (Rules, error) {
	var r Rules
	for _, k := range slices.Sorted(maps.Keys(o)) {
		v := o[k]
		switch k {
		case "defensive-fire":
			switch v {
			case "standing":
			case "live":
				r.LiveFire = true
			default:
				return r, fmt.Errorf("option defensive-fire=%s: write standing or live", v)
			}
		case "blocked-retreat": // combat chapter
			switch v {
			case "stay":
			case "wound":
				r.BlockedWound = true
			default:
				return r, fmt.Errorf("option blocked-retreat=%s: write stay or wound", v)
			}
		case "magician-level": // magic chapter
			switch v {
			case "module":
			case "1", "2":
				r.MagicianLevel = int(v[0] - '0')
			default:
				return r, fmt.Errorf("option magician-level=%s: write module, 1 or 2", v)
			}
		case "gharv-scratch": // special rules chapter
			switch v {
			case "zed":
			case "always":
				r.GharvScratch = true
			default:
				return r, fmt.Errorf("option gharv-scratch=%s: write zed or always", v)
			}
		case "ent-passengers": // DN3: the Ents
			switch v {
			case "elves-hobbits":
			case "and-humans":
				r.EntHumans = true
			default:
				return r, fmt.Errorf("option ent-passengers=%s: write elves-hobbits or and-humans", v)
			}
		case "rules": // chapter: the valley's peoples
			switch v {
			case "dn2":
			case "dn3", "magna-carta":
				r.Edition = v
			default:
				return r, fmt.Errorf("option rules=%s: write dn2, dn3 or magna-carta", v)
			}
		case "grey-dwarf-shift":
			switch v {
			case "favour":
			case "right":
				r.GreyDwarfRight = true
			default:
				return r, fmt.Errorf("option grey-dwarf-shift=%s: write favour or right", v)
			}
		default:
			return r, fmt.Errorf("unknown option %q (Dragon Noir knows defensive-fire, blocked-retreat, magician-level, gharv-scratch, ent-passengers, rules and grey-dwarf-shift)", k)
		}
	}
	return r, nil
}
