package conquete

import (
	"fmt"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dragonnoir"
)

// world is one adjudication: the resolution and the state it changes
// through events. Every rule works through it.
type world struct {
	r *adjudicator.Resolution
}

// st is the working state; it changes with every event emitted.
func (x *world) st() *State { return x.r.State().(*State) }

func (x *world) data() *Data { return x.st().data }

// emit applies a public event.
func (x *world) emit(ev adjudicator.Event) { x.r.Emit(ev) }

// seal applies an event only side may read until key is revealed (or the
// game ends, for key ""): an army sheet, a stealthy move, a secret choice.
func (x *world) seal(side adjudicator.Side, key string, ev adjudicator.Event) {
	x.r.Emit(adjudicator.Seal(adjudicator.To(side), key, ev))
}

// reveal opens the secrets sealed under keys (the messenger when
// announced, a relation at the first negotiation with its people).
func (x *world) reveal(keys ...string) { x.r.Emit(&adjudicator.Reveal{Keys: keys}) }

// Provs are the provenances of the module values a line used.
type Provs = dragonnoir.Provs

// say adds a line every side reads, marked "(assumed table)" when it used
// an assumed value.
func (x *world) say(used Provs, format string, args ...any) {
	x.r.Sayf("%s", mark(used, fmt.Sprintf(format, args...)))
}

// tell adds a line only side reads (its own secrets, E.5).
func (x *world) tell(side adjudicator.Side, used Provs, format string, args ...any) {
	x.r.Tellf(adjudicator.To(side), "%s", mark(used, fmt.Sprintf(format, args...)))
}

func mark(used Provs, text string) string {
	if used.Assumed() {
		return text + dragonnoir.AssumedMark
	}
	return text
}

// d10 throws the d10 (1 to 10, DN-GEN-1) for label, seen by audience.
func (x *world) d10(to adjudicator.Audience, label string) *adjudicator.Roll {
	return x.r.RollFor(to, label, 1, 10)
}

// at moves the turn machine to phase and step.
func (x *world) at(phase, step string) { x.emit(&At{Phase: phase, Step: step}) }

// await makes the game wait for one asking: the requests of ws, answered
// together (one side's, or both sides' at once).
func (x *world) await(ws ...Wait) {
	n := x.st().Asked + 1
	for i := range ws {
		ws[i].N = n
	}
	x.emit(&Await{Waits: ws})
}

// both is one wait of phase for each side.
func both(phase string) []Wait {
	return []Wait{{Phase: phase, Side: Rebels}, {Phase: phase, Side: Reptilians}}
}

// sideName is a side for people.
func sideName(s adjudicator.Side) string {
	switch s {
	case Rebels:
		return "the Rebels"
	case Reptilians:
		return "the Reptilians"
	}
	return "nobody"
}

// regionName is a Region's name for people, with its id.
func (d *Data) regionName(id string) string {
	if r := d.Regions[id]; r != nil {
		return r.Name
	}
	return id
}
