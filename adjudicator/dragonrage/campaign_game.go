package dragonrage

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/hex"
)

// Campaign games (§23, FR §4.3). Each game of a campaign is an ordinary
// point game built in secret (points-esirien, points-nurkott, DR-PTS-2)
// that the campaign (package dragonrage/campaign) creates with options:
//
//   - points=INV/DEF: the two potentials, the size of each army for this
//     game; points are not spent (DR-CAMP-4);
//   - campaign-game=N (1 to 6): campaign recruiting. At most 15 units per
//     army in game 1, 20 in games 2 and 3, 25 in games 4 and 5
//     (DR-CAMP-7), and 25 in a tie-break sixth game (ruling: it follows
//     the last games'); each side recruits from its own colours
//     (DR-CAMP-5, DR-CAMP-6: the same split as every point game here,
//     DR-COMP-3), the hero and the wizard by both sides, each its own
//     colour's counter (ruling: they are printed in both colours); and the
//     VP goal is DR-CAMP-9's instead of DR-THR-1's;
//   - balance-vp=N: the invader may mark VP hexes destroyed before the
//     game, worth up to N VP in all, in his (hidden) build; they are
//     destroyed when the armies are revealed and count for him
//     (DR-CAMP-10, DR-AMB-27);
//   - goal-adjust=+N raises the goal (DR-CAMP-11), as for a handicap.

// codeOverUnits: an army has more units than the campaign game allows.
const codeOverUnits = "over-units"

// balanceKey is the line of the invader's build that places the balancing
// markers: "destroyed-vp: [1108, 1210]".
const balanceKey = "destroyed-vp"

// maxCampaignGame is the last game a campaign may play: five, and a
// sixth to break a tie (DR-CAMP-15).
const maxCampaignGame = 6

func init() {
	knownOptions = append(knownOptions,
		adjudicator.OptionInfo{Name: "campaign-game", Default: "", Doc: "a game of a campaign (set by the campaign, dragonrage-campaign): its number, 1 to 5, or 6 for a tie-break; at most 15 units per army in game 1, 20 in games 2-3, 25 in games 4-6 (DR-CAMP-7), the VP goal of DR-CAMP-9"},
		adjudicator.OptionInfo{Name: "balance-vp", Default: "", Doc: "in a campaign game, the VP the invader may mark destroyed before the game, with a line \"destroyed-vp: [HEX, ...]\" in his build (DR-CAMP-10: 1 per 5 points by which the defender's potential is 15 or more above his)"},
	)
}

// checkCampaignOption checks the value of the option campaign-game or
// balance-vp (checkOptions).
func checkCampaignOption(k, v string) error {
	n, err := strconv.Atoi(v)
	switch {
	case k == "campaign-game" && (err != nil || n < 1 || n > maxCampaignGame):
		return fmt.Errorf("option campaign-game=%s: give the game's number in its campaign, 1 to 5, or 6 for a tie-break (DR-CAMP-1, DR-CAMP-15)", v)
	case k == "balance-vp" && (err != nil || n < 1 || n > 100):
		return fmt.Errorf("option balance-vp=%s: give the VP the invader may mark destroyed, a whole number from 1 to 100 (DR-CAMP-10: 1 per 5 points of difference)", v)
	}
	return nil
}

// checkCampaignScenario says why the campaign options do not fit scenario
// id (weighted: a weighted point scenario; fixed: not a point scenario).
func checkCampaignScenario(id string, fixed, weighted bool, opts map[string]string) error {
	_, game := opts["campaign-game"]
	_, balance := opts["balance-vp"]
	switch {
	case !game && !balance:
		return nil
	case fixed || weighted:
		k := "campaign-game"
		if !game {
			k = "balance-vp"
		}
		return fmt.Errorf("option %s=%s: it is for the games of a campaign, played as point scenarios built in secret (points-esirien, points-nurkott, DR-CAMP-4); scenario %s is not one", k, opts[k], id)
	case !game:
		return fmt.Errorf("option balance-vp=%s: balancing is a campaign rule (DR-CAMP-10); give the game's number too, campaign-game=N", opts["balance-vp"])
	}
	return nil
}

