package dragonnoir

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/yamlx"
)

// The two mails of a game turn (PBEM-GEN-5, docs/orders/dragon-noir.md):
// the Adventurer player's, an ordered list of shots, spells, moves and
// attacks with standing orders for the Krob turn; then the Krob player's,
// moves (with facings for the Queen and her Guards), the Krobs that will
// not move, and attacks. Each list is resolved in the order written.
// Parsing checks what can be checked before anything moves (the units
// exist and are the sender's, the locations are on the map, a unit acts
// once per list); what depends on the order's turn to come (a path, a line
// of fire, odds) is checked when it comes, and an order that no longer
// holds is skipped with the reason in the report.

// Error codes of Dragon Noir orders (stable: docs/orders/dragon-noir.md).
const (
	codeNotYours        = "not-yours"        // a unit of the other side
	codeWrongSection    = "wrong-section"    // a section the side does not have (Krobs do not fire)
	codeBadLocation     = "bad-location"     // not a location of the map
	codeTwice           = "twice"            // a unit given two orders of one kind
	codeUnknownSpell    = "unknown-spell"    // no such spell in the module
	codeBadAnswer       = "bad-answer"       // an answer the question does not accept
	codeUnknownStanding = "unknown-standing" // a standing order nobody reads
	codeNotMagician     = "not-a-magician"   // a spell from a character who is none
)

// Orders is one player-turn's mail (the Adventurer's or the Krob's).
type Orders struct {
	Fire     []FireOrder   `json:"fire,omitempty" yaml:"fire,omitempty"`
	Spells   []SpellOrder  `json:"spells,omitempty" yaml:"spells,omitempty"`
	Moves    []MoveOrder   `json:"moves,omitempty" yaml:"moves,omitempty"`
	Hold     []string      `json:"hold,omitempty" yaml:"hold,omitempty"` // Krobs that will not move (AMB-27)
	Attacks  []AttackOrder `json:"attacks,omitempty" yaml:"attacks,omitempty"`
	Standing Standing      `json:"standing,omitempty" yaml:"standing,omitempty"`
	Concede  bool          `json:"concede,omitempty" yaml:"concede,omitempty"`
	// Reappear is where each invisible magician reappears, in the
	// Adventurer mail with defensive-fire: live only (magic chapter,
	// spell_reappear.go: HID-6).
	Reappear map[string]string `json:"reappear,omitempty" yaml:"reappear,omitempty"`
	// Techniques are the Magna Carta techniques the peoples' rules name
	// (chapter: the valley's peoples, orders_peoples.go).
	Techniques []TechniqueOrder `json:"techniques,omitempty" yaml:"techniques,omitempty"`
	// Traitor: the Rebels announce the traitor before the mail is
	// resolved (a battle of La Conquête, battle_traitor.go).
	Traitor bool `json:"traitor,omitempty" yaml:"traitor,omitempty"`
}

// FireOrder is one shot of offensive fire (PBEM-DN-1).
type FireOrder struct {
	Shooter string `json:"shooter" yaml:"shooter"`
	At      string `json:"at" yaml:"at"` // the target unit
	Line    int    `json:"-" yaml:"-"`
}

// SpellOrder is one spell (PBEM-DN-2): the caster, the spell, its target
// (a unit or a location), how many units of it are bought (MP, points),
// and when: before fire, moves or attacks, or at the end, or before one
// action ("move konrad", AMB-19). Hexes are the locations (or walls,
// "0202/0203") a spell on several hexes covers, or a levitation's flight;
// To is a destination (teleportation, invisibility).
type SpellOrder struct {
	Caster string `json:"caster" yaml:"caster"`
	Spell  string `json:"spell" yaml:"spell"`
	At     string `json:"at,omitempty" yaml:"at,omitempty"`
	Units  int    `json:"units,omitempty" yaml:"units,omitempty"`
	Before string `json:"before,omitempty" yaml:"before,omitempty"` // fire, moves, attacks, end (default moves)
	Line   int    `json:"-" yaml:"-"`
	// magic chapter
	Hexes []string `json:"hexes,omitempty" yaml:"hexes,omitempty"`
	To    string   `json:"to,omitempty" yaml:"to,omitempty"`
}

