package dragonnoir_test

import (
	"strings"
	"testing"
)

// TestKandarFireStaysSecret: the Reptilian player's standing kandar-fire
// (PBEM-DN3-20) is his own (HID-7): the report tells what each Kandär
// does, never the answer's words — the case's Kandärs act on
// wound-unless-wounded, and no line the players read names it.
func TestKandarFireStaysSecret(t *testing.T) {
	run := playCase(t, "testdata/dn3-peoples/DN3-PEOPLE-KANDAR-5-fire.yaml", lookup)
	found := false
	for _, l := range allLines(run) {
		found = found || strings.Contains(l, "takes a wound instead of the retreat")
		if strings.Contains(l, "wound-unless-wounded") || strings.Contains(l, "kandar-fire") {
			t.Errorf("a report line tells the standing kandar-fire: %q", l)
		}
	}
	if !found {
		t.Error("the case no longer has a Kandär take a wound for a retreat: the check would pass for nothing")
	}
}
