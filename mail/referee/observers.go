package referee

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/umpire-pbem/umpire/adjudicator"
	"github.com/umpire-pbem/umpire/adjudicator/game"
	"github.com/umpire-pbem/umpire/mail/address"
	"github.com/umpire-pbem/umpire/mail/compose"
	"github.com/umpire-pbem/umpire/store"
	"github.com/umpire-pbem/umpire/templates"
)

// Observers, by mail from the referee:
//
//	command: observe          command: unobserve
//	game: race-1              game: race-1
//	address: carol@example.org  address: carol@example.org
//	delay: 1                  # turns late; default 0
//
// An observer gets each adjudication as every side may read it (the
// public report and rolls, the board as adjudicator.Observer sees it,
// pictures included), at once or delay turns late; never a secret or
// anything due from them. Mail from an observer that does not play the
// game is a stranger's: no reply, nothing read.

// cmdObserve runs observe and unobserve.
func (h *handling) cmdObserve(ctx context.Context, c Command) error {
	d := h.d
	g, msg := h.gameForReferee(ctx, c)
	if g == nil {
		return h.refereeReply(ctx, "", c, false, msg, nil)
	}
	addr := strings.TrimSpace(c.Address)
	if addr == "" {
		return h.refereeReply(ctx, g.ID, c, false, "Say who: add a line \"address: NAME@DOMAIN\".", nil)
	}
	if err := address.Check(addr); err != nil {
		return h.refereeReply(ctx, g.ID, c, false, "address: "+err.Error(), nil)
	}
	delay := 0
	if c.Delay != nil {
		delay = *c.Delay
	}
	var what string
	var err error
	switch c.Command {
	case "observe":
		what = fmt.Sprintf("%s now observes the game: after each adjudication they get its results as every side may read them, nothing hidden", addr)
		if delay > 0 {
			what += fmt.Sprintf(", %s late", plural(delay, "turn"))
		}
		_, err = d.Games.Observe(ctx, g.ID, addr, delay, func(g *game.Game) ([]store.Message, error) {
			return d.observingMails(g, h.id, addr, delay, true, what)
		})
	case "unobserve":
		what = fmt.Sprintf("%s no longer observes the game", addr)
		_, err = d.Games.Unobserve(ctx, g.ID, addr, func(g *game.Game) ([]store.Message, error) {
			return d.observingMails(g, h.id, addr, 0, false, what)
		})
	}
	if err != nil {
		if isStoreFailure(err) {
			return err
		}
		return h.refereeReply(ctx, g.ID, c, false, fmt.Sprintf("Not done: %v", err), nil)
	}
	return h.refereeReply(ctx, g.ID, c, true, fmt.Sprintf("Done: %s. They and every player have been told.", what), nil)
}

// observingMails tell the observer (welcome or farewell) and every player
// and the referee (who observes) of a change.
func (d *Desk) observingMails(g *game.Game, key, addr string, delay int, added bool, what string) ([]store.Message, error) {
	msgs, err := d.noticeMails(g, "observe-"+key, what+".", "")
	if err != nil {
		return nil, err
	}
	sides := make([]string, 0, len(g.Created.Players))
	for _, s := range g.Sides() {
		sides = append(sides, string(s))
	}
	info := gameInfo(g)
	if info.Referee == "" {
		info.Referee = d.Referee
	}
	data := templates.ObservingData{Game: info, Address: addr, Added: added, Delay: delay, Sides: sides}
	m, err := d.toPlayer(g, addr, "observing", []string{key, strings.ToLower(addr)}, templates.Observing, data)
	if err != nil {
		return nil, err
	}
	return append(msgs, m), nil
}

// observerResults are the results mails of the observers without delay:
// the adjudications made since each began observing, as every side may
// read them, with the board as every side sees it now.
func (d *Desk) observerResults(g *game.Game, results []game.Result, head string, event uint64, kind, idExtra string, pics *pictures) ([]store.Message, error) {
	var msgs []store.Message
	for _, o := range g.Observers {
		if o.Delay > 0 {
			continue
		}
		var adjs []templates.Adjudication
		for _, r := range results {
			if r.K > o.After {
				adjs = append(adjs, observerAdjudication(r))
			}
		}
		if len(adjs) == 0 {
			continue
		}
		m, err := d.observerMail(g, g, o, adjs, head, event, kind, idExtra, pics.of(adjudicator.Observer))
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// delayedObserverResults are the results mails the observers with a
// delay are owed once recs, folded into next, are appended: each the
// adjudications that became old enough, with the board as it stood after
// the last of them (game.DelayedResults).
func (d *Desk) delayedObserverResults(ctx context.Context, next *game.Game, recs []game.Record) ([]store.Message, error) {
	owed, err := d.Games.DelayedResults(ctx, next, recs)
	if err != nil || len(owed) == 0 {
		return nil, err
	}
	var msgs []store.Message
	for _, o := range next.Observers {
		past := owed[o.Address]
		if len(past) == 0 {
			continue
		}
		adjs := make([]templates.Adjudication, len(past))
		for i, p := range past {
			adjs[i] = observerAdjudication(p.Result)
		}
		at := past[len(past)-1].Game
		m, err := d.observerMail(next, at, o, adjs, "", 0, "results-delayed", "", d.picture(at, at.View(adjudicator.Observer), adjudicator.Observer))
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// observerAdjudication is one adjudication as every side may read it.
func observerAdjudication(r game.Result) templates.Adjudication {
	a := templates.Adjudication{K: r.K, Seed: r.Seed, Chain: r.Chain, Index: r.Index, Report: adjudicator.Texts(r.ReportFor(adjudicator.Observer))}
	for _, roll := range r.PublicRolls() {
		a.Rolls = append(a.Rolls, roll.String())
	}
	return a
}

// observerMail is one results mail to observer o of game g, showing the
// game as it stood in at (g itself, or the game after the last of adjs).
func (d *Desk) observerMail(g, at *game.Game, o game.Observer, adjs []templates.Adjudication, head string, event uint64, kind, idExtra string, pic []compose.Attachment) (store.Message, error) {
	v := at.View(adjudicator.Observer)
	last := adjs[len(adjs)-1].K
	data := templates.ObserverResultsData{Game: gameInfo(g), Adjudications: adjs, Delay: o.Delay, Last: last, Turn: v.Turn,
		Map: viewText(v), Over: v.Over, Result: v.Result, Head: head, Event: event}
	if n := len(at.Chains); n > 0 {
		data.Commitment = at.Chains[n-1].Commitment
	}
	return d.toPlayer(g, o.Address, kind, []string{strconv.Itoa(last), "observer", strings.ToLower(o.Address), idExtra},
		templates.ObserverResults, data, pic...)
}