// MoveOrder is one character's move (PBEM-DN-3, -5): its path of
// locations, the first step first; for a counter of several hexes its
// facing at the end (and along the way with Facings, one per step); Jump
// names the location of the path it jumps down to (DN-MOVE-13).
type MoveOrder struct {
	Unit    string   `json:"unit" yaml:"unit"`
	Path    []string `json:"path" yaml:"path"`
	Facing  string   `json:"facing,omitempty" yaml:"facing,omitempty"`
	Facings []string `json:"facings,omitempty" yaml:"facings,omitempty"`
	Jump    string   `json:"jump,omitempty" yaml:"jump,omitempty"`
	Line    int      `json:"-" yaml:"-"`
	// Fly: a Gargoyle flies its path instead of walking it (DN-SPECTRE-2,
	// chapter: spectres).
	Fly bool `json:"fly,omitempty" yaml:"fly,omitempty"`
	// Leave: in a battle, the Region whose edge it leaves the map by at
	// the end of its move (DN3-CAMP-BATTLE-8, battle_turn.go).
	Leave string `json:"leave,omitempty" yaml:"leave,omitempty"`
	// Movement chapter (move.go): Row, the hexes the boat's bow enters
	// after the path (DN-BOAT-3 … 5); Then, the path walked ashore after
	// rowing (DN-BOAT-4); IfStopped, the path walked from where the move
	// was stopped, with the MP left (PBEM-DN-3, -5).
	Row       []string `json:"row,omitempty" yaml:"row,omitempty"`
	Then      []string `json:"then,omitempty" yaml:"then,omitempty"`
	IfStopped []string `json:"if_stopped,omitempty" yaml:"if-stopped,omitempty"`
	// DN3 (move_climb.go): ClimbOn, the Ent the character climbs onto at
	// the end of its path (DN3-PEOPLE-ENT-22); ClimbOff, the location a
	// character carried climbs down to, its whole move (DN3-PEOPLE-ENT-23,
	// -24).
	ClimbOn  string `json:"climb_on,omitempty" yaml:"climb-on,omitempty"`
	ClimbOff string `json:"climb_off,omitempty" yaml:"climb-off,omitempty"`
	// Riders (move_rider.go; chapter: the valley's peoples): Mount, the
	// steed next to it that it mounts after its path, and Ride, the path
	// the pair then rides; Dismount, the location next to it that a rider
	// gets down onto after riding its path.
	Mount    string   `json:"mount,omitempty" yaml:"mount,omitempty"`
	Ride     []string `json:"ride,omitempty" yaml:"ride,omitempty"`
	Dismount string   `json:"dismount,omitempty" yaml:"dismount,omitempty"`
}

// AttackOrder is one combat (PBEM-DN-4, -8): the attackers (together when
// several), the defenders; a Guard's Mode (two attacks on different
// enemies, or "legs": one doubled attack on an enemy between its legs,
// DN-KROB-1), an Ent's ("both": its two attacks combined on one enemy,
// DN3-PEOPLE-ENT-9); From front or rear against the Queen or a Guard (DN-KROB-2,
// -3); Web, instead of defenders, the location of a web to destroy
// (DN-WEB-1).
type AttackOrder struct {
	Attackers []string `json:"attackers" yaml:"attackers"`
	Defenders []string `json:"defenders,omitempty" yaml:"defenders,omitempty"`
	Mode      string   `json:"mode,omitempty" yaml:"mode,omitempty"`
	From      string   `json:"from,omitempty" yaml:"from,omitempty"`
	Web       string   `json:"web,omitempty" yaml:"web,omitempty"`
	Line      int      `json:"-" yaml:"-"`
	// Ram: the location of a building an Ent or the dragon rams, as a
	// makeshift ram (DN3-PEOPLE-ENT-19, DN3-PEOPLE-DRAGON-5; special_ent.go).
	Ram string `json:"ram,omitempty" yaml:"ram,omitempty"`
	// Charge: the attackers charge (riders and unicorns; chapter: the
	// valley's peoples, combat_peoples.go).
	Charge bool `json:"charge,omitempty" yaml:"charge,omitempty"`
}

// Standing orders by key, each the YAML of its answer (pause.State keeps
// them until the side changes them): casualties, advance, retreat,
// defensive-fire, spell-trigger.
type Standing map[string]string

