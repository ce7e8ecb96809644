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
	"github.com/umpire-pbem/umpire/adjudicator/render"
	"github.com/umpire-pbem/umpire/adjudicator/rulesets"
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
	headingFor(kind, m, data).apply(&mail) // subject.go
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

// picture draws the board as side sees it, for games played on a hex map.
// A picture that cannot be drawn is left out (and logged): the results go
// out anyway, with their text map.
func (d *Desk) picture(g *game.Game, v adjudicator.View, side adjudicator.Side) []compose.Attachment {
	if v.Map == "" {
		return nil
	}
	m, err := rulesets.Board(v.Map)
	if err == nil {
		var pic *render.Picture
		pic, err = render.Game(m, g, side, 1)
		if err == nil {
			var png []byte
			if png, err = pic.PNG(); err == nil {
				name := fmt.Sprintf("%s-turn%d-%s.png", g.ID, v.Turn, side)
				return []compose.Attachment{{Name: name, ContentType: "image/png", Data: png}}
			}
		}
	}
	d.log().Warn("no picture for the results mail", "game", g.ID, "side", side, "err", err)
	return nil
}

// acceptedMails are the mails an accepted submission causes: the
// acknowledgement to the sender and, after an adjudication, the results to
// every player, each with their own side's view.
func (d *Desk) acceptedMails(ctx context.Context, h *handling, before, next *game.Game, out *game.Outcome) ([]store.Message, error) {
	acc := out.Accepted
	side := acc.Side
	title := acc.Request
	for _, r := range before.Due() {
		if r.ID == acc.Request {
			title = r.Title
		}
	}
	ack := templates.AckData{Game: gameInfo(next), Side: string(side), Title: title, Turn: acc.Turn, Phase: acc.Phase,
		Normalized: acc.Normalized, Digest: acc.Digest, Source: sourceWords(h.m.Source), Notes: h.m.Notes,
		Replaced: acc.Replaces, Adjudicated: len(out.Results) > 0, Waiting: d.dueFor(next, side)}
	for _, q := range out.Queued {
		ack.Ahead = append(ack.Ahead, fmt.Sprintf("turn %d, %s", q.Turn, q.Phase))
	}
	msg, err := d.reply(h.m, next.ID, "ack", templates.Ack, ack)
	if err != nil {
		return nil, err
	}
	msgs := []store.Message{msg}
	if len(out.Results) == 0 {
		return msgs, nil
	}
	head, event, err := d.headAfter(ctx, next, out.Records)
	if err != nil {
		return nil, err
	}
	results, err := d.resultsMails(next, out.Results, head, event, "results", "", out.Notes...)
	if err != nil {
		return nil, err
	}
	// Observers with a delay get what has become old enough (observers.go).
	late, err := d.delayedObserverResults(ctx, next, out.Records)
	if err != nil {
		return nil, err
	}
	return append(append(msgs, results...), late...), nil
}

// resultsMails builds one results mail per player. idExtra distinguishes a
// resend from the first sending.
//
// Each player reads only what their side may: the report lines, rolls and
// notes whose audience includes it.
func (d *Desk) resultsMails(g *game.Game, results []game.Result, head string, event uint64, kind, idExtra string, notes ...adjudicator.Line) ([]store.Message, error) {
	last := 0
	for _, r := range results {
		last = r.K
	}
	adjsFor := func(side adjudicator.Side) []templates.Adjudication {
		var adjs []templates.Adjudication
		for _, r := range results {
			adjs = append(adjs, adjudicationFor(r, side))
		}
		return adjs
	}
	commitment := ""
	if n := len(g.Chains); n > 0 {
		commitment = g.Chains[n-1].Commitment
	}
	var msgs []store.Message
	for _, p := range g.Created.Players {
		if p.Address == "" {
			continue
		}
		v := g.View(p.Side)
		data := templates.ResultsData{Game: gameInfo(g), Side: string(p.Side), Adjudications: adjsFor(p.Side), Head: head, Event: event,
			Commitment: commitment, Map: viewText(v), Over: v.Over, Result: v.Result, Due: d.dueFor(g, p.Side),
			Notes: adjudicator.Texts(adjudicator.For(notes, p.Side))}
		for _, r := range g.Due() {
			if r.Side == p.Side && r.Kind == "decision" {
				text, err := d.Templates.Render(templates.Decision, templates.DecisionData{Game: data.Game, Side: string(p.Side), Due: d.dueOne(g, r, d.now(), true)})
				if err != nil {
					return nil, err
				}
				data.Decision = text
			}
		}
		msg, err := d.toPlayer(g, p.Address, kind, []string{strconv.Itoa(last), string(p.Side), idExtra}, templates.Results, data, d.picture(g, v, p.Side)...)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, msg)
	}
	// The referee's copy: every side's lines, rolls and board.
	if ref := d.gameReferee(g); ref != "" && g.ClockSettings().Copies == "each" {
		msg, err := d.refereeResults(g, adjsFor(adjudicator.Referee), head, event, kind, []string{strconv.Itoa(last), "referee", idExtra})
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, msg)
	}
	// Observers without delay read what every side may (observers.go).
	obs, err := d.observerResults(g, results, head, event, kind, idExtra)
	if err != nil {
		return nil, err
	}
	return append(msgs, obs...), nil
}

// refereeResults is the referee's copy of adjudications: every line and
// roll, the whole board, what every side owes.
func (d *Desk) refereeResults(g *game.Game, adjs []templates.Adjudication, head string, event uint64, kind string, idParts []string) (store.Message, error) {
	v := g.View(adjudicator.Referee)
	commitment := ""
	if n := len(g.Chains); n > 0 {
		commitment = g.Chains[n-1].Commitment
	}
	data := templates.ResultsData{Game: gameInfo(g), Side: "referee", ForReferee: true, Adjudications: adjs, Head: head, Event: event,
		Commitment: commitment, Map: viewText(v), Over: v.Over, Result: v.Result, Due: d.dueFor(g, "")}
	return d.toPlayer(g, d.gameReferee(g), kind, idParts, templates.Results, data, d.picture(g, v, adjudicator.Referee)...)
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
	base := next.Version - uint64(len(recs))
	var prev store.Hash
	if base > 0 {
		evs, err := d.Games.Store.Events(ctx, next.ID, base)
		if err != nil {
			return "", 0, err
		}
		if len(evs) == 0 || evs[0].Seq != base {
			return "", 0, fmt.Errorf("game %s: event %d is not in the store", next.ID, base)
		}
		prev = evs[0].Hash
	}
	for i, r := range recs {
		prev = store.ChainHash(prev, base+1+uint64(i), store.NewEvent{Type: r.Type, Schema: r.Schema, Time: r.Time.UTC(), Actor: r.Actor, Payload: r.Payload})
	}
	return prev.String(), next.Version, nil
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
