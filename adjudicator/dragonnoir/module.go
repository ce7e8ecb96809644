package dragonnoir

import (
	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// The module format. The rules booklet of Dragon Noir 2 refers to game
// sheets that no source holds: the combat and fire tables, the terrain
// table, the rate of fire, the infiltration, Gharv and jump tables, the
// counters' values, the magician sheets, the cave maps and the scenarios
// (GAP-1 … GAP-13). They are module data (adjudicator.Module), a folder of
// YAML files a group checks against its own copy and corrects:
//
//	module.yaml        name, title, status, notes
//	combat.yaml        the Combat Table: odds columns × d10 rows (GAP-1)
//	shifts.yaml        terrain column shifts, attacker × defender (GAP-2)
//	terrain.yaml       per terrain: MP, combat effect, cover; hexside features (GAP-3)
//	fire.yaml          weapon columns × cover × modified roll → A/B/C, and the key (GAP-4)
//	weapons.yaml       rate of fire & movement per weapon (GAP-5)
//	infiltration.yaml  the Infiltration table (GAP-6)
//	gharvs.yaml        Gharv appearance and capsizing (GAP-7)
//	jump.yaml          the Jump table (GAP-8)
//	counters.yaml      every character kind: faces, armour, weapon, shape, wounds, tags (GAP-9)
//	spells.yaml        the spells magicians may cast underground (GAP-12)
//	boards/NAME.yaml   cave boards, in the generic map format with levels (GAP-11)
//	assemblies/NAME.yaml  a scenario's boards put together (hexmap assembly files)
//	scenarios.yaml     boards, forces, entries, turns, victory, hidden markers (GAP-13)
//
// Every entry carries its provenance (Prov): rule, assumed with clues, or
// user. Every file is read strictly (yamlx: an unknown key is an error
// with its line), and the loader checks the tables against each other
// (load.go).

// lined is a list entry that remembers its line, for the loader's
// messages. Decoding it is strict like the rest of the file.
type lined[T any] struct {
	V    T
	Line int
}

// UnmarshalYAML decodes the entry strictly and records its line.
func (l *lined[T]) UnmarshalYAML(n *yaml.Node) error {
	l.Line = n.Line
	return yamlx.Decode(n, &l.V)
}

// ModuleInfo is module.yaml.
type ModuleInfo struct {
	Name   string `yaml:"name"`
	Title  string `yaml:"title"`
	Status string `yaml:"status"` // "assumed" when none of its tables is the printed one
	Notes  string `yaml:"notes"`
	Prov   Prov   `yaml:",inline"`
}

// ResultKey explains one result code of a table for people: "DS" is
// "defender stunned" (DN-RES-1).
type ResultKey struct {
	Code   string `yaml:"code"`
	Result string `yaml:"result"` // fire.yaml only: the combat code it means for the target ("DW")
	Means  string `yaml:"means"`
	Prov   Prov   `yaml:",inline"`
}

// CombatColumn is one odds column of the Combat Table: the results for a
// modified roll of 1 to 10 (GAP-1).
type CombatColumn struct {
	Odds  string   `yaml:"odds"` // "1-1", "2-1", …
	Rows  []string `yaml:"rows"` // 10 result codes, for modified rolls 1 … 10
	Prov  Prov     `yaml:",inline"`
	n     int      // the odds, n-1
	cells [][]Effect
}

type combatFile struct {
	Key     []lined[ResultKey]    `yaml:"key"`
	Columns []lined[CombatColumn] `yaml:"columns"`
}

// Shift is one cell of the terrain shift table (GAP-2): attackers on
// Attacker terrain against a defender on Defender terrain move the odds
// column Shift to the right (negative: to the left).
type Shift struct {
	Attacker string `yaml:"attacker"` // +, 0 or -
	Defender string `yaml:"defender"`
	Shift    int    `yaml:"shift"`
	Prov     Prov   `yaml:",inline"`
}

type shiftsFile struct {
	Shifts []lined[Shift] `yaml:"shifts"`
}

// Terrain is one kind of hex (GAP-3): what entering it costs, its effect
// on combat for the character standing on it, the cover it gives, and
// behaviours as tags. By-tag overrides say how it differs for characters
// carrying a counter tag (Elves on trees, Gharvs in water, Goblins
// swimming).
type Terrain struct {
	Kind       string            `yaml:"kind"`
	Title      string            `yaml:"title"`
	MP         int               `yaml:"mp"`
	Impassable bool              `yaml:"impassable"`
	Combat     string            `yaml:"combat"` // +, 0 or -
	Cover      string            `yaml:"cover"`  // none, light, medium, heavy, total
	Tags       []string          `yaml:"tags"`   // terrainTags
	CombatBy   map[string]string `yaml:"combat-by"`
	MPBy       map[string]int    `yaml:"mp-by"`
	ClosedTo   []string          `yaml:"closed-to"` // counter tags that may never enter
	Prov       Prov              `yaml:",inline"`
	// NotFrom: terrain tags of the hex left from which this one may not be
	// entered (a wooden bridge from water, DN-MOVE-7), except by characters
	// carrying a counter tag of NotFromExcept (Goblins, DN-SPEC-8).
	// Movement chapter.
	NotFrom       []string `yaml:"not-from"`
	NotFromExcept []string `yaml:"not-from-except"`
	// Fire chapter: CrossedWaterCover is the cover a target in water has
	// when the line of fire crosses this hex (a wooden bridge, DN-COVER-19).
	CrossedWaterCover string `yaml:"crossed-water-cover"`
	// OpenTo, when given, lists the counter tags of the only characters
	// that may enter (the deep river of Fond-du-Val: Goblins and
	// Reptilians, AMB-64; DN3 battles).
	OpenTo []string `yaml:"open-to"`
	// ClosedExcept reopens a closure for some: by a tag of ClosedTo, the
	// counter tags that may enter all the same (a ridden wolf swims,
	// Reptilians cross water armoured or mounted: DN3-PEOPLE-GOB-6,
	// -REPT-2, AMB-64; chapter: the valley's peoples).
	ClosedExcept map[string][]string `yaml:"closed-except"`
}

// Feature is one kind of hexside feature: whether it stops movement and
// fire, and the cover a target behind it has.
type Feature struct {
	Kind       string `yaml:"kind"`
	Title      string `yaml:"title"`
	BlocksMove bool   `yaml:"blocks-move"`
	BlocksFire bool   `yaml:"blocks-fire"`
	Cover      string `yaml:"cover"`
	Prov       Prov   `yaml:",inline"`
	// Fire chapter (fire_line.go). FireFrom: a character on its inside hex
	// fires from the middle of the opening (DN-COVER-5, -10, -23).
	FireFrom bool `yaml:"fire-from"`
	// Through says whom a line passing through it may reach: "" anyone
	// (a door, DN-COVER-22); "behind" only the character on its inside
	// hex (a window, DN-COVER-6); "aligned" only that character, from a
	// hex in line with the opening (an arrow slit, DN-COVER-11).
	Through string `yaml:"through"`
	// RoomFromOutside: a shooter on its outside hex fires in through it at
	// every hex of the room (the zone of group room holding its inside
	// hex; DN-COVER-7).
	RoomFromOutside bool `yaml:"room-from-outside"`
	// NoCoverFor lists when it gives no cover: shooter-inside (the shooter
	// on its inside hex), target-inside, shooter-beside (the shooter on
	// either of its hexes) (DN-COVER-21, -24).
	NoCoverFor []string `yaml:"no-cover-for"`
	// WaterCover is the cover it gives a target in water (the stone
	// bridge's low walls hide it: total, DN-COVER-20).
	WaterCover string `yaml:"water-cover"`
}

type terrainFile struct {
	Terrain  []lined[Terrain] `yaml:"terrain"`
	Hexsides []lined[Feature] `yaml:"hexsides"`
}

// FireColumn is one weapon's column of the fire table (GAP-4): for each
// cover, the result letter for a modified roll of 1 to 10.
type FireColumn struct {
	Weapon string              `yaml:"weapon"`
	Cover  map[string][]string `yaml:"cover"` // none, light, medium, heavy → 10 letters
	Prov   Prov                `yaml:",inline"`
}

type fireFile struct {
	Key     []lined[ResultKey]  `yaml:"key"`
	Weapons []lined[FireColumn] `yaml:"weapons"`
}

// Weapon is one missile weapon's rate of fire and movement (GAP-5).
type Weapon struct {
	ID    string `yaml:"id"`
	Title string `yaml:"title"`
	// MoveAfterFire: a shooter that fired in offensive fire may still move
	// in the same player-turn.
	MoveAfterFire bool `yaml:"move-after-fire"`
	// DefendAfterMove / DefendAfterFire: a shooter that moved / fired in
	// its own player-turn may still make defensive fire in the Krob turn.
	DefendAfterMove bool `yaml:"defend-after-move"`
	DefendAfterFire bool `yaml:"defend-after-fire"`
	Prov            Prov `yaml:",inline"`
}

type weaponsFile struct {
	Range   int             `yaml:"range"` // DN-FIRE-8: 5 hexes underground
	Weapons []lined[Weapon] `yaml:"weapons"`
	// DayRange is how far a shot reaches in the open air, in the battles
	// of La Conquête by day (AMB-88, GAP-29); a module without it shoots
	// no farther than range.
	DayRange DayRange `yaml:"day-range"`
}

// DayRange is the fire range in the valley by day (GAP-29).
type DayRange struct {
	Hexes int  `yaml:"hexes"`
	Prov  Prov `yaml:",inline"`
}

// InfiltrationRow is a row of the Infiltration table (GAP-6): the result
// for each roll of 1 to 10 when crossing a hex next to an enemy carrying
// Enemy as a counter tag ("any" for every enemy).
type InfiltrationRow struct {
	Enemy string   `yaml:"enemy"`
	Rolls []string `yaml:"rolls"` // "-", "stop", "DS", "DW", "DK"
	Prov  Prov     `yaml:",inline"`
}

type infiltrationFile struct {
	Rows []lined[InfiltrationRow] `yaml:"rows"`
}

// GharvAppearance is the rolls on which a Gharv appears for a character
// in one situation (GAP-7): in-water, beside-water (beach, boat), marsh.
type GharvAppearance struct {
	Where   string `yaml:"where"`
	Appears []int  `yaml:"appears"`
	Prov    Prov   `yaml:",inline"`
}

// Capsize is the rolls on which a Gharv capsizes a boat (GAP-7), and what
// then befalls each character aboard, as a result code of the combat key
// ("-" for nothing): Overboard for one who may be in water, Sinks for one
// who may not enter water (DN-MOVE-5: armour sinks).
type Capsize struct {
	Capsizes  []int  `yaml:"capsizes"`
	Overboard string `yaml:"overboard"`
	Sinks     string `yaml:"sinks"`
	Prov      Prov   `yaml:",inline"`
}

type gharvsFile struct {
	Kind       string                   `yaml:"kind"` // the Gharv's counter kind
	Appearance []lined[GharvAppearance] `yaml:"appearance"`
	Capsize    Capsize                  `yaml:"capsize"`
}

// JumpTable is the Jump table (GAP-8): the result for each roll.
type JumpTable struct {
	Rolls []string `yaml:"rolls"` // "-", "DS", "DW", "DK"
	Prov  Prov     `yaml:",inline"`
}

// Face is a counter face's printed numbers (DN-CNT-6): attack (black),
// movement (blue), defence (red); the Queen's and Guards' rear defence
// (DN-CNT-10), the Gharvs' land movement (DN-CNT-8).
type Face struct {
	Attack   int `yaml:"attack" json:"attack"`
	Move     int `yaml:"move" json:"move"`
	Defence  int `yaml:"defence" json:"defence"`
	Rear     int `yaml:"rear" json:"rear,omitempty"`
	MoveLand int `yaml:"move-land" json:"move_land,omitempty"`
}

// Kind is one kind of character (counters.yaml, GAP-9). Its behaviour is
// its tags and fields, never its name: code asks k.Has(TagNeverStunned),
// never whether it is a Troll.
type Kind struct {
	ID    string `yaml:"id"`
	Title string `yaml:"title"`
	Side  string `yaml:"side"` // adventurers, krobs or gharvs
	Count int    `yaml:"count"`
	Shape string `yaml:"shape"` // single, pair, triangle, rosette
	// Faces: healthy (required), wounded, stunned, berserk.
	Faces    map[string]Face `yaml:"faces"`
	Armoured bool            `yaml:"armoured"` // defence circled (DN-CNT-9, DN-CNT-11)
	Weapon   string          `yaml:"weapon"`   // a weapon of weapons.yaml, for shooters
	Wounds   int             `yaml:"wounds"`   // the wound that kills (AMB-11: 2)
	Level    int             `yaml:"level"`    // a magician's level (DN-MAGIC-2)
	// La Conquête (spell_lists.go): SpellList, a magician's sheet (mage,
	// sorcerer, druid, unicorn: DN3-MAGIC-3); ValleyLevel, his level in the
	// valley when it differs from Level (AMB-73); MagicResistance, added to
	// the difficulty of every spell cast at it but its own on itself
	// (DN3-MAGIC-9, -10, Table DN3-T6, AMB-86).
	SpellList       string `yaml:"spell-list"`
	ValleyLevel     int    `yaml:"valley-level"`
	MagicResistance int    `yaml:"magic-resistance"`
	// StunnedRetreat: a stunned result becomes a retreat of this many hexes
	// (DN-KROB-10, DN-SPEC-10, DN-SPEC-12); 0 when it can be stunned.
	StunnedRetreat int      `yaml:"stunned-retreat"`
	FireTarget     int      `yaml:"fire-target"`  // added to a fire roll at it (DN-FIRE-10)
	FireShooter    int      `yaml:"fire-shooter"` // added to its own fire rolls (DN-SPEC-5)
	GuardedBy      string   `yaml:"guarded-by"`   // a kind whose defence joins its own when adjacent (DN-SPEC-11)
	Tags           []string `yaml:"tags"`
	Prov           Prov     `yaml:",inline"`
	// DN3: the Ents and the Black Dragon (special_ent.go, special_dragon.go,
	// move_rider.go), fields a kind of the valley may use too.
	//
	// StepCost is what one step of a counter of several hexes costs: ""
	// the dearest hex it newly covers (the Queen and her Guards,
	// DN-MOVE-17: turning is free); "all" the dearest of all the hexes it
	// covers after the step, turning too (DN3-PEOPLE-ENT-2); "centre" the
	// hex its anchor enters, the centre of its body (DN3-PEOPLE-DRAGON-2).
	StepCost string `yaml:"step-cost"`
	// RiderEnters: terrain kinds where a rider of this kind is no rider:
	// it enters them at the cost on foot (an Ent among trees,
	// DN3-PEOPLE-ENT-1; move_rider.go).
	RiderEnters []string `yaml:"rider-enters"`
	// Favourable: terrain kinds that are + for it in combat, whatever the
	// terrain's own effect (trees and brush for an Ent, DN3-PEOPLE-ENT-7).
	Favourable []string `yaml:"favourable"`
	// CombatBonus is a die modifier in its favour in every combat it
	// fights: added to the roll of attackers against it, taken off its
	// own attack roll (DN3-PEOPLE-ENT-3, AMB-62).
	CombatBonus int `yaml:"combat-bonus"`
	// Attacks: the attacks it makes in a turn when more than one, on
	// different enemies or combined on one (mode: both); each character
	// it carries takes one away (DN3-PEOPLE-ENT-9, DN3-PEOPLE-ENT-20).
	Attacks int `yaml:"attacks"`
	// ReachUp: it attacks a character on a hex next to it up to this many
	// whole levels above its own (DN3-PEOPLE-ENT-11, DN3-PEOPLE-DRAGON-4);
	// ReachOver: even across a hexside feature that stops movement, a
	// rampart's parapet (DN3-PEOPLE-DRAGON-4).
	ReachUp   int  `yaml:"reach-up"`
	ReachOver bool `yaml:"reach-over"`
	// NoCoverIn: terrain kinds that give it no cover from fire
	// (DN3-PEOPLE-ENT-15).
	NoCoverIn []string `yaml:"no-cover-in"`
	// InfilSize: it rolls for infiltration only past enemies covering at
	// least this many hexes, and makes only such enemies roll past it
	// (DN3-PEOPLE-ENT-17, -18); 0 for everyone else.
	InfilSize int `yaml:"infiltration-size"`
	// FireTargetFlaming replaces FireTarget for a flaming missile
	// (DN3-PEOPLE-ENT-12).
	FireTargetFlaming int `yaml:"fire-target-flaming"`
	// Fireball: what a fireball does to it, for rolls 1 to 10, instead of
	// the spell's rows (DN3-PEOPLE-ENT-30).
	Fireball []string `yaml:"fireball"`
	// Carries: the counter tags of the characters it may carry, two at
	// most, on its front hexes (DN3-PEOPLE-ENT-20, -21); "human" only with
	// the option ent-passengers=and-humans.
	Carries []string `yaml:"carries"`
	// Cites: the rules a report names for this kind's conversions, by
	// what they convert: stunned, killed, fire-target, rear, and fly (it
	// does not).
	Cites    map[string]string `yaml:"cites"`
	fireball [][]Effect        // Fireball, parsed
	// Chapter: the valley's peoples (La Conquête, special_peoples.go,
	// move_rider.go); Favourable, MagicResistance and Cites above serve
	// them too (cites: ride, leaves, fanatic, immune).
	//
	// Box is "dn3" for a counter of La Conquête (GAP-18), "" for one of
	// L'Épreuve's box.
	Box string `yaml:"box"`
	// FireStunnedRetreat: a stunned result from missile fire becomes a
	// retreat of this many hexes (DN3-PEOPLE-UNIC-5); 0 as in combat.
	FireStunnedRetreat int `yaml:"fire-stunned-retreat"`
	// Masters are each counter's master, one a counter in order: the
	// druid of a druid's animal (DN3-PEOPLE-DRUID-3), the Goblin of a wolf
	// or hyena (DN3-PEOPLE-GOB-5).
	Masters []string `yaml:"masters"`
	// Leash: the most hexes it may move away from its master of its own
	// accord (DN3-PEOPLE-GOB-5); 0 for no limit.
	Leash int `yaml:"leash"`
	// RiddenBy: who may ride it, a steed (move_rider.go): counter or kind
	// IDs, "tag:T" for every kind carrying tag T, "master" for its own
	// master, "any" for anyone; NotRiddenBy: who never may. Empty: it is
	// never ridden.
	RiddenBy    []string `yaml:"ridden-by"`
	NotRiddenBy []string `yaml:"not-ridden-by"`
	// RideHealthy: it can no longer be ridden once wounded
	// (DN3-PEOPLE-UNIC-8).
	RideHealthy bool `yaml:"ride-healthy"`
	// HorseKilled is what a "horse killed" result does to it under its
	// rider: killed (the default) or wound, one wound (DN3-PEOPLE-UNIC-6).
	HorseKilled string `yaml:"horse-killed"`
}

// cite is the rule a report names for what of k (Cites), or def.
func (k *Kind) cite(what, def string) string {
	if r := k.Cites[what]; r != "" {
		return r
	}
	return def
}

type countersFile struct {
	Kinds []lined[Kind] `yaml:"kinds"`
}

// Placement puts counters of a scenario on the map: each unit at its own
// location (Units and At zip), facing Facing for counters of several hexes.
type Placement struct {
	Unit   string `yaml:"unit"`
	At     string `yaml:"at"`
	Facing string `yaml:"facing"`
	// Level is a magician's level in this scenario (DN-MAGIC-2: 2 if he
	// survived L'Exil, else 1); 0 keeps its kind's (magic chapter).
	Level int `yaml:"level"`
}

// HiddenMarker is a scenario's secret counter ("Orbe?", "Khuzun?",
// "Soleil ?"): where it lies, whether it is the real one, who knows.
type HiddenMarker struct {
	ID    string `yaml:"id" json:"id"`
	Kind  string `yaml:"kind" json:"kind"` // orb, prisoner, exit
	At    string `yaml:"at" json:"at"`
	Real  bool   `yaml:"real" json:"real,omitempty"`
	Owner string `yaml:"owner" json:"owner,omitempty"` // the side that knows; "" the referee alone
	Shown bool   `yaml:"-" json:"shown,omitempty"`     // turned face up: everyone knows
	// Drawn: whether it is the real one was drawn before it was turned
	// over (a detection spell sensed it); Real then says (scenarios chapter).
	Drawn bool `yaml:"-" json:"drawn,omitempty"`
}

// Victory is a scenario's victory condition (GAP-13): "eliminate" (Side
// wins as soon as no living enemy character is on the map), "hold" (Side
// wins at the end, if no other condition was met first).
type Victory struct {
	Kind string `yaml:"kind"`
	Side string `yaml:"side"`
	Zone string `yaml:"zone"` // kept for the scenarios chapter's exits
	Text string `yaml:"text"`
	// Scenarios chapter: "kill" names the characters whose deaths win
	// (Units); "find" the kind of hidden marker whose real one, revealed,
	// wins (Marker: orb, prisoner, exit).
	Units  []string `yaml:"units"`
	Marker string   `yaml:"marker"`
}

// Scenario is one scenario of scenarios.yaml.
type Scenario struct {
	ID      string            `yaml:"id"`
	Title   string            `yaml:"title"`
	Doc     string            `yaml:"doc"`
	Map     string            `yaml:"map"` // an assembly of assemblies/, or a board of boards/
	Turns   int               `yaml:"turns"`
	Entries map[string]string `yaml:"entries"` // side → the zone it enters by
	Forces  []Placement       `yaml:"forces"`
	Webs    []string          `yaml:"webs"`
	Boats   []Placement       `yaml:"boats"`
	Hidden  []HiddenMarker    `yaml:"hidden"`
	Victory []Victory         `yaml:"victory"`
	Prov    Prov              `yaml:",inline"`
	// Oubliettes: where the oubliette entrance counters lie (DN-MAP-11,
	// at most four, DN-CNT-13). Movement chapter.
	Oubliettes []string `yaml:"oubliettes"`
}

type scenariosFile struct {
	Scenarios []lined[Scenario] `yaml:"scenarios"`
}

// Data is a module read and checked: the tables the rules look values up
// in (tables.go), the boards and the scenarios.
type Data struct {
	Info      ModuleInfo
	Key       map[string]*ResultKey // the Combat Table's codes
	Columns   []*CombatColumn       // by odds, 1-1 first
	Shifts    map[string]*Shift     // "attacker/defender"
	Terrain   map[string]*Terrain
	Features  map[string]*Feature
	FireKey   map[string]*ResultKey
	Fire      map[string]*FireColumn // by weapon
	Range     int
	DayRange  DayRange // DN3 battles (battle_fatigue.go)
	Weapons   map[string]*Weapon
	Infil     []*InfiltrationRow
	GharvKind string
	Appear    map[string]*GharvAppearance
	Capsize   Capsize
	Jump      JumpTable
	Kinds     map[string]*Kind // by kind ID
	Counters  map[string]*Kind // by counter ID (ID-n when Count > 1)
	Spells    map[string]*Spell
	Boards    map[string]*hexmap.Map
	Scenarios []*Scenario
	Digest    string
	maps      map[string]*hexmap.Map // assembled, by name
}

// Scenario returns the scenario called id.
func (d *Data) Scenario(id string) (*Scenario, bool) {
	for _, s := range d.Scenarios {
		if s.ID == id {
			return s, true
		}
	}
	return nil, false
}
