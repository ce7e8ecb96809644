package script

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
)

// WriteText prints the run for people: each step, each adjudication with
// every roll, the final state, and the verdict.
func (r *Run) WriteText(w io.Writer) {
	name := r.Script.Name
	if name == "" {
		name = r.Script.file
	}
	fmt.Fprintf(w, "script %s\n", name)
	if len(r.Script.Rules) > 0 {
		fmt.Fprintf(w, "rules: %s\n", strings.Join(r.Script.Rules, ", "))
	}
	for i, s := range r.Steps {
		if s.Err != nil {
			fmt.Fprintf(w, "\nstep %d, %s: refused\n%s\n", i+1, s.Step.Side, indent(s.Err.Error()))
			continue
		}
		fmt.Fprintf(w, "\nstep %d, %s: accepted\n", i+1, s.Step.Side)
		for _, res := range s.Results {
			WriteResult(w, res, adjudicator.Referee)
		}
		for _, n := range s.Notes {
			fmt.Fprintf(w, "  sent ahead: %s%s\n", audienceTag(n.To), n.Text)
		}
	}
	fmt.Fprintln(w)
	WriteView(w, r.View)
	if due := r.Game.Due(); len(due) > 0 {
		fmt.Fprintln(w, "due next:")
		for _, d := range due {
			fmt.Fprintf(w, "  %s: %s (turn: %d, phase: %s)\n", d.Side, d.Title, d.Turn, d.Phase)
		}
	}
	if r.OK() {
		fmt.Fprintln(w, "\nPASS")
		return
	}
	fmt.Fprintln(w, "\nFAIL")
	for _, f := range r.Failures {
		fmt.Fprintf(w, "  - %s\n", f)
	}
}

// WriteResult prints one adjudication as viewer may read it (the
// referee, adjudicator.Referee, reads every line and roll, each marked
// with its audience when that is not every side). A result read from the
// log alone (no Full report) prints its public record, with the sealed
// stand-ins of what is not public.
func WriteResult(w io.Writer, res game.Result, viewer adjudicator.Side) {
	fmt.Fprintf(w, "  adjudication %d", res.K)
	if res.Seed != "" {
		fmt.Fprintf(w, " (dice seed %d of chain %d: %s)", res.Index, res.Chain, res.Seed)
	}
	fmt.Fprintln(w)
	lines, rolls := res.ReportFor(viewer), res.RollsFor(viewer)
	for _, line := range lines {
		fmt.Fprintf(w, "    %s%s\n", audienceTag(line.To), line.Text)
	}
	for _, roll := range rolls {
		fmt.Fprintf(w, "    roll: %s%s\n", audienceTag(roll.To), roll)
	}
}

// audienceTag marks what not every side may read: "[to defender] ".
func audienceTag(a adjudicator.Audience) string {
	if a.Public() {
		return ""
	}
	parts := make([]string, len(a))
	for i, s := range a {
		parts[i] = string(s)
	}
	return "[to " + strings.Join(parts, ", ") + "] "
}

// WriteView prints a state.
func WriteView(w io.Writer, v adjudicator.View) {
	fmt.Fprintf(w, "turn %d, phase %s\n", v.Turn, v.Phase)
	if len(v.Score) > 0 {
		fmt.Fprint(w, "score:")
		for _, s := range slices.Sorted(maps.Keys(v.Score)) {
			fmt.Fprintf(w, " %s %d", s, v.Score[s])
		}
		fmt.Fprintln(w)
	}
	for _, u := range v.Units {
		at := u.At
		if u.Gone {
			at = "gone"
		}
		status := ""
		if len(u.Status) > 0 {
			status = " [" + strings.Join(u.Status, ", ") + "]"
		}
		fmt.Fprintf(w, "  %-10s %-9s %-8s %s%s\n", u.ID, u.Side, u.Type, at, status)
	}
	for _, n := range v.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if v.Over {
		fmt.Fprintf(w, "game over: %s\n", v.Result)
	}
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

// JSON is the machine-readable form of a run (umpire run --json).
type JSON struct {
	Name     string                `json:"name"`
	File     string                `json:"file"`
	Rules    []string              `json:"rules,omitempty"`
	Pass     bool                  `json:"pass"`
	Failures []string              `json:"failures,omitempty"`
	Steps    []StepJSON            `json:"steps"`
	Final    adjudicator.View      `json:"final"`
	Due      []adjudicator.Request `json:"due"`
}

// StepJSON is one step in JSON.
type StepJSON struct {
	Side    string                  `json:"side"`
	Error   *adjudicator.OrderError `json:"error,omitempty"`
	Failure string                  `json:"failure,omitempty"`
	Results []game.Adjudicated      `json:"results,omitempty"`
}

// AsJSON returns the run's machine-readable form.
func (r *Run) AsJSON() JSON {
	j := JSON{Name: r.Script.Name, File: r.Script.file, Rules: r.Script.Rules, Pass: r.OK(), Failures: r.Failures, Final: r.View, Due: r.Game.Due()}
	for _, s := range r.Steps {
		sj := StepJSON{Side: s.Step.Side}
		if s.Err != nil {
			if e, ok := s.Err.(*adjudicator.OrderError); ok {
				sj.Error = e
			} else if es, ok := s.Err.(adjudicator.OrderErrors); ok && len(es) > 0 {
				sj.Error = es[0]
			} else {
				sj.Failure = s.Err.Error()
			}
		}
		for _, res := range s.Results {
			sj.Results = append(sj.Results, res.Adjudicated)
		}
		j.Steps = append(j.Steps, sj)
	}
	return j
}
