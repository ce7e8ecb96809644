package conquete

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Battles decided by the referee (option battles=referee). Each Battle is
// still created as a Dragon Noir game from its position, so that its
// forces are on record; the referee plays it as he likes (at a table, by
// hand) and ends that game by mail (command: end) with the Battle's
// result in words, and its loser:
//
//	command: end
//	game: conquete-b1
//	result: "the Reptilians flee; dead: jon, rept-warrior-1; wounded: konrad; left: chief-sarrak to le-pont; pe: zacharie 40"
//	loser: krobs
//
// umpire records that end in the campaign as any Battle's (the series'
// result, checked by "umpire series verify" against the Battle's own log:
// its last event is the referee's end, with these words); the campaign
// reads the clauses it knows, separated by ";": dead:, wounded: (one
// wound), wounded-2: (two), healed:, left: (UNIT to REGION), pe: (UNIT N),
// negotiation: (rebels, reptilians or neutral: the people of Step 5). A
// counter the words do not name is as it was before the Battle. Words
// without any of these clauses leave the Battle's own final view to decide
// (the players played it to its end).

// refereeClauses are the clauses of a referee's result.
var refereeClauses = []string{"dead", "wounded", "wounded-2", "healed", "left", "pe", "negotiation"}

// refereeFates reads the referee's words into the counters' fates, and the
// outcome of Step 5 (neg, "" when they do not say it); ignored are the
// words that name no counter of the Battle (or no Region). Words naming no counter of the
// Battle are reported and ignored: the result is the referee's, already
// recorded, and cannot be refused.
func (x *world) refereeFates(res *adjudicator.ChildResult, view []*fate) (fs []*fate, neg string, ignored []string) {
	clauses := map[string][]string{}
	for part := range strings.SplitSeq(res.Result, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), ":")
		k = strings.ToLower(strings.TrimSpace(k))
		if !ok || !slices.Contains(refereeClauses, k) {
			continue
		}
		for item := range strings.SplitSeq(v, ",") {
			if item = strings.TrimSpace(item); item != "" {
				clauses[k] = append(clauses[k], item)
			}
		}
	}
	if len(clauses) == 0 {
		return view, "", nil
	}
	st := x.st()
	byID := map[string]*fate{}
	var out []*fate
	for _, f := range view {
		// As it was: on the map, its wounds unchanged.
		n := &fate{id: f.id, side: f.side, entered: f.entered, wounds: st.Counters[f.id].Wounds}
		byID[f.id] = n
		out = append(out, n)
	}
	get := func(id string) *fate {
		if f := byID[id]; f != nil {
			return f
		}
		ignored = append(ignored, id)
		return nil
	}
	for _, id := range clauses["dead"] {
		if f := get(id); f != nil {
			f.gone, f.entered = true, true
		}
	}
	for k, n := range map[string]int{"wounded": 1, "wounded-2": 2} {
		for _, id := range clauses[k] {
			if f := get(id); f != nil {
				f.wounds = n
			}
		}
	}
	for _, id := range clauses["healed"] {
		if f := get(id); f != nil {
			f.wounds, f.healed = 0, true
		}
	}
	for _, item := range clauses["left"] {
		id, to, _ := strings.Cut(item, " to ")
		id, to = strings.TrimSpace(id), strings.TrimSpace(to)
		if st.data.Regions[to] == nil {
			ignored = append(ignored, item)
			continue
		}
		if f := get(id); f != nil {
			f.left, f.entered = to, true
		}
	}
	for _, item := range clauses["pe"] {
		fields := strings.Fields(item)
		n, err := 0, fmt.Errorf("no number")
		if len(fields) == 2 {
			n, err = strconv.Atoi(fields[1])
		}
		if err != nil {
			ignored = append(ignored, item)
			continue
		}
		if f := get(fields[0]); f != nil {
			f.pe, f.hasPE = n, true
		}
	}
	if n := clauses["negotiation"]; len(n) > 0 {
		neg = n[0]
	}
	return out, neg, ignored
}