// Standing order keys, one per kind of question (PBEM-GEN-4).
const (
	KeyCasualties    = "casualties"     // PBEM-DN-9: a priority list of units
	KeyAdvance       = "advance"        // PBEM-DN-10: never, or always
	KeyRetreat       = "retreat"        // PBEM-DN-11: auto
	KeyDefensiveFire = "defensive-fire" // PBEM-DN-6: triggers
	KeySpellTrigger  = "spell-trigger"  // PBEM-DN-7: spells in the Krob turn (spell_triggers.go)
	KeyKandarFire    = "kandar-fire"    // PBEM-DN3-20: retreat, wound or wound-unless-wounded (chapter: the valley's peoples)
)

var standingKeys = []string{KeyCasualties, KeyAdvance, KeyRetreat, KeyDefensiveFire, KeySpellTrigger, KeyKandarFire}

// Trigger is a standing defensive-fire order (PBEM-DN-6): Shooter fires at
// the first moving Krob that is At (any, a unit, or kind:K) and within
// Within hexes (default the range) where it has a shot.
type Trigger struct {
	Shooter string `json:"shooter" yaml:"shooter"`
	At      string `json:"at" yaml:"at"`
	Within  int    `json:"within,omitempty" yaml:"within,omitempty"`
	// Fire chapter (fire_trigger.go): Hexes, the locations where it fires
	// ("at hex H"); Unmoved, when it fires at the Krobs that do not move
	// (AMB-27): after the moves (default), before them, or never.
	Hexes   []string `json:"hexes,omitempty" yaml:"hexes,omitempty"`
	Unmoved string   `json:"unmoved,omitempty" yaml:"unmoved,omitempty"`
}

type ordersFile struct {
	Fire     []lined[FireOrder]   `yaml:"fire"`
	Spells   []lined[SpellOrder]  `yaml:"spells"`
	Moves    []lined[MoveOrder]   `yaml:"moves"`
	Hold     []string             `yaml:"hold"`
	Attacks  []lined[AttackOrder] `yaml:"attacks"`
	Standing map[string]yaml.Node `yaml:"standing"`
	Concede  bool                 `yaml:"concede"`
	Reappear yaml.Node            `yaml:"reappear"` // magic chapter
	// chapter: the valley's peoples (orders_peoples.go)
	Techniques []lined[TechniqueOrder] `yaml:"techniques"`
	Traitor    bool                    `yaml:"traitor"` // battle_traitor.go
}

