package dragonnoir

import (
	"fmt"
	"strings"
)

// The peoples' rules on leaving a battle's map (battle_turn.go's mayLeave).

// kandarOfficer is the Kandär Officer's kind (contracts of issue 16).
const kandarOfficer = "kandar-officer"

// isKandar reports whether c is a Kandär counter (its kind kandar-…).
func isKandar(c *Char) bool { return strings.HasPrefix(c.Kind, "kandar-") }

// peopleMayLeave says why c may not leave by a people's own rule, "" when
// it may: a Kandär other than an Officer while an Officer of its side is
// on the map, alive (DN3-CAMP-KANDAR-7, DN3-PEOPLE-KANDAR-1, -6: once the
// Officer has left or is dead, the others may flee too).
func (s *State) peopleMayLeave(c *Char) string {
	if !isKandar(c) || c.Kind == kandarOfficer {
		return ""
	}
	for _, o := range s.Sorted() {
		if o.Kind == kandarOfficer && o.Side == c.Side && o.Face != Killed && o.At != "" && !o.Left {
			return fmt.Sprintf("a Kandär never leaves the map while its Officer, %s, is on it (DN3-CAMP-KANDAR-7)", o.ID)
		}
	}
	return ""
}
