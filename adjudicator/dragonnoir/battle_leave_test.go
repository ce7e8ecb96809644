package dragonnoir

import (
	"strings"
	"testing"
)

// TestKandarMayNotLeave (DN3-CAMP-KANDAR-7, DN3-PEOPLE-KANDAR-1, -6): a
// Kandär may not leave while its Officer is on the map; once the Officer
// is dead, or has left the map, it may. The builtin module has the
// Officer only so far: the rider is a Kandär kind given to a counter here.
func TestKandarMayNotLeave(t *testing.T) {
	st := battle(t, "battle: {region: la-croisee}\nforces:\n  - {unit: jon, side: adventurers, at: \"0804\"}\n  - {unit: kandar-officer, side: krobs, at: \"1404\"}\n  - {unit: hunter-1, side: krobs, at: \"1604\"}\n")
	rider, officer := st.Chars["hunter-1"], st.Chars["kandar-officer"]
	rider.Kind = "kandar-rider"
	if why := st.mayLeave(rider); !strings.Contains(why, "DN3-CAMP-KANDAR-7") {
		t.Errorf("a Kandär leaves while its Officer is on the map: %q", why)
	}
	if why := st.mayLeave(officer); why != "" {
		t.Errorf("the Officer himself may leave: %q", why)
	}
	officer.Face = Killed
	if why := st.mayLeave(rider); why != "" {
		t.Errorf("the Officer is dead, the Kandär may flee: %q", why)
	}
	officer.Face, officer.At, officer.Left = Healthy, "", true
	if why := st.mayLeave(rider); why != "" {
		t.Errorf("the Officer left the map, the Kandär may flee: %q", why)
	}
}