// parseOrders reads a player-turn's mail for side.
func parseOrders(st *State, side adjudicator.Side, n *yaml.Node) (*Orders, error) {
	var f ordersFile
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return &Orders{}, nil
	}
	if err := yamlx.Decode(n, &f); err != nil {
		return nil, err
	}
	o := &Orders{Concede: f.Concede, Hold: f.Hold, Traitor: f.Traitor}
	var errs adjudicator.OrderErrors
	bad := func(line int, code, format string, args ...any) {
		errs = append(errs, &adjudicator.OrderError{Line: line, Code: code, Msg: fmt.Sprintf(format, args...)})
	}
	section := func(key string) int {
		if k := yamlx.Key(n, key); k != nil {
			return k.Line
		}
		return n.Line
	}
	if f.Traitor { // battle_traitor.go
		if why := st.traitorWhy(side); why != "" {
			bad(section("traitor"), codeNotAllowed, "traitor: %s", why)
		}
	}
	if side == Krobs && st.Battle == nil && (len(f.Fire) > 0 || len(f.Spells) > 0 && !st.valley()) { // magic chapter: the valley's Reptilians cast (DN3-MAGIC-3); in a battle both sides shoot (AMB-69)
		k := "fire"
		if len(f.Fire) == 0 {
			k = "spells"
		}
		bad(section(k), codeWrongSection, "Krobs neither shoot nor cast spells (DN-TURN-8): send moves:, hold: and attacks:")
	}
	if side == Adventurers && st.Battle == nil && len(f.Hold) > 0 {
		bad(section("hold"), codeWrongSection, "hold: is for the Krob player (AMB-27); an Adventurer that is not moved simply stays")
	}
	unit := func(line int, id string) *Char {
		c := st.Chars[id]
		switch {
		case c == nil:
			bad(line, adjudicator.CodeUnknownUnit, "no character %q in this game%s", id, suggest(id, slices.Sorted(maps.Keys(st.Chars))))
		case c.Side != side && !st.mayOrderTraitor(side, id, f.Traitor): // the traitor announced in this mail (battle_traitor.go)
			bad(line, codeNotYours, "%s is a %s character: you play the %s", id, st.SideName(c.Side), st.SideName(side))
		case !c.Alive() && !st.reappearsWith(side, c) && !c.waiting(): // magic chapter: an invisible magician back as this mail starts; DN3 battles: waiting by its edge
			bad(line, adjudicator.CodeUnknownUnit, "%s is not on the map", id)
		default:
			return c
		}
		return nil
	}
	loc := func(line int, s string) {
		if _, err := locOn(st.board, s); err != nil {
			bad(line, codeBadLocation, "%v", err)
		}
	}
	once := map[string]map[string]bool{}
	twice := func(what string, line int, id string) {
		if once[what] == nil {
			once[what] = map[string]bool{}
		}
		if once[what][id] {
			bad(line, codeTwice, "%s has a second %s order: one per fire sequence, move or combat (DN-FIRE-2, DN-COMBAT-2)", id, what)
		}
		once[what][id] = true
	}
	for _, l := range f.Fire {
		x := l.V
		x.Line = l.Line
		unit(l.Line, x.Shooter)
		twice("fire", l.Line, x.Shooter)
		if t := st.Chars[x.At]; t == nil {
			bad(l.Line, adjudicator.CodeUnknownUnit, "at: no character %q", x.At)
		}
		o.Fire = append(o.Fire, x)
	}
	for _, l := range f.Spells {
		x := l.V
		x.Line = l.Line
		unit(l.Line, x.Caster)
		twice("spell", l.Line, x.Caster)
		if x.Before == "" {
			x.Before = "moves"
		}
		o.Spells = append(o.Spells, x)
	}
	for _, l := range f.Moves {
		x := l.V
		x.Line = l.Line
		unit(l.Line, x.Unit)
		twice("move", l.Line, x.Unit)
		checkMove(st, side, &x, bad, loc) // movement chapter (move_orders.go)
		o.Moves = append(o.Moves, x)
	}
	for _, id := range f.Hold {
		unit(section("hold"), id)
	}
	checkHold(o, section("hold"), bad) // movement chapter (move_orders.go)
	if st.Battle != nil {
		checkPeoplesLeave(st, o, bad) // chapter: the valley's peoples (special_peoples.go)
	}
	for _, l := range f.Attacks {
		x := l.V
		x.Line = l.Line
		for _, a := range x.Attackers {
			unit(l.Line, a)
		}
		for _, d := range x.Defenders {
			if st.Chars[d] == nil {
				bad(l.Line, adjudicator.CodeUnknownUnit, "defenders: no character %q", d)
			}
		}
		targets := 0
		for _, t := range []bool{len(x.Defenders) > 0, x.Web != "", x.Ram != ""} {
			if t {
				targets++
			}
		}
		if len(x.Attackers) == 0 || targets != 1 {
			bad(l.Line, adjudicator.CodeMissingField, "an attack names its attackers and one of: its defenders, a web to destroy, a building to ram (an Ent or the dragon)")
		}
		if x.Web != "" {
			loc(l.Line, x.Web)
		}
		if x.Ram != "" { // DN3: an Ent's or the dragon's ram (special_ent.go)
			loc(l.Line, x.Ram)
			checkRam(st, &x, bad)
		}
		if !slices.Contains([]string{"", "two", "legs", "both"}, x.Mode) || !slices.Contains([]string{"", "front", "rear"}, x.From) {
			bad(l.Line, adjudicator.CodeBadValue, "mode is two or legs (a Guard, DN-KROB-1) or both (an Ent's two attacks on one enemy, DN3-PEOPLE-ENT-9), from is front or rear (DN-KROB-2, DN3-PEOPLE-ENT-8)")
		}
		o.Attacks = append(o.Attacks, x)
	}
	for _, l := range f.Techniques { // chapter: the valley's peoples
		x := l.V
		x.Line = l.Line
		if c := unit(l.Line, x.Unit); c != nil {
			if code, msg := checkTechnique(st, c, x.Use); code != "" {
				bad(l.Line, code, "%s", msg)
			}
		}
		o.Techniques = append(o.Techniques, x)
	}
	for _, x := range o.Spells { // magic chapter: once the whole mail is read (before: names its actions)
		if code, msg := checkSpell(st, &x, o); code != "" {
			bad(x.Line, code, "%s", msg)
		}
	}
	so, err := parseStanding(st, side, f.Standing)
	if err != nil {
		errs = append(errs, err)
	}
	o.Standing = so
	if f.Reappear.Kind != 0 { // magic chapter: an invisible magician's destination (spell_reappear.go)
		to, err := mailReappearKey(st, side, &f.Reappear)
		if err != nil {
			errs = append(errs, err)
		}
		o.Reappear = to
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return o, nil
}