// campaignGame is the game's number in its campaign, 0 outside a campaign.
func (st *State) campaignGame() int {
	n, err := strconv.Atoi(st.Options["campaign-game"])
	if err != nil {
		return 0
	}
	return n
}

// balanceVP is the VP the invader may mark destroyed (DR-CAMP-10), 0 for
// none.
func (st *State) balanceVP() int {
	n, err := strconv.Atoi(st.Options["balance-vp"])
	if err != nil {
		return 0
	}
	return n
}

// UnitCap is the most units one army may recruit in game n of a campaign
// (DR-CAMP-7): 15 in game 1, 20 in games 2 and 3, 25 in games 4 and 5, and
// 25 in a tie-break sixth game (ruling).
func UnitCap(n int) int {
	switch {
	case n <= 1:
		return 15
	case n <= 3:
		return 20
	}
	return 25
}

// campaignRule is the rule that says which counters each side recruits in
// a campaign on this map.
func campaignRule(mapName string) string {
	if mapName == "nurkott" {
		return "DR-CAMP-6"
	}
	return "DR-CAMP-5"
}

// colourRule is what a refusal to buy a counter of the other army cites.
func (st *State) colourRule() string {
	if st.campaignGame() > 0 {
		return campaignRule(st.Map) + ", FR §4.3.1"
	}
	return "DR-COMP-3, as in campaign recruiting, FR §4.3.1"
}

// campaignPrompt is what a campaign game's build request adds to its
// prompt: the cap, who recruits what and, for the invader, balancing.
func (st *State) campaignPrompt(side adjudicator.Side) string {
	n := st.campaignGame()
	if n == 0 {
		return ""
	}
	own := defenderColour(st.Map)
	s := fmt.Sprintf("; campaign game %d: at most %d units (DR-CAMP-7); ", n, UnitCap(n))
	if side == Defender {
		s += fmt.Sprintf("the defender of %s recruits only %s counters, hero and wizard included (%s)", st.Map, own, campaignRule(st.Map))
	} else {
		s += fmt.Sprintf("the invader may not recruit the %s counters (%s)", own, campaignRule(st.Map))
	}
	if b := st.balanceVP(); b > 0 && side == Invader {
		s += fmt.Sprintf("; balancing: you may mark VP hexes destroyed before the game, worth up to %d VP in all, with a line \"%s: [HEX, HEX]\"; they count for you (DR-CAMP-10)", b, balanceKey)
	}
	return s
}

// overCap is the error of an army over the campaign game's unit cap, or
// nil (n is the army's node).
func (w *world) overCap(side adjudicator.Side, n *yaml.Node, a *Army) *adjudicator.OrderError {
	g := w.st.campaignGame()
	if g == 0 {
		return nil
	}
	units := 0
	for _, c := range a.Counts {
		units += c
	}
	if limit := UnitCap(g); units > limit {
		return adjudicator.Errorf(n, codeOverUnits, "the %s's army has %d units and campaign game %d allows at most %d per army (DR-CAMP-7): take off %s or more",
			side, units, g, limit, plural(units-limit, "unit", "units"))
	}
	return nil
}

// splitBalance takes the balancing line out of a build: the army's lines,
// and the key and value of "destroyed-vp" (nil when absent).
func splitBalance(n *yaml.Node) (army, key, value *yaml.Node) {
	if n.Kind != yaml.MappingNode {
		return n, nil, nil
	}
	c := *n
	c.Content = nil
	for i := 0; i+1 < len(n.Content); i += 2 {
		if strings.EqualFold(strings.TrimSpace(n.Content[i].Value), balanceKey) && key == nil {
			key, value = n.Content[i], n.Content[i+1]
			continue
		}
		c.Content = append(c.Content, n.Content[i], n.Content[i+1])
	}
	return &c, key, value
}

