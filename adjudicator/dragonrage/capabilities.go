package dragonrage

// What a unit type can do. Each capability is a field of its row in
// data/counters.yaml, read from the rule named beside it; the rules ask
// these methods, never a type code. capabilities_test.go checks the rows
// against the tables and rule lists they come from.

// MeleeRule says whether a unit makes melee attacks.
type MeleeRule string

const (
	// MeleeAttacks is the default: the unit attacks in the melee phase.
	MeleeAttacks MeleeRule = ""
	// MeleeByFire is the archers': they attack with the fire rules even
	// when adjacent, unless the game's "archers" ruling lets them melee
	// (DR-ARH-1, DR-AMB-24).
	MeleeByFire MeleeRule = "fire-rules"
	// MeleeNever is the siege engines': they only add their fire
	// (DR-SIEGE-3).
	MeleeNever MeleeRule = "never"
)

// VPRule says how an invading unit destroys a VP hex.
type VPRule string

const (
	// VPOther: by rules of its own chapter, or not at all.
	VPOther VPRule = ""
	// VPOccupy: by ending its move there and making no attack or fire
	// that turn (DR-VP-5, DR-VP-6).
	VPOccupy VPRule = "occupy"
	// VPEnter: by entering it when no defender is there (DR-VP-4,
	// DR-TRL-2, DR-SPELL-ELEM-11).
	VPEnter VPRule = "enter"
	// VPSpells: only with spells (DR-VP-7).
	VPSpells VPRule = "spells"
	// VPNever: never (DR-ELOWYN-13).
	VPNever VPRule = "never"
)

// TowerRule says how a tower changes a firer's range.
type TowerRule string

const (
	// TowerGeneral: +1 when the target is not in a tower and the fire is
	// not part of a melee (DR-FIRE-6).
	TowerGeneral TowerRule = ""
	// TowerAlways: +1 in a tower, whatever the target (DR-BAL-1).
	TowerAlways TowerRule = "always"
	// TowerNever: no change (DR-CAT-1).
	TowerNever TowerRule = "never"
)

// IsHuman reports whether the unit is a human counter, orange or yellow
// (DR-COMP-2): humans free Elowyn (DR-ELOWYN-10, -11).
func (t *UnitType) IsHuman() bool { return t.Human }

// Leads reports whether the unit is a hero: it doubles the units stacked
// with it, gives its aura against monsters and its side is demoralized
// when all heroes are dead (DR-HERO-1, DR-HERO-2, DR-MATK-16).
func (t *UnitType) Leads() bool { return t.Hero }

// TakesWound reports whether a "destroyed" result wounds the unit first
// (DR-HERO-5, DR-ELOWYN-5).
func (t *UnitType) TakesWound() bool { return t.WoundedFirst }

// Casts reports whether the unit casts spells and holds spell points
// (DR-MAGIC-1).
func (t *UnitType) Casts() bool { return t.Wizard }

// IsSummoned reports whether the unit is summoned by a spell: never set
// up, it moves by the Elemental's rules (DR-SPELL-ELEM-1, -5, -9).
func (t *UnitType) IsSummoned() bool { return t.Summoned }

// IsDragon reports whether the unit is a Dragon (an uncontrolled
// Elemental goes for it after a wizard, DR-SPELL-ELEM-10).
func (t *UnitType) IsDragon() bool { return t.Dragon }

// IsMonster reports whether the unit is a monster, minor or major (the
// Elemental included, DR-ELM-1).
func (t *UnitType) IsMonster() bool { return t.Kind == "minor" || t.Kind == "major" }

// Melees reports whether the unit may be offered the melee phase at all
// (neither archers nor siege engines: DR-ARH-1, DR-SIEGE-3).
func (t *UnitType) Melees() bool { return t.Melee == MeleeAttacks }

// NeedsHeroVsMonsters reports whether the unit attacks a monster only
// with a hero by it or under Boost Morale (DR-MIL-1).
func (t *UnitType) NeedsHeroVsMonsters() bool { return t.FearsMonsters }

