package referee

import (
	"context"
	"fmt"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/store/games"
	"gopkg.in/yaml.v3"
)

// Series (docs/series.md): the games service creates the games a series
// reaches, and records their results in the series, by itself; these are
// the mails it queues with them, in the same transactions.

// HookSeries makes the desk's games service mail what series do: the
// welcome of each game a series reaches (its players' own secrets), and
// the series' results (the standings) after each game's result.
func (d *Desk) HookSeries() {
	d.Games.ChildMail = d.childMails
	d.Games.SeriesMail = d.seriesMails
	d.Games.OnResultRefused = func(series, game string, err error) {
		d.log().Error("a series refused the result of one of its games: the game's end is kept, the series waits (a ruleset bug)", "series", series, "game", game, "err", err)
	}
}

func (d *Desk) childMails(series, child *game.Game, secrets map[adjudicator.Side]string) ([]store.Message, error) {
	return d.welcomeMails(child, secrets)
}

func (d *Desk) seriesMails(ctx context.Context, before, after *game.Game, out *game.Outcome) ([]store.Message, error) {
	if len(out.Results) == 0 {
		return nil, nil
	}
	head, event, err := d.headAfter(ctx, after, out.Records)
	if err != nil {
		return nil, err
	}
	return d.resultsMails(ctx, after, out.Results, submissionStory(before, after, out.Records), head, event, "results", "", nil)
}

func (h *handling) cmdNewSeries(ctx context.Context, c Command, root *yaml.Node) error {
	kind := strings.TrimPrefix(c.Command, "new-")
	if c.Ruleset == "" {
		var names []string
		if h.d.Rulesets != nil {
			for _, rs := range h.d.Rulesets() {
				if info := rs.Info(); info.Series == kind {
					names = append(names, info.Name)
				}
			}
		}
		switch len(names) {
		case 0:
			return h.refereeReply(ctx, "", c, false, fmt.Sprintf("This umpire has no %s ruleset (umpire rulesets lists them).", kind), nil)
		case 1:
			c.Ruleset = names[0]
		default:
			return h.refereeReply(ctx, "", c, false, fmt.Sprintf("Say which %s with a line \"ruleset: …\": this umpire has %s.", kind, strings.Join(names, ", ")), nil)
		}
	}
	rs, ok := h.d.Games.Rules(c.Ruleset)
	if !ok || !games.IsSeries(rs) {
		return h.refereeReply(ctx, "", c, false, fmt.Sprintf("%s creates a series (a campaign, a tournament); %q is not a series ruleset of this umpire (umpire rulesets lists them)", c.Command, c.Ruleset), nil)
	}
	if c.Scenario == "" {
		if sc := rs.Info().Scenarios; len(sc) == 1 {
			c.Scenario = sc[0].ID
		}
	}
	return h.cmdNew(ctx, c, root)
}

// seriesWelcome is what a welcome says of a series: for a series, how its
// games come; for a game of a series, which one it is.
// moduleWelcome says, for a game played from module data, which module
// and where its values come from, as the ruleset sums them up; "" for any
// other game.
func moduleWelcome(g *game.Game) string {
	ref := g.Created.Module
	if ref == nil || g.Module == nil {
		return ""
	}
	text := fmt.Sprintf("This game is played from the module %s (digest %s).", ref.Name, ref.Digest[:min(16, len(ref.Digest))])
	if ms, ok := g.Rules.(adjudicator.ModuleSummarizer); ok {
		text += " " + ms.ModuleSummary(*g.Module) + "."
	}
	return wrapText(text+" Values marked assumed were chosen for want of a source; a group may correct them from its own printed components (docs/modules.md).", 72)
}

// wrapText breaks text into lines of at most width characters, at spaces.
func wrapText(text string, width int) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(text) {
		if n > 0 && n+1+len([]rune(w)) > width {
			b.WriteByte('\n')
			n = 0
		} else if n > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len([]rune(w))
	}
	return b.String()
}

func seriesWelcome(g *game.Game) string {
	switch p := g.Created.Parent; {
	case games.IsSeries(g.Rules):
		return "This is a series: umpire creates each of its games when the series\n" +
			"reaches it, and mails you that game's welcome, with the game's own id\n" +
			"and secret; you play each game by mail like any other. When a game\n" +
			"ends, its result is recorded here and the series goes on by itself;\n" +
			"every player gets its results after every game. The secret below is\n" +
			"for this series' own mails (status, history, export)."
	case p != nil:
		return fmt.Sprintf("This game is %s of the series %s: when it ends, umpire records its\n"+
			"result in the series, which goes on by itself. Your secret below is for\n"+
			"this game only.", p.Key, p.Game)
	}
	return ""
}
