package dragonrage

// bridgeSpared takes the "destroyed" marker off the bridge a unit was
// wrecking when it dies before moving off: the bridge never burns
// (DR-AMB-48).
func (w *world) bridgeSpared(u *Unit) {
	if u.Hex != "" && w.st.Bridges[u.Hex] == "destroyed:"+u.ID {
		w.emit(&BridgeChanged{Hex: u.Hex, State: ""})
		w.sayf("%s dies on the bridge in %s before moving off: the bridge is intact (DR-AMB-48)", u.ID, u.Hex)
	}
}