// Occupies reports whether the unit destroys a VP hex by occupying it
// (DR-VP-5, DR-VP-6).
func (t *UnitType) Occupies() bool { return t.DestroysVP == VPOccupy }

// DestroysByEntering reports whether the unit destroys an undefended VP
// hex by entering it (DR-VP-4, DR-TRL-2).
func (t *UnitType) DestroysByEntering() bool { return t.DestroysVP == VPEnter }

// LeavesLadder reports whether the unit climbs only once a game and may
// not attack in the turn it tries (DR-CLIMB-7).
func (t *UnitType) LeavesLadder() bool { return t.Ladder }

// Escorts reports whether a defender of this type may escort Elowyn out
// of Nurkott (DR-ELOWYN-12).
func (t *UnitType) Escorts() bool { return t.Escort }

// EntersRivers reports whether the unit may enter river hexes and cross
// from bank to bank (DR-TERR-3, DR-GIANT-4, DR-SERP-2).
func (t *UnitType) EntersRivers() bool { return t.Rivers }

// Swims reports whether the unit lives in the water: it never leaves sea
// and river hexes, enters by the serpent entry points, swims under
// bridges, is fired on only near the shore, attacks only by the water,
// breaks palisades and destroys an empty VP hex by attacking it
// (DR-SERP-2 to DR-SERP-10).
func (t *UnitType) Swims() bool { return t.Swimmer }

// MayEndInTower reports whether the unit may end its move in a tower
// (not cavalry, DR-CAV-1).
func (t *UnitType) MayEndInTower() bool { return !t.NoTower }

// BreaksBridges reports whether a wooden bridge gives way under the unit
// (DR-TREX-2).
func (t *UnitType) BreaksBridges() bool { return t.Heavy }

// Overruns reports whether the unit passes through enemy units
// (DR-OVR-2, DR-OVR-4).
func (t *UnitType) Overruns() bool { return t.Overrun }

// Grudges reports whether the unit must go after those who meleed it the
// turn before (DR-TREX-4).
func (t *UnitType) Grudges() bool { return t.Grudge }

// Fires reports whether the unit shoots (DR-FIRE-1, DR-SIEGE-3): only
// firers have a range.
func (t *UnitType) Fires() bool { return t.Range > 0 }

// FireRange is the reach of a firer: from a tower, at a target in a
// tower or not, with the fire part of a melee or not (DR-FIRE-6,
// DR-BAL-1, DR-CAT-1).
func (t *UnitType) FireRange(inTower, targetInTower, inMelee bool) (lo, hi int) {
	lo, hi = max(t.MinRange, 1), t.Range
	switch t.TowerRange {
	case TowerGeneral:
		if inTower && !inMelee && !targetInTower {
			hi++
		}
	case TowerAlways:
		if inTower {
			hi++
		}
	}
	return lo, hi
}

// FireStrength is the firer's strength at distance d against normal units
// (DR-BAL-4).
func (t *UnitType) FireStrength(d int) int {
	if t.FarFrom > 0 && d >= t.FarFrom {
		return t.FarAttack
	}
	return t.Attack
}

// MonsterNeed is the 1d6 roll a firer needs to hit a monster at distance
// d, before the monster's own number (DR-FIRE-8, DR-BAL-3, DR-CAT-4): the
// row's last value holds for every longer distance.
func (t *UnitType) MonsterNeed(d int) int {
	if len(t.MonsterHit) == 0 {
		return 6
	}
	return t.MonsterHit[min(max(d, 1), len(t.MonsterHit))-1]
}

// NeedsSight reports whether the firer needs a line of sight (not the
// catapult, which lobs its shots: DR-CAT-3).
func (t *UnitType) NeedsSight() bool { return !t.Lobs }

// MissileName names what the firer shoots, for the report.
func (t *UnitType) MissileName() string {
	if t.Missile == "" {
		return "an arrow"
	}
	return t.Missile
}

// elowynType is the code of Elowyn's counter: her chapter (elowyn.go) is
// about her alone, so the rules that name her ask isElowyn.
const elowynType = "ELW"

// isElowyn reports whether u is the princess (DR-ELOWYN).
func isElowyn(u *Unit) bool { return u.Type == elowynType }
