package script

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/dice"
	"github.com/umpire-pbem/umpire/adjudicator/game"
)

// Run is a played script.
type Run struct {
	Script   *Script
	Game     *game.Game
	Log      []game.Entry
	Steps    []StepRun
	View     adjudicator.View
	DiceLeft int
	Failures []string // expectations not met; empty when the script passed
}

// StepRun is what became of one step.
type StepRun struct {
	Step    Step
	Err     error // the refusal, if refused
	Results []game.Result
	Notes   []adjudicator.Line // what became of orders sent ahead
}

// OK reports whether every expectation held.
func (r *Run) OK() bool { return len(r.Failures) == 0 }

func (r *Run) failf(format string, args ...any) {
	r.Failures = append(r.Failures, fmt.Sprintf(format, args...))
}

// Options change how a script runs.
type Options struct {
	Dice []int // replace the script's dice (a what-if); nil keeps them
	// Before, if set, sees the game before each step (i from 0) and once
	// more after the last (i == len(Steps)); it must not change it. Tests
	// use it to try things at every point of a script without playing it
	// again for each.
	Before func(i int, g *game.Game)
}

// Play runs s in memory. An error means the script could not be played at
// all (unknown ruleset, setup refused); unmet expectations are in Failures.
func Play(s *Script, lookup game.Lookup, opt Options) (*Run, error) {
	rs, ok := lookup(s.Ruleset)
	if !ok {
		return nil, fmt.Errorf("%s: no ruleset %q in this build", s.file, s.Ruleset)
	}
	pos, err := s.position()
	if err != nil {
		return nil, fmt.Errorf("%s: position: %v", s.file, err)
	}
	faces := s.Dice
	if opt.Dice != nil {
		faces = opt.Dice
	}
	var players []game.Player
	sides := s.Players
	if len(sides) == 0 {
		for _, sd := range rs.Info().Sides {
			sides = append(sides, string(sd))
		}
	}
	for _, sd := range sides {
		players = append(players, game.Player{Side: adjudicator.Side(sd)})
	}
	n := game.NewGame{ID: s.gameID(), Ruleset: rs, Scenario: s.Scenario, Position: pos, Options: s.Options,
		Players: players, Time: epoch, Secret: s.secret()}
	if s.Module != "" {
		md, ok := rs.(adjudicator.Modular)
		if !ok {
			return nil, fmt.Errorf("%s: module %s: %s is not played from module data", s.file, s.Module, s.Ruleset)
		}
		m, ok := md.BuiltinModule(s.Module)
		if !ok || !slices.Contains(md.BuiltinModules(), s.Module) {
			return nil, fmt.Errorf("%s: %s ships no module %q (it has: %s)", s.file, s.Ruleset, s.Module, strings.Join(md.BuiltinModules(), ", "))
		}
		m.Name = s.Module
		n.Module = &m
	}
	var script *dice.Script
	if faces != nil {
		n.Faces = slices.Clone(faces)
		script = &dice.Script{Faces: n.Faces}
	}
	rec, _, err := game.Create(n)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", s.file, err)
	}
	run := &Run{Script: s, Log: []game.Entry{{Seq: 1, Record: rec}}}
	g, err := game.Load(run.Log, lookup)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", s.file, err)
	}
	secrets := map[int][]byte{0: s.secret()}
	vault := game.Vault{}
	salts := Salts("umpire-script-salt", s.secret())
	for i, st := range s.Steps {
		if opt.Before != nil {
			opt.Before(i, g)
		}
		in := game.Input{Side: adjudicator.Side(st.Side), Src: []byte(st.Orders), Time: epoch.Add(time.Duration(i+1) * time.Minute), Via: "script",
			Secrets:    func(gen int) ([]byte, error) { return secrets[gen], nil },
			NextSecret: dice.Hash(secrets[len(secrets)-1]),
			Rand:       salts, Unseal: vault.Unseal}
		if script != nil {
			in.Dice = script
		}
		out, err := g.Submit(in)
		sr := StepRun{Step: st, Err: err}
		where := fmt.Sprintf("step %d (%s)", i+1, st.Side)
		if st.node != nil {
			where = fmt.Sprintf("step %d (%s, line %d)", i+1, st.Side, st.node.Line)
		}
		if err != nil {
			run.Steps = append(run.Steps, sr)
			if st.ExpectError == "" {
				run.failf("%s was refused: %v", where, err)
				break
			}
			checkRefusal(run, where, st, err)
			continue
		}
		if st.ExpectError != "" {
			run.failf("%s was accepted, but it should be refused with %s", where, st.ExpectError)
		}
		for _, r := range out.Records {
			run.Log = append(run.Log, game.Entry{Seq: uint64(len(run.Log) + 1), Record: r})
		}
		vault.Keep(out.Records)
		if out.NewSecret != nil {
			secrets[out.NewChain] = out.NewSecret
		}
		sr.Results, sr.Notes = out.Results, out.Notes
		run.Steps = append(run.Steps, sr)
		g = out.Next
	}
	if opt.Before != nil {
		opt.Before(len(s.Steps), g)
	}
	run.Game = g
	run.View = g.View(adjudicator.Referee)
	if script != nil {
		run.DiceLeft = script.Left()
	}
	if s.Expect != nil {
		s.Expect.check(run)
	}
	if script != nil && (s.Expect == nil || s.Expect.DiceLeft == nil) && run.DiceLeft != 0 {
		run.failf("%d scripted dice were never rolled: remove them, or say \"dice-left: %d\" under expect", run.DiceLeft, run.DiceLeft)
	}
	// Every script also proves that its log verifies and replays exactly.
	if a := game.Verify(run.Log); !a.OK() {
		run.failf("the log does not verify: %s", strings.Join(a.Problems, "; "))
	}
	if a := game.Replay(run.Log, lookup); !a.OK() {
		run.failf("the log does not replay: %s", strings.Join(a.Problems, "; "))
	}
	return run, nil
}