// parseStanding checks standing orders and keeps each as YAML text.
func parseStanding(st *State, side adjudicator.Side, m map[string]yaml.Node) (Standing, *adjudicator.OrderError) {
	if len(m) == 0 {
		return nil, nil
	}
	out := Standing{}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		if !slices.Contains(standingKeys, k) {
			return nil, adjudicator.Errorf(&v, codeUnknownStanding, "no standing order %q: the keys are %s", k, strings.Join(standingKeys, ", "))
		}
		if k == KeyDefensiveFire && side != Adventurers && st.Battle == nil {
			return nil, adjudicator.Errorf(&v, codeWrongSection, "only the Adventurers make defensive fire (DN-TURN-8)")
		}
		if err := checkTrigger(st, side, k, &v); err != nil { // fire chapter: defensive-fire
			return nil, err
		}
		if err := checkCombatStanding(k, &v); err != nil { // combat chapter
			return nil, err
		}
		if err := checkPeoplesStanding(k, &v); err != nil { // chapter: the valley's peoples
			return nil, err
		}
		if k == KeySpellTrigger { // magic chapter
			if err := checkSpellTriggers(st, side, &v); err != nil {
				return nil, err
			}
		}
		b, err := yaml.Marshal(&v)
		if err != nil {
			return nil, adjudicator.Errorf(&v, adjudicator.CodeBadValue, "%v", err)
		}
		out[k] = strings.TrimSpace(string(b))
	}
	return out, nil
}

// Answer is a side's answer to a question the game paused on.
type Answer struct {
	Side     adjudicator.Side `json:"-" yaml:"-"`
	Text     string           `json:"-" yaml:"answer"` // the answer's YAML
	Standing Standing         `json:"-" yaml:"standing,omitempty"`
	Concede  bool             `json:"-" yaml:"concede,omitempty"`
}

type answerFile struct {
	Answer   yaml.Node            `yaml:"answer"`
	Standing map[string]yaml.Node `yaml:"standing"`
	Concede  bool                 `yaml:"concede"`
}

func parseAnswer(st *State, req adjudicator.Request, n *yaml.Node) (*Answer, error) {
	p := st.Pause.Pending
	if p == nil || p.Question.ID != req.ID {
		return nil, adjudicator.Errorf(n, adjudicator.CodeNotYourTurn, "no question is waiting for an answer")
	}
	var f answerFile
	if err := yamlx.Decode(n, &f); err != nil {
		return nil, err
	}
	a := &Answer{Side: req.Side, Concede: f.Concede}
	if f.Answer.Kind == 0 && !f.Concede {
		return nil, adjudicator.Errorf(n, adjudicator.CodeMissingField, "answer: … is missing: %s", p.Question.Prompt)
	}
	if len(p.Question.Choice) > 0 && f.Answer.Kind == yaml.ScalarNode && !slices.Contains(p.Question.Choice, f.Answer.Value) {
		return nil, adjudicator.Errorf(&f.Answer, codeBadAnswer, "answer one of %s", strings.Join(p.Question.Choice, ", "))
	}
	if f.Answer.Kind != 0 {
		b, err := yaml.Marshal(&f.Answer)
		if err != nil {
			return nil, adjudicator.Errorf(&f.Answer, adjudicator.CodeBadValue, "%v", err)
		}
		a.Text = strings.TrimSpace(string(b))
	}
	so, err := parseStanding(st, req.Side, f.Standing)
	if err != nil {
		return nil, err
	}
	a.Standing = so
	return a, nil
}

// suggest is ` (did you mean "x"?)` when a known name is near s.
func suggest(s string, known []string) string {
	if n := yamlx.Nearest(s, known); n != "" {
		return fmt.Sprintf(" (did you mean %q?)", n)
	}
	return ""
}
