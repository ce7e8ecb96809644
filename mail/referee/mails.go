package referee

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/adjudicator/hexmap"
	"github.com/umpire-pbem/umpire/adjudicator/render"
	"github.com/umpire-pbem/umpire/adjudicator/script"
	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/mail/extract"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates"
)

// reply builds a mail answering m, in the thread of gameID when given. kind
// and the incoming Message-ID make its own Message-ID, so the same answer
// built again has the same ID. atts follow the text.
func (d *Desk) reply(m *extract.Mail, gameID, kind, tmpl string, data any, atts ...compose.Attachment) (store.Message, error) {
	body, err := d.Templates.Render(tmpl, data)
	if err != nil {
		return store.Message{}, err
	}
	return d.replyWith(m, gameID, kind, body, headingFor(kind, m, data), atts...) // subject.go
}

// replyWith builds a mail answering m with body and heading h.
func (d *Desk) replyWith(m *extract.Mail, gameID, kind, body string, h heading, atts ...compose.Attachment) (store.Message, error) {
	dom := d.domain()
	refs := []string{}
	if gameID != "" {
		refs = append(refs, compose.ThreadRoot(dom, gameID))
	}
	refs = append(refs, m.References...)
	refs = append(refs, m.MessageID)
	mail := compose.Mail{
		From: d.From, To: compose.Address{Address: m.From},
		ID:        compose.MessageID(dom, gameID, kind, m.MessageID),
		InReplyTo: m.MessageID, References: refs, Date: d.now(), Game: gameID, Body: body,
		Attachments: atts,
	}
	h.apply(&mail)
	return compose.Build(mail)
}

// toPlayer builds a mail of a game to one player, not answering any mail.
func (d *Desk) toPlayer(g *game.Game, to, kind string, idParts []string, tmpl string, data any, atts ...compose.Attachment) (store.Message, error) {
	body, err := d.Templates.Render(tmpl, data)
	if err != nil {
		return store.Message{}, err
	}
	dom := d.domain()
	mail := compose.Mail{
		From: d.From, To: compose.Address{Address: to},
		ID:         compose.MessageID(dom, g.ID, append([]string{kind}, idParts...)...),
		References: []string{compose.ThreadRoot(dom, g.ID)}, Date: d.now(), Game: g.ID, Body: body,
		Attachments: atts,
	}
	headingFor(kind, nil, data).apply(&mail) // subject.go
	return compose.Build(mail)
}

// sameBoard reports whether two views show the same board: the same
// units, where they stand and their state, the same hex markers. The turn,
// the phase and the traces of the last adjudication do not count.
func sameBoard(a, b adjudicator.View) bool {
	ja, _ := json.Marshal([]any{boardUnits(a), a.Hexes, a.Markers, a.Score})
	jb, _ := json.Marshal([]any{boardUnits(b), b.Hexes, b.Markers, b.Score})
	return bytes.Equal(ja, jb)
}

// boardUnits are a view's units as the board shows them: where each
// stands and what it is, not whether it may still act this phase (which
// changes with the phase alone).
func boardUnits(v adjudicator.View) []any {
	out := make([]any, len(v.Units))
	for i, u := range v.Units {
		out[i] = []any{u.ID, u.Side, u.Type, u.At, u.Status, u.Gone, u.Values, u.Facing, u.Flying, u.Damage}
	}
	return out
}

// picture draws the board as side sees it, for games played on a hex map
// or on a map of regions (adjudicator.RegionMaps). A picture that cannot
// be drawn is left out (and logged): the results go out anyway, with their
// text map.
func (d *Desk) picture(g *game.Game, v adjudicator.View, side adjudicator.Side) []compose.Attachment {
	return d.pictureSince(g, v, side, nil, nil)
}

