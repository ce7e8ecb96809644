package dragonnoir

import (
	"fmt"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/pause"
)

// world is one adjudication: the resolution, the state it changes through
// events, and the asker that pauses it for a side's answer.
type world struct {
	r   *adjudicator.Resolution
	ask pause.Asker
	// answer is the answer the adjudication resumed with, until the rule
	// that asked takes it (take).
	answer *Answer
	// fight is the combat whose results are being applied, so that a
	// retreat may ask its owner for the path (combat chapter, PBEM-DN-11);
	// nil outside a combat.
	fight *fightCtx
	// shot says the results being applied come from missile fire
	// (chapter: the valley's peoples, DN3-PEOPLE-KANDAR-5, -UNIC-5).
	shot bool
}

func newWorld(r *adjudicator.Resolution) *world {
	return &world{r: r, ask: pause.Asker{Prefix: Prefix, R: r, State: func(s adjudicator.State) *pause.State { return &s.(*State).Pause }}}
}

// st is the working state; it changes with every event emitted.
func (w *world) st() *State { return w.r.State().(*State) }

func (w *world) emit(ev adjudicator.Event) { w.r.Emit(ev) }

// AssumedMark ends every report line and roll that used a value the
// module marks assumed (Prov): players must see which results rest on
// umpire's invented tables rather than the printed game's.
const AssumedMark = " (assumed table)"

// say adds a line every side reads; used are the provenances of the
// table values the line reports, and any assumed one marks the line.
func (w *world) say(used Provs, format string, args ...any) {
	w.r.Sayf("%s", mark(used, fmt.Sprintf(format, args...)))
}

// tell adds a line only audience reads (a side's own secrets, E.5).
func (w *world) tell(to adjudicator.Audience, used Provs, format string, args ...any) {
	w.r.Tellf(to, "%s", mark(used, fmt.Sprintf(format, args...)))
}

func mark(used Provs, text string) string {
	if used.Assumed() {
		return text + AssumedMark
	}
	return text
}

// d10 throws the d10 (0 counts as 10, DN-GEN-1: the dice stream gives
// faces 1 to 10) for label, which says what the roll is for and is part
// of the dice derivation: "fire by jon at hunter-1". Set the outcome with
// outcome once the roll is read.
func (w *world) d10(label string) *adjudicator.Roll { return w.r.Roll(label, 1, 10) }

// d10For is d10 for a roll only audience may see (E.5: a roll that would
// reveal hidden information).
func (w *world) d10For(to adjudicator.Audience, label string) *adjudicator.Roll {
	return w.r.RollFor(to, label, 1, 10)
}

// outcome says what a roll meant, marked like a report line.
func outcome(r *adjudicator.Roll, used Provs, format string, args ...any) {
	r.Outcome = mark(used, fmt.Sprintf(format, args...))
}

// modified clamps a modified roll to the table's rows (AMB-3: never below
// 1; above 10 the last row).
func modified(roll int) int { return min(max(roll, 1), 10) }

func (w *world) concede(side adjudicator.Side) {
	st := w.st()
	w.say(nil, "The %s concede the game.", st.SideName(side))
	other := Adventurers
	if side == Adventurers {
		other = Krobs
	}
	if st.Battle != nil { // DN3 battles: the final view the campaign reads (battle_turn.go)
		w.concedeBattle(side)
		return
	}
	w.end(&Ended{Winner: other, Result: fmt.Sprintf("the %s conceded", side)})
}

// standing records the standing orders sent with a mail or an answer
// (PBEM-GEN-4): each key replaces the side's previous answer for it.
func (w *world) standing(side adjudicator.Side, so Standing) {
	w.ask.SetStandings(side, so)
}

// Stages of a player-turn's program, in the order the rules resolve them.
// The Adventurer player-turn (DN-TURN-5): offensive fire, movement, combat,
// stunned recovery, then Gharv interphase 1 (DN-TURN-6). The Krob
// player-turn (DN-TURN-7): movement with defensive fire, combat, then Gharv
// interphase 2. Strict order (DN-TURN-4): a stage starts when the one
// before is done.
const (
	stageFire      = "fire"
	stageMoves     = "moves"
	stageAttacks   = "attacks"
	stageRecover   = "recover"
	stageInterlude = "interphase"
	stageDone      = "done"
)

