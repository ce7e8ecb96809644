package dragonnoir

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Counter tags: the special rules a kind of character follows, as data
// (counters.yaml). A rule asks k.Has(tag); adding a character with a known
// behaviour is a line of data, not code.
const (
	TagSinks             = "sinks"                  // never enters water (DN-MOVE-5)
	TagKilledDoubleWound = "killed-is-double-wound" // "killed" is two wounds (DN-SPEC-13, DN-KROB-8)
	TagIgnoresInfil      = "ignores-infiltration"   // never rolls for infiltration (DN-SPEC-9, DN-KROB-12)
	TagCausesNoInfil     = "causes-no-infiltration" // never makes an enemy roll (DN-KROB-12)
	TagKiller            = "killer"                 // -1 attacking, lethal wounds (DN-KROB-4 … 7)
	TagCurare            = "curare"                 // wounds kill (DN-SPEC-15)
	TagCurareImmune      = "curare-immune"          // DN-SPEC-15, DN-KROB-15
	TagBerserker         = "berserker"              // goes berserk when hurt (DN-SPEC-1 … 4)
	TagElf               = "elf"                    // DN-SPEC-5, DN-SPEC-6
	TagDwarf             = "dwarf"                  // sees past low characters (DN-COVER-16)
	TagLow               = "low"                    // blocks dwarves' fire only (DN-COVER-16)
	TagAquatic           = "aquatic"                // the Gharvs' terrain (DN-GHARV-6)
	TagSwimmer           = "swimmer"                // DN-SPEC-7, DN-SPEC-8
	TagInvulnerable      = "invulnerable"           // every hurt is a retreat (DN-SPECTRE-3)
	TagFlies             = "flies"                  // DN-SPECTRE-2
	TagDaredevil         = "daredevil"              // may jump down a level (DN-MOVE-13)
	TagGuard             = "guard"                  // two attacks or one between the legs (DN-KROB-1)
	TagFireballProof     = "fireball-resistant"     // DN-KROB-13
	TagSpectre           = "spectre"                // summoned, expires (DN-SPECTRE-4, -7)
	TagHeavy             = "heavy"                  // levitated at the armoured price: Trolls, Thrugg (DN3-SPELL-MAGE-12; magic chapter)
	TagReptilian         = "reptilian"              // DN3: enters the deep river of Fond-du-Val (AMB-64)
	TagPoisonImmune      = "poison-immune"          // a poison cloud does not hurt it (DN3-PEOPLE-UNIC-11; magic chapter)
	// Chapter special rules (special.go):
	TagNewborn      = "newborn"       // a baby Krob, the newborn face: dies of its first wound (DN-CNT-5, DN-KROB-9)
	TagFirstScratch = "first-scratch" // a wound kills it with Zed, or always by option (DN-SPEC-16, AMB-14)
	// DN3: the Ents and the Black Dragon (special_ent.go, special_dragon.go, move_rider.go):
	TagRider         = "rider"             // moves as a rider: terrain.yaml's mp-by and closed-to say how (DN3-PEOPLE-ENT-1, GAP-16)
	TagNoMultiShift  = "no-multiple-shift" // attackers together get no column shift against it (DN3-PEOPLE-ENT-5)
	TagFireNoRetreat = "fire-no-retreat"   // fire never makes it retreat, nor stuns it (DN3-PEOPLE-ENT-14)
	TagMissileProof  = "missile-proof"     // missile fire cannot hurt it (DN3-PEOPLE-DRAGON-3)
	TagFireProof     = "fire-proof"        // fire spells cannot hurt it (DN3-PEOPLE-DRAGON-3, AMB-78)
	TagRam           = "ram"               // serves as a makeshift ram (DN3-PEOPLE-ENT-19, DN3-PEOPLE-DRAGON-5)
	TagHobbit        = "hobbit"            // an Ent may carry it (DN3-PEOPLE-ENT-21, DN3-PEOPLE-HERMIT-3)
	TagHuman         = "human"             // an Ent may carry it by option (DN3-PEOPLE-ENT-21)
	// La Conquête's magic (spell_lists.go): immune to the spells whose
	// row names the tag under immune: (DN3-PEOPLE-KANDAR-3, DN3-PEOPLE-UNIC-10).
	TagFearless         = "fearless"          // fear and terror (Terreur)
	TagCharmImmune      = "charm-immune"      // charms (no sheet has one: GAP-26)
	TagImmobiliseImmune = "immobilise-immune" // Immobiliser un personnage
	// Chapter: the valley's peoples (La Conquête: special_peoples.go,
	// move_rider.go); rider and hobbit above serve them too.
	TagCharges         = "charges"            // may charge, ridden or not (DN3-PEOPLE-UNIC-3; riders, GAP-16)
	TagBeast           = "beast"              // an animal: rides nothing
	TagFrightensHorses = "frightens-horses"   // horses panic under it (DN3-PEOPLE-REPT-4)
	TagKandar          = "kandar"             // bound to the Officer (DN3-PEOPLE-KANDAR-1 … 7)
	TagKandarOfficer   = "kandar-officer"     // the Officer the Kandärs' bond needs on the map (AMB-95)
	TagGreyDwarf       = "grey-dwarf"         // a column in their favour each (DN3-PEOPLE-DWARF-2, AMB-61)
	TagBarbarian       = "barbarian"          // DN3-PEOPLE-BARB-1
	TagGoblin          = "goblin"             // a valley Goblin (DN3-PEOPLE-GOB-1 … 10, DN3-MC-5)
	TagUnicorn         = "unicorn"            // DN3-PEOPLE-UNIC-1 … 11
	TagFanaticMaster   = "fanatic-for-master" // fanatic once its master is wounded or killed (DN3-PEOPLE-DRUID-5)
	TagLeavesMaster    = "leaves-with-master" // leaves the game at a battle's end when its master was killed (DN3-PEOPLE-DRUID-6, GOB-9)
	TagWithMaster      = "with-master"        // leaves the map only with its master, and its master only with it (DN3-PEOPLE-DRUID-4)
)