// pictureSince is picture with traces in place of the last adjudication's
// (see tracesSince): traces on a hex map, regionTraces on a map of
// regions; nil keeps the last adjudication's.
func (d *Desk) pictureSince(g *game.Game, v adjudicator.View, side adjudicator.Side, traces []adjudicator.Trace, regionTraces []adjudicator.RegionTrace) []compose.Attachment {
	if v.Map == "" {
		return d.regionPicture(g, v, side, regionTraces)
	}
	var m *hexmap.Map
	err := fmt.Errorf("ruleset %s is not played on hex maps, yet its view names map %q", g.Rules.Info().Name, v.Map)
	if gb, ok := g.Rules.(adjudicator.GameBoards); ok {
		if b, ok := gb.BoardOf(g.State); ok {
			m, err = b, nil // the game's own map, built-in or set up from a position
		}
	}
	if hm, ok := g.Rules.(adjudicator.HexMaps); ok && m == nil {
		m, err = hm.Map(v.Map)
	}
	if err == nil {
		var pics []render.Named
		if pics, err = render.GamePictures(m, g, side, 1, traces); err == nil {
			var out []compose.Attachment
			for _, p := range pics {
				png := p.PNG
				name := fmt.Sprintf("%s-turn%d-%s.png", g.ID, v.Turn, side)
				if p.Part != "board" {
					name = fmt.Sprintf("%s-turn%d-%s-%s.png", g.ID, v.Turn, side, p.Part)
				}
				out = append(out, compose.Attachment{Name: name, ContentType: "image/png", Data: png})
			}
			return out
		}
	}
	d.log().Warn("no picture for the results mail", "game", g.ID, "side", side, "err", err)
	return nil
}

// regionPicture draws the map of regions as side sees it, for a game whose
// ruleset has one (adjudicator.RegionMaps); none otherwise.
func (d *Desk) regionPicture(g *game.Game, v adjudicator.View, side adjudicator.Side, since []adjudicator.RegionTrace) []compose.Attachment {
	pic, ok, err := render.GameRegions(g, side, 1, since)
	if !ok {
		return nil
	}
	var png []byte
	if err == nil {
		png, err = pic.PNG()
	}
	if err != nil {
		d.log().Warn("no picture for the results mail", "game", g.ID, "side", side, "err", err)
		return nil
	}
	return []compose.Attachment{{Name: fmt.Sprintf("%s-turn%d-%s.png", g.ID, v.Turn, side), ContentType: "image/png", Data: png}}
}

// acceptedMails are the mails an accepted submission causes: the
// acknowledgement to the sender and, after an adjudication, the results to
// every player, each with their own side's view. The sender gets one mail:
// when their orders made results, the acknowledgement opens their results
// mail, so it can never arrive after them.
func (d *Desk) acceptedMails(ctx context.Context, h *handling, before, next *game.Game, out *game.Outcome) ([]store.Message, error) {
	acc := out.Accepted
	side := acc.Side
	// The side the sender plays once the submission is in: another, when
	// his orders chose his side and the players swapped (game/seats.go).
	now := side
	if s, ok := next.SideOfSeat(before.Seat(side)); ok {
		now = s
	}
	title := acc.Request
	for _, r := range before.Due() {
		if r.ID == acc.Request {
			title = r.Title
		}
	}
	ack := templates.AckData{Game: gameInfo(next), Side: string(side), Title: title, Turn: acc.Turn, Phase: acc.Phase,
		Normalized: acc.Normalized, Digest: acc.Digest, Source: sourceWords(h.m.Source), Notes: h.m.Notes,
		Replaced: acc.Replaces, Adjudicated: len(out.Results) > 0, Waiting: d.dueFor(next, now)}
	for _, q := range out.Queued {
		ack.Ahead = append(ack.Ahead, fmt.Sprintf("turn %d, %s", q.Turn, q.Phase))
	}
	if len(out.Results) == 0 {
		msg, err := d.reply(h.m, next.ID, "ack", templates.Ack, ack)
		if err != nil {
			return nil, err
		}
		return []store.Message{msg}, nil
	}
	text, err := d.Templates.Render(templates.Ack, ack)
	if err != nil {
		return nil, err
	}
	head, event, err := d.headAfter(ctx, next, out.Records)
	if err != nil {
		return nil, err
	}
	merge := &mergedAck{side: now, in: h.m, data: ack, text: text}
	results, err := d.resultsMails(ctx, next, out.Results, submissionStory(before, next, out.Records), head, event, "results", "", merge, out.Notes...)
	if err != nil {
		return nil, err
	}
	var msgs []store.Message
	if !merge.done {
		// The sender gets no results mail (no address for the side): the
		// acknowledgement goes alone.
		msg, err := d.reply(h.m, next.ID, "ack", templates.Ack, ack)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, msg)
	}
	// Observers with a delay get what has become old enough (observers.go).
	late, err := d.delayedObserverResults(ctx, next, out.Records)
	if err != nil {
		return nil, err
	}
	return append(append(msgs, results...), late...), nil
}

// mergedAck is the acknowledgement of the orders that made the results,
// to open the sender's results mail with.
type mergedAck struct {
	side adjudicator.Side
	in   *extract.Mail // the sender's mail: the results mail answers it
	data templates.AckData
	text string // ack.tmpl, rendered
	done bool   // it went into a results mail
}