var advStages = []string{stageFire, stageMoves, stageAttacks, stageRecover, stageInterlude, stageDone}
var krobStages = []string{stageMoves, stageAttacks, stageInterlude, stageDone}

// program is a player-turn in progress: the mail, how far it is resolved,
// and the work of the order being resolved when a pause asked a side
// something (the continuation the pause keeps).
type program struct {
	Side   adjudicator.Side `json:"side"`
	Orders *Orders          `json:"orders"`
	Stage  string           `json:"stage"`
	Index  int              `json:"index"`
	Work   *work            `json:"work,omitempty"`
	// Spelled lists the spells of the mail already resolved (by index).
	Spelled []int `json:"spelled,omitempty"`
	// Before: the Adventurers' reactions to the Krobs that do not move,
	// due before the first move, are done (fire chapter, AMB-27).
	Before bool `json:"before,omitempty"`
	// Battle: a player-turn of a DN3 battle (battle_turn.go).
	Battle bool `json:"battle,omitempty"`
	// Fanatics: the fanatics' own attacks are added to the mail's
	// (chapter: the valley's peoples, special_peoples.go).
	Fanatics bool `json:"fanatics,omitempty"`
}

// work is the progress of the order being resolved: the next step of a
// move, a combat's roll and the effects already applied. A chapter that
// needs more adds a field.
type work struct {
	Step    int            `json:"step,omitempty"`
	Entered bool           `json:"entered,omitempty"` // a move has entered Path[Step] (and rolled its infiltration)
	Fired   bool           `json:"fired,omitempty"`   // the defensive fire at Step is done
	Combat  *combatWork    `json:"combat,omitempty"`
	Extra   map[string]any `json:"extra,omitempty"`
	// Gharv is a Gharv interphase in progress (chapter: Gharvs, gharv.go).
	Gharv *gharvWork `json:"gharv,omitempty"`
	// Move is a move order's progress across its legs (movement chapter,
	// move.go).
	Move *moveWork `json:"move,omitempty"`
}

func (p *program) stages() []string {
	switch {
	case p.Battle:
		return battleStages // DN3 battles: both sides alike, no interphase (AMB-69)
	case p.Side == Krobs:
		return krobStages
	}
	return advStages
}

func (p *program) work() *work {
	if p.Work == nil {
		p.Work = &work{}
	}
	return p.Work
}

// pauseFor asks q within program p. It returns the answer and false when a
// standing order answers at once; true when the adjudication is now
// suspended and the caller must return without doing anything more.
func (w *world) pauseFor(p *program, q pause.Question) (string, bool) {
	st := w.st()
	if q.Side == Gharvs { // chapter: Gharvs — no player answers for them (AMB-35)
		return gharvAnswer(q), false
	}
	if q.ID == "" {
		q.ID = w.ask.NextID(st.Turn, q.Key)
	}
	ans, asked, err := w.ask.Ask(q, st.Turn, st.Step, p)
	if err != nil {
		w.r.Fail(err)
		return "", true
	}
	if asked {
		w.tell(adjudicator.To(q.Side), nil, "The game waits for the %s: %s", st.SideName(q.Side), q.Title)
	}
	return ans, asked
}

// take returns the answer the adjudication resumed with, once: the rule
// that asked calls it where it asked.
func (w *world) take() (string, bool) {
	if w.answer == nil {
		return "", false
	}
	a := w.answer.Text
	w.answer = nil
	return a, true
}

// resume continues a suspended player-turn with the answer just received.
func (w *world) resume(a *Answer, by string) {
	p0, err := w.ask.Resume(a.Text, by)
	if err != nil {
		w.r.Fail(err)
		return
	}
	var p program
	if err := p0.Continue(&p); err != nil {
		w.r.Fail(err)
		return
	}
	w.standing(a.Side, a.Standing)
	w.answer = a
	w.run(&p)
}