var counterTags = []string{TagSinks, TagKilledDoubleWound, TagIgnoresInfil, TagCausesNoInfil, TagKiller,
	TagCurare, TagCurareImmune, TagBerserker, TagElf, TagDwarf, TagLow, TagAquatic, TagSwimmer,
	TagInvulnerable, TagFlies, TagDaredevil, TagGuard, TagFireballProof, TagSpectre,
	TagHeavy, TagPoisonImmune, // magic chapter
	TagNewborn, TagFirstScratch, // chapter special rules
	TagRider, TagNoMultiShift, TagFireNoRetreat, TagMissileProof, TagFireProof, TagRam, TagHobbit, TagHuman, // DN3: Ents, the Black Dragon
	TagFearless, TagCharmImmune, TagImmobiliseImmune, // La Conquête's magic
	TagReptilian, // DN3 battles
	TagCharges, TagBeast, TagFrightensHorses, TagKandar, TagKandarOfficer, TagGreyDwarf, TagBarbarian,
	TagGoblin, TagUnicorn, TagFanaticMaster,
	TagLeavesMaster, TagWithMaster} // chapter: the valley's peoples

// Terrain tags (terrain.yaml).
const (
	TerrWater      = "water"       // DN-MOVE-5, DN-COVER-25, DN-COVER-26, Gharvs
	TerrMarsh      = "marsh"       // Gharvs appear (DN-GHARV-2)
	TerrBeach      = "beach"       // beside water (DN-GHARV-2), boats land (DN-BOAT-6)
	TerrBlocksFire = "blocks-fire" // trees (DN-COVER-2)
	TerrBridge     = "bridge"      // not entered from water (DN-MOVE-7)
	TerrPontoon    = "pontoon"     // boats dock (DN-BOAT-6)
	TerrUnstable   = "unstable"    // the dark-green marsh (DN-MAP-9)
	TerrSteep      = "steep"       // a steep bank's top hides what is below (DN-COVER-27 … 29; fire chapter)
	TerrFlammable  = "flammable"   // DN3: wattle-and-daub houses (J.2.1.l; what fire does to them: GAP-31)
)