// resultsMails builds one results mail per player. idExtra distinguishes a
// resend from the first sending. st tells what each adjudication played.
// With ack, the results mail of the player who sent the orders opens with
// their acknowledgement and answers their mail (ack.done is then set).
//
// Each player reads only what their side may: the report lines, rolls and
// notes whose audience includes it, and the orders the log lets it read.
func (d *Desk) resultsMails(ctx context.Context, g *game.Game, results []game.Result, st story, head string, event uint64, kind, idExtra string, ack *mergedAck, notes ...adjudicator.Line) ([]store.Message, error) {
	last := 0
	for _, r := range results {
		last = r.K
	}
	adjsFor := func(side adjudicator.Side) []templates.Adjudication {
		var at map[string]string
		if st.from != nil {
			at = st.from(side)
		}
		var adjs []templates.Adjudication
		for _, r := range results {
			a := adjudicationFor(r, side)
			a.Title = st.title(r.K)
			a.Orders = st.playedFor(r.K, side, g.Seat(side), at)
			adjs = append(adjs, a)
		}
		return adjs
	}
	commitment := ""
	if n := len(g.Chains); n > 0 {
		commitment = g.Chains[n-1].Commitment
	}
	legend := legendOf(g)
	pics := d.pictures(g, st) // traces.go: each viewer's picture drawn once
	var msgs []store.Message
	for _, p := range g.Created.Players {
		if p.Address == "" {
			continue
		}
		sender := ack != nil && !ack.done && p.Side == ack.side && sameAddress(p.Address, ack.in.From)
		adjs := adjsFor(p.Side)
		var earlier []game.Result
		if kind == "results" && g.ResultsWhen(p.Side) == game.ResultsDue && len(results) > 0 && !sender {
			// A side that gets results only when due (results_pref.go).
			if d.quiet(g, p.Side, sender) {
				continue
			}
			told, err := d.lastTold(ctx, g.ID, p.Side)
			if err != nil {
				return nil, err
			}
			var played map[int][]game.OrdersAccepted
			if earlier, played, err = d.earlier(ctx, g, told, results[0].K); err != nil {
				return nil, err
			}
			old := story{played: played}
			var before []templates.Adjudication
			for _, r := range earlier {
				a := adjudicationFor(r, p.Side)
				a.Title = old.title(r.K)
				a.Orders = old.playedFor(r.K, p.Side, g.Seat(p.Side), nil)
				before = append(before, a)
			}
			adjs = append(before, adjs...)
		}
		v := g.View(p.Side)
		data := templates.ResultsData{Game: gameInfo(g), Side: string(p.Side), Adjudications: adjs, Head: head, Event: event,
			Commitment: commitment, Map: viewText(v), Over: v.Over, Result: v.Result, Due: d.dueFor(g, p.Side),
			Notes: adjudicator.Texts(adjudicator.For(notes, p.Side)), Legend: legend}
		for _, r := range g.Due() {
			if r.Side == p.Side && r.Kind == "decision" {
				text, err := d.Templates.Render(templates.Decision, templates.DecisionData{Game: data.Game, Side: string(p.Side), Due: d.dueOne(g, r, d.now(), true)})
				if err != nil {
					return nil, err
				}
				data.Decision = text
			}
		}
		data.Decision += d.setupDue(g, p.Side, "") // a setup due from this side: zones, units, orders to fill in (command.go)
		pic := pics.changed(p.Side)
		if len(earlier) > 0 {
			pic = pics.of(p.Side) // the board changed in adjudications it was not sent
		}
		data.Numbered = len(pic) > 0 && len(data.Adjudications) > 1 && len(earlier) == 0
		var msg store.Message
		var err error
		if sender {
			// The answer to the sender's mail goes first, as the
			// acknowledgement alone went before.
			if msg, err = d.ackedResults(g, ack, data, pic...); err != nil {
				return nil, err
			}
			ack.done = true
			msgs = append([]store.Message{msg}, msgs...)
			continue
		} else {
			msg, err = d.toPlayer(g, p.Address, kind, []string{strconv.Itoa(last), who(g, p), idExtra}, templates.Results, data, pic...)
		}
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, msg)
	}
	// The referee's copy: every side's lines, rolls and board.
	if ref := d.gameReferee(g); ref != "" && g.ClockSettings().Copies == "each" {
		msg, err := d.refereeResults(g, adjsFor(adjudicator.Referee), head, event, kind, []string{strconv.Itoa(last), "referee", idExtra}, pics)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, msg)
	}
	// Observers without delay read what every side may (observers.go).
	obs, err := d.observerResults(g, results, head, event, kind, idExtra, pics)
	if err != nil {
		return nil, err
	}
	return append(msgs, obs...), nil
}

