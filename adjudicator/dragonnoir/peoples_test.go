package dragonnoir

import (
	"slices"
	"strings"
	"testing"
)

// dn3Counters are the counter IDs of La Conquête this chapter owns
// (contracts: "Counter IDs"; ent and black-dragon are the Ents' chapter's).
var dn3Counters = strings.Fields(`sarah gotmar homley rix radak
	lord chief-sarrak chief-ysshal chief-thessk sorcerer rept-warrior-1 rept-warrior-8 rept-armoured-1 rept-armoured-4
	rept-scout-1 rept-scout-3 raptor-1 raptor-4
	kandar-officer kandar-sergeant kandar-rider-1 kandar-rider-4
	kuntvudvi quarluq suan tarjan tschuk serteg-horse-1 serteg-horse-3
	guanchenet aguana abora balthartay faycan guinar hipalan teide
	terclaugast heliogast radagast leopard stag boar hermit
	valley-elf-1 valley-elf-6 gob-chief gob-shaman valley-goblin-1 valley-goblin-10 wolf-1 wolf-3 hyena-1 hyena-2
	unicorn-f1 unicorn-f2 unicorn-m1
	zigildum grarim monar ori finim hagmor vitr`)

// TestPeoplesCounters: La Conquête's counters are in the builtin module
// under the IDs the campaign and the battles share, every value assumed
// (GAP-18), in the numbers the rules give: 8 Guanche giants
// (DN3-PEOPLE-BARB-2), 3 druids each with his animal (DN3-PEOPLE-DRUID-3),
// 6 valley Elves (DN3-PEOPLE-ELF-3), 7 Grey Dwarves of magic resistance 3
// (DN3-PEOPLE-DWARF-3, -4), 3 unicorns, level 1 magicians of magic
// resistance 1 (DN3-PEOPLE-UNIC-9, -10), the Hermit a level 2 hobbit
// druid (DN3-PEOPLE-HERMIT-1, -3), the Goblin Shaman level 2
// (DN3-PEOPLE-GOB-3), the Sorcerer level 3 (AMB-73), 6 Kandärs with one
// Officer (DN3-CAMP-KANDAR-1, AMB-95), 5 Serteg riders and 3 horses
// (DN3-CAMP-SERTEG-1), 4 Raptors the Lord and the war chiefs alone ride
// (DN3-PEOPLE-REPT-4).
func TestPeoplesCounters(t *testing.T) {
	d, err := builtinData()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range dn3Counters {
		k := d.Counters[id]
		switch {
		case k == nil:
			t.Errorf("no counter %s", id)
		case k.Box != "dn3" || !k.Prov.Assumed:
			t.Errorf("%s: box %q, provenance %s: a counter of La Conquête, assumed (GAP-18)", id, k.Box, k.Prov.Source())
		}
	}
	count := func(tag string) (n int) {
		for _, k := range d.Kinds {
			if k.Has(tag) {
				n += max(k.Count, 1)
			}
		}
		return n
	}
	for tag, want := range map[string]int{TagBarbarian: 8, TagGreyDwarf: 7, TagUnicorn: 3, TagKandar: 6, TagKandarOfficer: 1} {
		if n := count(tag); n != want {
			t.Errorf("%d counters tagged %s, want %d", n, tag, want)
		}
	}
	if k := d.Kinds["valley-elf"]; k.Count != 6 || !k.Has(TagElf) {
		t.Errorf("valley Elves: %d, tagged elf %v: 6 Elves (DN3-PEOPLE-ELF-3)", k.Count, k.Has(TagElf))
	}
	for _, k := range d.Kinds {
		if k.Has(TagGreyDwarf) && k.MagicResistance != 3 || k.Has(TagUnicorn) && (k.MagicResistance != 1 || k.Level != 1) {
			t.Errorf("%s: magic resistance %d, level %d (Table DN3-T6, DN3-PEOPLE-UNIC-9)", k.ID, k.MagicResistance, k.Level)
		}
	}
	if d.Kinds["black-dwarf"].MagicResistance != 0 {
		t.Error("the surviving Black Dwarves have no magic resistance (DN3-PEOPLE-DWARF-4)")
	}
	for druid, animal := range map[string]string{"terclaugast": "leopard", "heliogast": "stag", "radagast": "boar"} {
		k := d.Kinds[animal]
		if d.Kinds[druid].Level != 1 || !slices.Equal(k.Masters, []string{druid}) || !k.Has(TagWithMaster) || !k.Has(TagFanaticMaster) || !k.Has(TagLeavesMaster) {
			t.Errorf("%s, a level 1 druid, and his %s (DN3-PEOPLE-DRUID-1, -3 … 6): %+v", druid, animal, k)
		}
	}
	if h := d.Kinds["hermit"]; h.Level != 2 || !h.Has(TagHobbit) {
		t.Error("the Hermit is a level 2 druid and a hobbit (DN3-PEOPLE-HERMIT-1, -3)")
	}
	if d.Kinds["gob-shaman"].Level != 2 || d.Kinds["sorcerer"].Level != 3 {
		t.Error("the Goblin Shaman is level 2 (DN3-PEOPLE-GOB-3), the Sorcerer level 3 (AMB-73)")
	}
	if d.Kinds["gob-chief"].Has(TagSwimmer) || !d.Kinds["valley-goblin"].Has(TagSwimmer) || !d.Kinds["gob-shaman"].Has(TagSwimmer) {
		t.Error("every valley Goblin but the chief swims (DN3-PEOPLE-GOB-1)")
	}
	riders := 0
	for _, id := range []string{"kuntvudvi", "quarluq", "suan", "tarjan", "tschuk"} {
		if d.Kinds[id].Has(TagRider) {
			riders++
		}
	}
	if riders != 5 || d.Kinds["serteg-horse"].Count != 3 {
		t.Errorf("%d Serteg riders and %d horses: 5 and 3 (DN3-CAMP-SERTEG-1)", riders, d.Kinds["serteg-horse"].Count)
	}
	if r := d.Kinds["raptor"]; r.Count != 4 || !slices.Equal(r.RiddenBy, []string{"lord", "chief-sarrak", "chief-ysshal", "chief-thessk"}) {
		t.Errorf("4 Raptors ridden by the Lord and the war chiefs only (DN3-PEOPLE-REPT-4): %d, %v", r.Count, r.RiddenBy)
	}
}