var terrainTags = []string{TerrWater, TerrMarsh, TerrBeach, TerrBlocksFire, TerrBridge, TerrPontoon, TerrUnstable,
	TerrSteep,     // fire chapter
	TerrFlammable} // DN3 battles

// Covers, lowest first (DN-COVER-1).
var covers = []string{"none", "light", "medium", "heavy", "total"}

// coverRank orders covers; -1 for an unknown word.
func coverRank(c string) int { return slices.Index(covers, c) }

// Has reports whether the kind carries tag.
func (k *Kind) Has(tag string) bool { return slices.Contains(k.Tags, tag) }

// Has reports whether the terrain carries tag.
func (t *Terrain) Has(tag string) bool { return slices.Contains(t.Tags, tag) }

// Effect is one part of a table result: who (A the attackers, D the
// defenders or the target) suffers what: stunned, wounded, killed, or a
// retreat of N hexes (DN-RES-1).
type Effect struct {
	Who  byte   `json:"who"`
	What string `json:"what"`
	N    int    `json:"n,omitempty"`
}

// Result words.
const (
	Stunned = "stunned"
	Wounded = "wounded"
	Killed  = "killed"
	Retreat = "retreat"
)

// parseEffects reads a result code: "-" (no effect), or effects joined by
// "+", each A or D then S (stunned), W (wounded), K (killed) or R (retreat
// one hex; R2 two hexes): "DW+DR".
func parseEffects(code string) ([]Effect, error) {
	if code == "-" {
		return nil, nil
	}
	var out []Effect
	for part := range strings.SplitSeq(code, "+") {
		if len(part) < 2 || (part[0] != 'A' && part[0] != 'D') {
			return nil, fmt.Errorf("result %q: write - or codes such as DS, DW, DK, DR, DR2, AR, AS, AW joined by +", code)
		}
		e := Effect{Who: part[0]}
		switch part[1] {
		case 'S':
			e.What = Stunned
		case 'W':
			e.What = Wounded
		case 'K':
			e.What = Killed
		case 'R':
			e.What, e.N = Retreat, 1
			if len(part) > 2 {
				n, err := strconv.Atoi(part[2:])
				if err != nil || n < 1 || n > 6 {
					return nil, fmt.Errorf("result %q: a retreat is R or R2 … R6", code)
				}
				e.N = n
			}
		default:
			return nil, fmt.Errorf("result %q: %c is not S, W, K or R", code, part[1])
		}
		if e.What != Retreat && len(part) > 2 {
			return nil, fmt.Errorf("result %q: only a retreat takes a number", code)
		}
		out = append(out, e)
	}
	return out, nil
}

// effectWords writes effects on one character for people: "wounded,
// retreats 1".
func effectWords(es []Effect) string {
	if len(es) == 0 {
		return "no effect"
	}
	var parts []string
	for _, e := range es {
		if e.What == Retreat {
			parts = append(parts, fmt.Sprintf("retreats %d", e.N))
		} else {
			parts = append(parts, e.What)
		}
	}
	return strings.Join(parts, ", ")
}

// combatWords writes a combat result for people: "defender wounded,
// attacker retreats 1".
func combatWords(es []Effect) string {
	if len(es) == 0 {
		return "no effect"
	}
	var parts []string
	for _, e := range es {
		who := "defender"
		if e.Who == 'A' {
			who = "attacker"
		}
		if e.What == Retreat {
			parts = append(parts, fmt.Sprintf("%s retreats %d", who, e.N))
		} else {
			parts = append(parts, who+" "+e.What)
		}
	}
	return strings.Join(parts, ", ")
}