// ackedResults is the results mail of the player whose orders made them:
// the acknowledgement first, then the results, answering their mail. Its
// Message-ID is the one the acknowledgement alone would have had; it is of
// kind results, and its subject says both: "Orders accepted (turn 1, move)
// - Turn 2 results - your move: …".
func (d *Desk) ackedResults(g *game.Game, ack *mergedAck, data templates.ResultsData, atts ...compose.Attachment) (store.Message, error) {
	data.Ack = strings.TrimRight(ack.text, "\n")
	body, err := d.Templates.Render(templates.Results, data)
	if err != nil {
		return store.Message{}, err
	}
	h := headingFor("results", ack.in, data) // subject.go
	accepted, _, _ := strings.Cut(headingFor("ack", ack.in, ack.data).text, " - ")
	h.text = join(accepted, h.text)
	return d.replyWith(ack.in, g.ID, "ack", body, h, atts...)
}

// legendOf is the ruleset's legend of its board, if it has one.
func legendOf(g *game.Game) []string {
	if l, ok := g.Rules.(adjudicator.GameLegend); ok {
		return l.LegendFor(g.State)
	}
	if l, ok := g.Rules.(adjudicator.Legend); ok {
		return l.Legend()
	}
	return nil
}

// refereeResults is the referee's copy of adjudications: every line and
// roll, the whole board, what every side owes.
func (d *Desk) refereeResults(g *game.Game, adjs []templates.Adjudication, head string, event uint64, kind string, idParts []string, pics *pictures) (store.Message, error) {
	v := g.View(adjudicator.Referee)
	commitment := ""
	if n := len(g.Chains); n > 0 {
		commitment = g.Chains[n-1].Commitment
	}
	data := templates.ResultsData{Game: gameInfo(g), Side: "referee", ForReferee: true, Adjudications: adjs, Head: head, Event: event,
		Commitment: commitment, Map: viewText(v), Over: v.Over, Result: v.Result, Due: d.dueFor(g, ""), Legend: legendOf(g)}
	return d.toPlayer(g, d.gameReferee(g), kind, idParts, templates.Results, data, pics.of(adjudicator.Referee)...)
}

// adjudicationFor is one adjudication as side reads it: only the report
// lines and rolls its audience includes (the referee's, "", reads all).
func adjudicationFor(r game.Result, side adjudicator.Side) templates.Adjudication {
	a := templates.Adjudication{K: r.K, Seed: r.Seed, Chain: r.Chain, Index: r.Index, Report: adjudicator.Texts(r.ReportFor(side))}
	for _, roll := range r.RollsFor(side) {
		a.Rolls = append(a.Rolls, roll.String())
	}
	return a
}

// headAfter computes the hash the game log's head will have once records
// are appended after the events already stored (the store's chain rule).
func (d *Desk) headAfter(ctx context.Context, next *game.Game, recs []game.Record) (string, uint64, error) {
	evs := make([]store.NewEvent, len(recs))
	for i, r := range recs {
		evs[i] = store.NewEvent{Type: r.Type, Schema: r.Schema, Time: r.Time.UTC(), Actor: r.Actor, Payload: r.Payload}
	}
	head, err := d.Games.HeadAfter(ctx, next.ID, next.Version-uint64(len(recs)), evs)
	if err != nil {
		return "", 0, err
	}
	return head.String(), next.Version, nil
}

// viewText is the text map: the state as a side may see it.
func viewText(v adjudicator.View) string {
	var b bytes.Buffer
	script.WriteView(&b, v)
	if len(v.Markers) > 0 {
		keys := make([]string, 0, len(v.Markers))
		for k := range v.Markers {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			val, _ := json.Marshal(v.Markers[k])
			fmt.Fprintf(&b, "%s: %s\n", k, val)
		}
	}
	return b.String()
}

func sourceWords(src string) string {
	switch src {
	case extract.SourceBody:
		return "the text of your mail"
	case extract.SourceFenced:
		return "the block between the --- lines of your mail"
	}
	if name, ok := strings.CutPrefix(src, extract.SourceAttachmentPrefix); ok {
		return "the attachment " + name
	}
	return src
}