// parseBalance reads the balancing markers of the invader's build
// (DR-CAMP-10): intact VP hexes of the map, each once, worth up to the
// game's balance-vp in all.
func (w *world) parseBalance(side adjudicator.Side, key, value *yaml.Node, a *Army) adjudicator.OrderErrors {
	allow := w.st.balanceVP()
	switch {
	case side != Invader:
		return adjudicator.OrderErrors{adjudicator.Errorf(key, codeCannot, "only the invader places destroyed-VP markers before a campaign game (DR-CAMP-10): take the line %q out", balanceKey)}
	case allow == 0:
		return adjudicator.OrderErrors{adjudicator.Errorf(key, codeCannot, "this game has no balancing markers: the invader places them only when the defender's potential is 15 or more above his (DR-CAMP-10), and the campaign then says how many VP (option balance-vp); take the line %q out", balanceKey)}
	}
	list := []*yaml.Node{value}
	if value.Kind == yaml.SequenceNode {
		list = value.Content
	}
	var errs adjudicator.OrderErrors
	var parts []string
	total := 0
	seen := map[string]bool{}
	for _, x := range list {
		if x.Kind == yaml.ScalarNode && x.Value == "" {
			continue // "destroyed-vp:" with nothing: no marker
		}
		h, err := w.parseHex(x)
		if err != nil {
			errs = append(errs, err.(*adjudicator.OrderError))
			continue
		}
		hx, _ := hex.Parse(h)
		vp := w.vpHex(hx)
		switch {
		case seen[h]:
			errs = append(errs, adjudicator.Errorf(x, codeTwice, "%s is given twice: a VP hex takes one marker", h))
			continue
		case vp == 0:
			errs = append(errs, adjudicator.Errorf(x, codeBadHex, "%s is not a VP hex of the %s map: a destroyed-VP marker goes on a VP hex (DR-CAMP-10); the VP hexes are %s", h, w.m.Title, w.vpHexList()))
			continue
		}
		seen[h] = true
		total += vp
		a.DestroyedVP = append(a.DestroyedVP, h)
		parts = append(parts, fmt.Sprintf("%s %d", h, vp))
	}
	if len(errs) == 0 && total > allow {
		errs = append(errs, adjudicator.Errorf(value, codeOverPoints, "the markers are worth %d VP (%s) and balancing allows %d in this game (DR-CAMP-10): take off %d VP or more",
			total, strings.Join(parts, " + "), allow, total-allow))
	}
	a.balance = total
	return errs
}

// vpHexList is every VP hex of the map with its value: "0809 2, 1108 3".
func (w *world) vpHexList() string {
	var parts []string
	for _, h := range w.m.VPHexes() {
		if vp := w.vpHex(h); vp > 0 {
			parts = append(parts, fmt.Sprintf("%s (%d)", h, vp))
		}
	}
	return strings.Join(parts, ", ")
}

// placeBalance destroys the VP hexes the invader marked in his build, as
// the armies are revealed; they count for him (DR-CAMP-10, DR-AMB-27).
// Should they reach the goal, he wins at once (DR-WIN-5).
func (w *world) placeBalance(a *Army) {
	if a == nil || len(a.DestroyedVP) == 0 {
		if b := w.st.balanceVP(); b > 0 {
			w.sayf("the invader places no destroyed-VP markers (he could have placed %d VP, DR-CAMP-10)", b)
		}
		return
	}
	for _, h := range a.DestroyedVP {
		hx, _ := hex.Parse(h)
		vp := w.vpHex(hx)
		w.emit(&VPDestroyed{Hex: h, VP: vp})
		w.sayf("balancing: the invader's marker destroys VP hex %s before the game: +%d VP, the invader has %d (DR-CAMP-10, DR-AMB-27)", h, vp, w.st.VP)
	}
	w.checkVictory()
}

// mergeErrs adds err, an order error or a list of them, to errs; any
// other error is returned as it is.
func mergeErrs(errs adjudicator.OrderErrors, err error) (adjudicator.OrderErrors, error) {
	switch e := err.(type) {
	case nil:
		return errs, nil
	case *adjudicator.OrderError:
		return append(errs, e), nil
	case adjudicator.OrderErrors:
		return append(errs, e...), nil
	}
	return errs, err
}