// peoplesState is a position of the builtin module on an open board.
func peoplesState(t *testing.T, units string) *State {
	t.Helper()
	d, err := builtinData()
	if err != nil {
		t.Fatal(err)
	}
	st, err := positionSetup(d, Rules{}, []byte("board: {name: open, title: open ground, bounds: {cols: [1, 9], rows: [1, 9]}, default: floor}\nunits:\n"+units))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestKandarBond: a Kandär is immune to fear, terror and charm spells
// while a Kandär Officer is alive on the map (DN3-PEOPLE-KANDAR-1, -3,
// AMB-95: the Sergeant is none), and no longer once none is
// (DN3-PEOPLE-KANDAR-6). The magic chapter asks HasNow.
func TestKandarBond(t *testing.T) {
	st := peoplesState(t, "  - {unit: kandar-rider-1, at: \"0101\"}\n  - {unit: kandar-sergeant, at: \"0103\"}\n  - {unit: kandar-officer, at: \"0909\"}\n")
	r := st.Chars["kandar-rider-1"]
	if !st.HasNow(r, TagFearless) || !st.HasNow(r, TagCharmImmune) || !st.bound(r) {
		t.Error("with the Officer on the map a Kandär is immune to fear and charm (DN3-PEOPLE-KANDAR-3)")
	}
	st.Chars["kandar-officer"].Face = Killed
	if st.HasNow(r, TagFearless) || st.HasNow(r, TagCharmImmune) || st.bound(r) {
		t.Error("with the Officer dead, the bond is broken (DN3-PEOPLE-KANDAR-6), the Sergeant is no officer (AMB-95)")
	}
	if !st.HasNow(st.Chars["kandar-sergeant"], TagRider) {
		t.Error("HasNow keeps every other tag")
	}
}

// TestMayLeave: a druid and his animal leave the map in the same Movement
// phase or not at all (DN3-PEOPLE-DRUID-4); no Kandär leaves while the
// Officer is on the map, and all may once he leaves too or is dead
// (DN3-CAMP-KANDAR-7). A battle's mail asks peoplesMayLeave of its leave: orders.
func TestMayLeave(t *testing.T) {
	st := peoplesState(t, "  - {unit: terclaugast, at: \"0101\"}\n  - {unit: leopard, at: \"0102\"}\n  - {unit: kandar-rider-1, at: \"0901\"}\n  - {unit: kandar-officer, at: \"0909\", side: krobs}\n")
	c := st.Chars
	if st.peoplesMayLeave(c["terclaugast"], nil) == "" || st.peoplesMayLeave(c["leopard"], []string{"leopard"}) == "" {
		t.Error("a druid or his animal leaves alone (DN3-PEOPLE-DRUID-4)")
	}
	if why := st.peoplesMayLeave(c["terclaugast"], []string{"terclaugast", "leopard"}); why != "" {
		t.Errorf("the druid and his animal leave together: %s", why)
	}
	if st.peoplesMayLeave(c["kandar-rider-1"], nil) == "" {
		t.Error("a Kandär leaves while his Officer is on the map (DN3-CAMP-KANDAR-7)")
	}
	if why := st.peoplesMayLeave(c["kandar-officer"], nil); why != "" {
		t.Errorf("the Officer himself may leave: %s", why)
	}
	if why := st.peoplesMayLeave(c["kandar-rider-1"], []string{"kandar-officer"}); why != "" {
		t.Errorf("the Officer leaving in the same phase, the rider may: %s", why)
	}
	c["kandar-officer"].Face = Killed
	c["terclaugast"].Face = Killed
	if why := st.peoplesMayLeave(c["kandar-rider-1"], nil) + st.peoplesMayLeave(c["leopard"], nil); why != "" {
		t.Errorf("the Officer dead, the Kandärs flee; the druid dead, his animal goes: %s", why)
	}
}
