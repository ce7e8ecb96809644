package conquete

import "slices"

// Riders in a Battle (AMB-67, DN3-CAMP-BATTLE-5, -6). The campaign's
// counters are the tactical ruleset's: a mounted people's counter is one
// counter (the Serteg and Kandär riders carry the tag rider), and a steed
// that carries a rider in battle is a counter of its own (the Raptors, the
// Goblins' wolves and hyenas, the unicorns, the Serteg horses). A steed
// goes with its rider in a Troop, both of class rider (AMB-67: Reptilians
// on Raptors, Goblins on wolves or hyenas); in the Battle the rider starts
// in the saddle (mount:), the pair set up or waiting together.
//
// mountPairs seats each steed the module gives named riders (a Raptor:
// the Lord and the war chiefs, DN3-PEOPLE-REPT-4; a wolf or a hyena: its
// master, DN3-PEOPLE-GOB-4; Femelle 1: Sarah, DN3-PEOPLE-UNIC-8) under
// the first counter of the forces, starting where it does, who may ride
// it and rides nothing yet. A horse anyone may ride (the Serteg horses'
// three riderless mounts, DN3-CAMP-SERTEG-1) starts riderless: a Rebel
// mounts it in the Battle if his player wishes (assumed: the campaign has
// no order that says who rides it).
func mountPairs(forces []BattleForce) {
	td := tactical()
	ridden := map[string]bool{}
	for i := range forces {
		m := &forces[i]
		if !td.NamedRiders(m.Unit) || ridden[m.Unit] {
			continue
		}
		j := slices.IndexFunc(forces, func(r BattleForce) bool {
			return r.Mount == "" && !ridden[r.Unit] && !td.NamedRiders(r.Unit) && r.Side == m.Side && r.Zone == m.Zone && r.Edge == m.Edge &&
				td.RideWhy(r.Unit, m.Unit, m.Wounds) == ""
		})
		if j >= 0 {
			forces[j].Mount, ridden[m.Unit], ridden[forces[j].Unit] = m.Unit, true, true
		}
	}
}