func checkRefusal(run *Run, where string, st Step, err error) {
	var e *adjudicator.OrderError
	var es adjudicator.OrderErrors
	switch {
	case errors.As(err, &e):
	case errors.As(err, &es) && len(es) > 0:
		for _, x := range es {
			if x.Code == st.ExpectError {
				e = x
				break
			}
		}
		if e == nil {
			e = es[0]
		}
	default:
		run.failf("%s failed with %v, not an order error %s", where, err, st.ExpectError)
		return
	}
	if e.Code != st.ExpectError {
		run.failf("%s was refused with %s (%s), expected %s", where, e.Code, e.Msg, st.ExpectError)
	}
	if st.ExpectLine != 0 && e.Line != st.ExpectLine {
		run.failf("%s was refused at line %d, expected line %d", where, e.Line, st.ExpectLine)
	}
	if st.ExpectHas != "" && !strings.Contains(e.Msg, st.ExpectHas) {
		run.failf("%s: the message %q lacks %q", where, e.Msg, st.ExpectHas)
	}
}

func (x *Expect) check(run *Run) {
	v := run.View
	if x.Turn != nil && v.Turn != *x.Turn {
		run.failf("turn is %d, expected %d", v.Turn, *x.Turn)
	}
	if x.Phase != "" && v.Phase != x.Phase {
		run.failf("phase is %q, expected %q", v.Phase, x.Phase)
	}
	units := map[string]adjudicator.UnitView{}
	for _, u := range v.Units {
		units[u.ID] = u
	}
	// unit returns the view of a unit an expectation names, or fails.
	unit := func(id string) (adjudicator.UnitView, bool) {
		u, ok := units[id]
		if !ok {
			run.failf("unit %s does not exist", id)
		}
		return u, ok
	}
	for _, id := range slices.Sorted(maps.Keys(x.Units)) {
		want := x.Units[id]
		u, ok := units[id]
		switch {
		case !ok:
			run.failf("unit %s does not exist", id)
		case want == "gone" && !u.Gone:
			run.failf("unit %s is at %s, expected gone", id, u.At)
		case want != "gone" && u.Gone:
			run.failf("unit %s is gone, expected at %s", id, want)
		case want != "gone" && u.At != want:
			run.failf("unit %s is at %s, expected at %s", id, u.At, want)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(x.Status)) {
		want := x.Status[id]
		u := units[id]
		got := strings.Join(u.Status, ",")
		if got != want {
			run.failf("unit %s has status %q, expected %q", id, got, want)
		}
	}
	for _, id := range x.Gone {
		if u, ok := units[id]; !ok || !u.Gone {
			run.failf("unit %s is not gone", id)
		}
	}
	for _, side := range slices.Sorted(maps.Keys(x.Score)) {
		if got := v.Score[adjudicator.Side(side)]; got != x.Score[side] {
			run.failf("%s scores %d, expected %d", side, got, x.Score[side])
		}
	}
	if x.Winner != nil && string(v.Winner) != *x.Winner {
		run.failf("winner is %q, expected %q", v.Winner, *x.Winner)
	}
	if x.Result != "" && !strings.Contains(v.Result, x.Result) {
		run.failf("result is %q, expected it to say %q", v.Result, x.Result)
	}
	if x.Over != nil && v.Over != *x.Over {
		run.failf("over is %v, expected %v", v.Over, *x.Over)
	}
	if x.Due != nil {
		var got []string
		for _, r := range run.Game.Due() {
			got = append(got, string(r.Side))
		}
		if strings.Join(got, ",") != strings.Join(x.Due, ",") {
			run.failf("due from %v, expected %v", got, x.Due)
		}
	}
	report := strings.Join(run.Report(), "\n")
	for _, s := range x.ReportHas {
		if !strings.Contains(report, s) {
			run.failf("the report does not say %q", s)
		}
	}
	if x.Rolls != nil {
		got := run.Rolls()
		for i := 0; i < max(len(got), len(x.Rolls)); i++ {
			switch {
			case i >= len(got):
				run.failf("roll %d: expected %q, but only %d rolls were made", i+1, x.Rolls[i], len(got))
			case i >= len(x.Rolls):
				run.failf("roll %d: %q was made, but only %d rolls were expected", i+1, got[i], len(x.Rolls))
			case got[i] != x.Rolls[i]:
				run.failf("roll %d is %q, expected %q", i+1, got[i], x.Rolls[i])
			}
		}
	}
	if x.DiceLeft != nil && run.DiceLeft != *x.DiceLeft {
		run.failf("%d scripted dice are left, expected %d", run.DiceLeft, *x.DiceLeft)
	}
	for _, k := range slices.Sorted(maps.Keys(x.Markers)) {
		if got := fmt.Sprint(v.Markers[k]); got != x.Markers[k] {
			run.failf("marker %s is %q, expected %q", k, got, x.Markers[k])
		}
	}
	for _, kind := range slices.Sorted(maps.Keys(x.Hexes)) {
		var got []string
		for _, h := range v.Hexes {
			if h.Kind == kind {
				got = append(got, HexMarkText(h))
			}
		}
		want := slices.Clone(x.Hexes[kind])
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			run.failf("hex marks %s are %q, expected %q", kind, got, want)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(x.Damage)) {
		u, ok := unit(id)
		if !ok {
			continue
		}
		if got := DamageText(u.Damage); got != x.Damage[id] {
			run.failf("unit %s has damage %q, expected %q", id, got, x.Damage[id])
		}
	}
	for _, id := range slices.Sorted(maps.Keys(x.Facing)) {
		u, ok := unit(id)
		if !ok {
			continue
		}
		got := u.Facing
		if u.Flying {
			got += " flying"
		}
		if got != x.Facing[id] {
			run.failf("unit %s faces %q, expected %q", id, got, x.Facing[id])
		}
	}
	for _, id := range slices.Sorted(maps.Keys(x.StatusHas)) {
		u, ok := unit(id)
		if !ok {
			continue
		}
		for _, want := range x.StatusHas[id] {
			if !slices.Contains(u.Status, want) {
				run.failf("unit %s has status %q, which lacks %q", id, strings.Join(u.Status, ","), want)
			}
		}
	}
	for _, s := range x.Notes {
		if !slices.ContainsFunc(v.Notes, func(n string) bool { return strings.Contains(n, s) }) {
			run.failf("no note says %q", s)
		}
	}
}

// Report is every report line of every adjudication, in order, as the
// referee reads them (whatever their audience).
func (r *Run) Report() []string {
	var out []string
	for _, s := range r.Steps {
		for _, res := range s.Results {
			out = append(out, adjudicator.Texts(res.ReportFor(adjudicator.Referee))...)
		}
	}
	return out
}

// Rolls is every roll as printed, in order, as the referee sees them.
func (r *Run) Rolls() []string {
	var out []string
	for _, s := range r.Steps {
		for _, res := range s.Results {
			for _, roll := range res.RollsFor(adjudicator.Referee) {
				out = append(out, roll.String())
			}
		}
	}
	return out
}

// Salts is a deterministic source of the salts of sealed parts: a
// SHA-256 counter stream of label (which keeps streams of different uses
// apart) and seed, so that a game played again from the same script or
// record writes the same log at every run. Never for a real game, whose
// salts must be unpredictable.
func Salts(label string, seed []byte) io.Reader {
	return &saltStream{label: label, seed: seed}
}

type saltStream struct {
	label string
	seed  []byte
	n     uint64
	buf   []byte
}

func (s *saltStream) Read(p []byte) (int, error) {
	for len(s.buf) < len(p) {
		h := sha256.New()
		h.Write([]byte(s.label))
		h.Write([]byte{0})
		h.Write(s.seed)
		h.Write(binary.BigEndian.AppendUint64(nil, s.n))
		s.n++
		s.buf = h.Sum(s.buf)
	}
	n := copy(p, s.buf)
	s.buf = s.buf[n:]
	return n, nil
}

// HexMarkText writes a hex mark as expectations give it: "AT", then
// " rRADIUS" and " LABEL" when it has them.
func HexMarkText(h adjudicator.HexMark) string {
	s := h.At
	if h.Radius > 0 {
		s += fmt.Sprintf(" r%d", h.Radius)
	}
	if h.Label != "" {
		s += " " + h.Label
	}
	return s
}

// DamageText writes a unit's damage as expectations give it: "AREA
// LEFT/OF" (or "AREA.GROUP LEFT/OF") per group, comma-separated.
func DamageText(ds []adjudicator.Damage) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		area := d.Area
		if d.Group != "" {
			area += "." + d.Group
		}
		parts[i] = fmt.Sprintf("%s %d/%d", area, d.Left, d.Of)
	}
	return strings.Join(parts, ", ")
}
