package game

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Observers. The referee may name addresses that follow a game without
// playing it: after each adjudication each gets the results as every side
// may read them (adjudicator.Observer's view), at once or Delay turns late.
// Observers cannot submit. Adding and removing one are game-level events;
// what each observer has been sent is not recorded but follows from the log
// (DelayedResults).

// Observer event types (schema 1).
const (
	TypeObserverAdded   = "observer.added"   // ObserverAdded
	TypeObserverRemoved = "observer.removed" // ObserverRemoved
)

// MaxObserverDelay bounds an observer's delay, in turns.
const MaxObserverDelay = 100

// ObserverAdded is the payload of observer.added: Address gets every
// adjudication made from now on, Delay turns late.
type ObserverAdded struct {
	Address string `json:"address"`
	Delay   int    `json:"delay,omitempty"`
}

// ObserverRemoved is the payload of observer.removed.
type ObserverRemoved struct {
	Address string `json:"address"`
}

// Observer is an observer as folded from the log.
type Observer struct {
	Address string
	Delay   int // turns
	After   int // the adjudications made before it was added: it gets those after
}

// applyObserver folds an observer event into g.
func (g *Game) applyObserver(e Entry) error {
	switch e.Type {
	case TypeObserverAdded:
		var p ObserverAdded
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return &LogError{Seq: e.Seq, Msg: "bad observer.added: " + err.Error()}
		}
		if _, ok := g.Observer(p.Address); ok {
			return &LogError{Seq: e.Seq, Msg: fmt.Sprintf("%s observes the game already", p.Address)}
		}
		g.Observers = append(slices.Clone(g.Observers), Observer{Address: p.Address, Delay: p.Delay, After: g.K})
	case TypeObserverRemoved:
		var p ObserverRemoved
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return &LogError{Seq: e.Seq, Msg: "bad observer.removed: " + err.Error()}
		}
		i := slices.IndexFunc(g.Observers, func(o Observer) bool { return sameAddress(o.Address, p.Address) })
		if i < 0 {
			return &LogError{Seq: e.Seq, Msg: fmt.Sprintf("%s does not observe the game", p.Address)}
		}
		g.Observers = slices.Delete(slices.Clone(g.Observers), i, i+1)
	}
	return nil
}

// Observer returns the observer with address addr (case aside).
func (g *Game) Observer(addr string) (Observer, bool) {
	for _, o := range g.Observers {
		if sameAddress(o.Address, addr) {
			return o, true
		}
	}
	return Observer{}, false
}

func sameAddress(a, b string) bool {
	return a != "" && strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

// ObserveRecord adds an observer (the address is checked by the caller),
// folded into g. A player of the game cannot observe it.
func (g *Game) ObserveRecord(now time.Time, addr string, delay int) (Record, error) {
	switch {
	case delay < 0 || delay > MaxObserverDelay:
		return Record{}, fmt.Errorf("delay: %d: give a number of turns from 0 to %d", delay, MaxObserverDelay)
	case g.Over():
		return Record{}, fmt.Errorf("game %s is over: there is nothing more to observe", g.ID)
	}
	for _, p := range g.Created.Players {
		if sameAddress(p.Address, addr) {
			return Record{}, fmt.Errorf("%s plays %s in game %s: a player cannot also observe it", addr, p.Side, g.ID)
		}
	}
	if o, ok := g.Observer(addr); ok {
		return Record{}, fmt.Errorf("%s observes game %s already (delay %d); unobserve first to change the delay", o.Address, g.ID, o.Delay)
	}
	return g.fold(now, ActorReferee, TypeObserverAdded, ObserverAdded{Address: addr, Delay: delay})
}

// UnobserveRecord removes an observer, folded into g.
func (g *Game) UnobserveRecord(now time.Time, addr string) (Record, error) {
	o, ok := g.Observer(addr)
	if !ok {
		return Record{}, fmt.Errorf("%s does not observe game %s", addr, g.ID)
	}
	return g.fold(now, ActorReferee, TypeObserverRemoved, ObserverRemoved{Address: o.Address})
}

// Past is an adjudication of the log as every side reads it (Full and
// AllRolls are nil: ReportFor and RollsFor give its public lines and
// rolls), with the game as it stood right after it.
type Past struct {
	Result
	Game *Game
}

// PublicRolls are the rolls of a result every side may see: a sealed
// stand-in is left out.
func (r Result) PublicRolls() []*adjudicator.Roll {
	var out []*adjudicator.Roll
	for _, x := range r.RollsFor(adjudicator.Observer) {
		if !x.Sealed {
			out = append(out, x)
		}
	}
	return out
}

// DelayedResults says what each observer with a delay is owed once the
// entries from seq first on (the records of one submission) follow the
// others: the adjudications made since it began observing whose turn — the
// turn the game showed right after them — lies Delay turns or more behind
// the game's turn now, or every one once the game is over, less those it
// was owed before entry first. What was owed before was sent then, so
// nothing needs recording: the log says it all.
//
// The result maps each delayed observer's address to its adjudications, in
// order; an observer owed nothing is left out.
func DelayedResults(entries []Entry, lookup Source, first uint64) (map[string][]Past, error) {
	type adj struct {
		k, turn int
		seq     uint64
	}
	var adjs []adj
	var g *Game
	prevTurn, prevOver := 0, false
	for _, e := range entries {
		if e.Seq == first && g != nil {
			prevTurn, prevOver = g.View(adjudicator.Observer).Turn, g.Over()
		}
		if err := foldOne(&g, e, lookup); err != nil {
			return nil, err
		}
		if e.Type == TypeAdjudicated {
			adjs = append(adjs, adj{k: g.K, turn: g.View(adjudicator.Observer).Turn, seq: e.Seq})
		}
	}
	if g == nil || first == 0 || first > g.Version {
		return nil, nil
	}
	turn, over := g.View(adjudicator.Observer).Turn, g.Over()
	owed := map[string][]int{} // address → adjudication numbers
	need := map[int]bool{}
	for _, o := range g.Observers {
		if o.Delay == 0 {
			continue
		}
		ripe := func(a adj, now int, ended bool) bool { return ended || a.turn+o.Delay <= now }
		for _, a := range adjs {
			if a.k <= o.After || !ripe(a, turn, over) {
				continue
			}
			if a.seq < first && ripe(a, prevTurn, prevOver) {
				continue // owed, and so sent, before
			}
			owed[o.Address] = append(owed[o.Address], a.k)
			need[a.k] = true
		}
	}
	if len(need) == 0 {
		return nil, nil
	}
	// Fold again, keeping the game as it stood after each adjudication owed.
	past := map[int]Past{}
	g = nil
	for _, e := range entries {
		if err := foldOne(&g, e, lookup); err != nil {
			return nil, err
		}
		if e.Type != TypeAdjudicated || !need[g.K] {
			continue
		}
		var a Adjudicated
		if err := json.Unmarshal(e.Payload, &a); err != nil {
			return nil, &LogError{Seq: e.Seq, Msg: "bad adjudication payload: " + err.Error()}
		}
		past[g.K] = Past{Result: Result{Adjudicated: a}, Game: g.Clone()}
	}
	out := map[string][]Past{}
	for addr, ks := range owed {
		for _, k := range ks {
			out[addr] = append(out[addr], past[k])
		}
	}
	return out, nil
}

// foldOne folds e into *g, starting the game at the first entry.
func foldOne(g **Game, e Entry, lookup Source) error {
	if *g == nil {
		var err error
		*g, err = Start(e, lookup)
		return err
	}
	return (*g).Apply(e)
}
