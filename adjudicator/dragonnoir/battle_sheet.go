package dragonnoir

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// A side's army sheet in a battle (HID-11): the PE its casters have left
// and its troops' Fatigue are its own, so a campaign does not write them in
// the battle position (the child's game.created, which every side reads)
// but seals them to the side as the part "sheet" of the position
// (battle_secrets.go). Its value is a YAML list, one entry a counter of
// that side:
//
//	- {unit: sorcerer, pe: 12}
//	- {unit: rept-warrior-1, fatigue: fatigued}
//
// The battle reads it into its state in an event sealed to the side
// (SheetRead), until the battle ends; the views already show a side's PE
// and Fatigue to that side alone while the battle lasts (view.go,
// battle_view.go). Wounds stay in the position: a wounded counter is on
// its wounded face on the tactical map, seen by all (HID-11: "counters
// become visible when placed on a tactical map"). A counter the sheet
// does not name keeps what the position gives it (a magician his full
// PE, a troop fresh): a position written for a rule case may still give
// pe: and fatigue: in the clear.

// SheetLine is one counter of a side's sheet.
type SheetLine struct {
	Unit    string `json:"unit" yaml:"unit"`
	PE      *int   `json:"pe,omitempty" yaml:"pe"`
	Fatigue string `json:"fatigue,omitempty" yaml:"fatigue"`
}

// SheetRead is a side's sheet, sealed to that side (HID-11).
type SheetRead struct {
	Side  adjudicator.Side `json:"side"`
	Lines []SheetLine      `json:"lines"`
}

func (*SheetRead) EventType() string { return Prefix + ".sheet-read" }

func sheetEvents() []adjudicator.EventType {
	return []adjudicator.EventType{{Name: (&SheetRead{}).EventType(), Schema: 1, New: func() adjudicator.Event { return &SheetRead{} }}}
}

// evolveSheet applies SheetRead; false for any other event.
func (s *State) evolveSheet(ev adjudicator.Event) bool {
	e, ok := ev.(*SheetRead)
	if !ok {
		return false
	}
	for _, l := range e.Lines {
		c := s.Chars[l.Unit]
		if c == nil {
			continue
		}
		if l.PE != nil {
			c.PE = *l.PE
		}
		switch l.Fatigue {
		case "":
		case Fresh:
			c.Fatigue = ""
		default:
			c.Fatigue = l.Fatigue
		}
	}
	return true
}

// parseSheet reads a sheet's value and says what is wrong with it for
// side, "" when nothing.
func parseSheet(st *State, side adjudicator.Side, value string) ([]SheetLine, string) {
	var lines []SheetLine
	if err := yaml.Unmarshal([]byte(value), &lines); err != nil {
		return nil, fmt.Sprintf("a list of {unit: ID, pe: N, fatigue: fresh|fatigued|exhausted}: %v", err)
	}
	seen := map[string]bool{}
	for i, l := range lines {
		c := st.Chars[l.Unit]
		switch {
		case c == nil || c.Side != side:
			return nil, fmt.Sprintf("line %d: %q is no counter of the %s in this battle", i+1, l.Unit, st.SideName(side))
		case seen[l.Unit]:
			return nil, fmt.Sprintf("line %d: %s is on the sheet twice", i+1, l.Unit)
		case !slices.Contains([]string{"", Fresh, Fatigued, Exhausted}, l.Fatigue):
			return nil, fmt.Sprintf("line %d: fatigue %q is fresh, fatigued or exhausted (DN3-CAMP-REST-5)", i+1, l.Fatigue)
		case l.PE != nil && (st.Kind(c).Level == 0 && c.Level == 0 || *l.PE < 0):
			return nil, fmt.Sprintf("line %d: pe: only a magician has PE, never below 0 (DN-MAGIC-6)", i+1)
		}
		seen[l.Unit] = true
	}
	return lines, ""
}

func init() {
	secretParts["sheet"] = secretPart{
		check: func(st *State, side adjudicator.Side, value string) string {
			_, why := parseSheet(st, side, value)
			return why
		},
		read: func(w *world, side adjudicator.Side, value string) {
			lines, _ := parseSheet(w.st(), side, value)
			w.emit(adjudicator.Seal(adjudicator.To(side), "", &SheetRead{Side: side, Lines: lines}))
			var says []string
			for _, l := range lines {
				var what []string
				if l.PE != nil {
					what = append(what, fmt.Sprintf("%d PE", *l.PE))
				}
				if l.Fatigue != "" {
					what = append(what, l.Fatigue)
				}
				if len(what) > 0 {
					says = append(says, l.Unit+" "+strings.Join(what, ", "))
				}
			}
			// Told whatever it holds: a line only when there is something
			// to say would tell the other side that much.
			if len(says) == 0 {
				says = []string{"no magician, every counter fresh"}
			}
			w.tell(adjudicator.To(side), nil, "Your army sheet, seen by you alone (HID-11): %s.", strings.Join(says, "; "))
		},
	}
}