// run resolves a player-turn's program from where it stands. Each
// stage's orders are checked again when their turn comes.
func (w *world) run(p *program) {
	for p.Stage != stageDone {
		if w.r.Err() != nil || w.st().Over {
			return
		}
		var paused bool
		if p.Stage != stageInterlude && p.Stage != stageRecover {
			if paused = w.spellsBefore(p, p.Stage); paused {
				return
			}
		}
		switch p.Stage {
		case stageFire:
			paused = w.each(p, len(p.Orders.Fire), func(i int) bool { return w.fireOrder(p, &p.Orders.Fire[i]) })
		case stageMoves:
			if w.st().firedAt(p.Side) && !p.Before { // fire chapter: AMB-27
				p.Before = true
				w.unmovedReact(p, unmovedBefore)
			}
			paused = w.each(p, len(p.Orders.Moves), func(i int) bool {
				if o := &p.Orders.Moves[i]; o.Fly { // chapter: spectres, the Gargoyles' flight (spectre_fly.go)
					return w.fly(p, o)
				}
				return w.moveOrder(p, &p.Orders.Moves[i])
			})
			if !paused && w.st().firedAt(p.Side) {
				paused = w.holdFire(p) // AMB-27: fire at the Krobs that did not move
			}
			if !paused && p.Battle {
				w.enterLate(p.Side) // DN3 battles: those that must enter and did not (battle_turn.go)
			}
		case stageAttacks:
			w.fanaticAttacks(p) // chapter: the valley's peoples (DN3-PEOPLE-DRUID-5)
			paused = w.each(p, len(p.Orders.Attacks), func(i int) bool { return w.attackOrder(p, &p.Orders.Attacks[i]) })
		case stageRecover:
			if paused = w.spellsBefore(p, "end"); !paused {
				w.recover(p.Side)
			}
		case stageInterlude:
			if paused = w.spellsBefore(p, "end"); !paused { // magic chapter: the Krob turn's end (PBEM-DN-7)
				paused = w.interphase(p)
			}
		}
		if paused {
			return
		}
		w.answer = nil
		st := p.stages()
		p.Stage, p.Index, p.Work = st[slices.Index(st, p.Stage)+1], 0, nil
	}
	w.endPlayerTurn(p.Side)
}

// each resolves a stage's orders from p.Index; do reports a pause.
func (w *world) each(p *program, n int, do func(int) bool) bool {
	for ; p.Index < n; p.Index++ {
		if w.r.Err() != nil || w.st().Over {
			return true
		}
		if w.spellsBefore(p, fmt.Sprintf("%s#%d", p.Stage, p.Index)) || do(p.Index) { // magic chapter: spells before one action (AMB-19)
			return true
		}
		w.answer, p.Work = nil, nil
	}
	return false
}

// endPlayerTurn ends a player-turn: spectres due go (AMB-18), victory is
// checked, and the next player-turn begins (DN-TURN-3).
func (w *world) endPlayerTurn(side adjudicator.Side) {
	w.expireSpectres()
	w.expireCharms() // magic chapter
	// DN3 battles: the end, or the next player-turn (battle_turn.go).
	if w.st().Battle != nil {
		w.battleNext(side)
		return
	}
	if w.checkVictory(false) {
		return
	}
	st := w.st()
	if side == Adventurers {
		w.emit(&Stepped{Turn: st.Turn, Step: StepKrobs})
		w.say(nil, "Turn %d: the Krob player-turn begins.", st.Turn)
		w.reappear() // magic chapter: invisible magicians (AMB-79)
		return
	}
	if st.Turn >= st.Turns {
		w.checkVictory(true)
		return
	}
	w.emit(&Stepped{Turn: st.Turn + 1, Step: StepAdventurers})
	w.say(nil, "Turn %d begins: the Adventurer player-turn.", st.Turn)
	w.reappear() // magic chapter: invisible magicians (AMB-79)
}

// list writes ids for people: "a, b and c".
func list(ids []string) string {
	switch len(ids) {
	case 0:
		return "nobody"
	case 1:
		return ids[0]
	}
	return strings.Join(ids[:len(ids)-1], ", ") + " and " + ids[len(ids)-1]
}
