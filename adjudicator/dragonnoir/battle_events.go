package dragonnoir

// The events of the battles (battle_turn.go).
type (
	// Entered brings a counter waiting off the map onto At, the first hex
	// of its move, by the edge of its arrival path, at a cost of MP
	// (DN3-CAMP-BATTLE-6); 0 when the referee enters it for want of an
	// order.
	Entered struct {
		Unit string `json:"unit"`
		At   string `json:"at"`
		MP   int    `json:"mp,omitempty"`
	}
	// Exited takes a counter off the map by the edge leading to Region,
	// at a cost of MP: it may not come back (DN3-CAMP-BATTLE-8).
	Exited struct {
		Unit   string `json:"unit"`
		Region string `json:"region"`
		MP     int    `json:"mp,omitempty"`
	}
)

func (*Entered) EventType() string { return Prefix + ".entered" }
func (*Exited) EventType() string  { return Prefix + ".exited" }
