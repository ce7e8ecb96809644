package game

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// Upgrading a schema-1 log. Before schema 2, orders.accepted kept the text
// as received, "secret:" line included, game.created kept an unsalted
// SHA-256 of each player's secret, and the report of an adjudication and
// the reason a queue was dropped were public. UpgradeV1 rewrites such a log
// as this build writes it; `umpire upgrade` stores the result in place of
// the old log, with a log.upgraded event at its end that records the old
// head hash.

// Upgrade is what UpgradeV1 makes of a log.
type Upgrade struct {
	Records []Record                    // the new log, from game.created
	Checks  map[adjudicator.Side]string // each side's old secret hash: "v0$HEX"
	Changed bool                        // false when the log was already schema 2
}

// UpgradeV1 rewrites a schema-1 log; rand gives the salts of what it seals
// (the texts of orders sent ahead that are still waiting).
func UpgradeV1(entries []Entry, lookup Source, rand io.Reader, at time.Time, oldHead string) (*Upgrade, error) {
	if len(entries) == 0 || entries[0].Type != TypeCreated {
		return nil, fmt.Errorf("the log does not start with %s", TypeCreated)
	}
	if entries[0].Schema == Schema(TypeCreated) {
		return &Upgrade{Changed: false}, nil
	}
	up := &Upgrade{Checks: map[adjudicator.Side]string{}, Changed: true}
	in := Input{Rand: rand, Time: at}
	queueOf := map[adjudicator.Side]uint64{} // side → event whose text has its "then:" list
	for _, e := range entries {
		rec := e.Record
		rec.Private = nil
		switch e.Type {
		case TypeCreated:
			var c struct {
				Created
				Players []struct {
					Side       adjudicator.Side `json:"side"`
					Address    string           `json:"address,omitempty"`
					SecretHash string           `json:"secret_hash,omitempty"`
				} `json:"players"`
			}
			if err := json.Unmarshal(e.Payload, &c); err != nil {
				return nil, &LogError{Seq: e.Seq, Msg: err.Error()}
			}
			nc := c.Created
			nc.Players = nil
			for _, p := range c.Players {
				nc.Players = append(nc.Players, Player{Side: p.Side, Address: p.Address})
				if p.SecretHash != "" {
					up.Checks[p.Side] = "v0$" + p.SecretHash
				}
			}
			b, err := json.Marshal(nc)
			if err != nil {
				return nil, err
			}
			rec.Payload, rec.Schema = b, 2
		case TypeOrders:
			var old struct {
				OrdersAccepted
				Raw        string   `json:"raw"`
				Queue      []Queued `json:"queue"`
				QueueIndex int      `json:"queue_index"`
			}
			if err := json.Unmarshal(e.Payload, &old); err != nil {
				return nil, &LogError{Seq: e.Seq, Msg: err.Error()}
			}
			root, env, err := readEnvelope([]byte(old.Raw))
			if err != nil {
				return nil, &LogError{Seq: e.Seq, Msg: "stored orders do not parse: " + err.Error()}
			}
			text, removed := RemoveSecret([]byte(old.Raw), root)
			oa := old.OrdersAccepted
			oa.Text, oa.SecretRemoved, oa.Digest = string(text), removed, Digest(text)
			var op *OrdersOpening
			switch {
			case old.Queued:
				i := old.QueueIndex
				if i < 0 || i >= len(env.Then) {
					return nil, &LogError{Seq: e.Seq, Msg: fmt.Sprintf("queued orders %d are not in the stored text", i)}
				}
				if oa.Orders, err = encodeOrders(&env.Then[i].Orders); err != nil {
					return nil, err
				}
				oa.Text, oa.SecretRemoved, oa.Digest = "", false, Digest([]byte(oa.Orders))
				oa.QueueOf, oa.QueueIndex = queueOf[oa.Side], i
				oa.Via = "queued"
				oa.QueueDone = i == len(env.Then)-1
			case len(old.Queue) > 0:
				if oa.Orders, err = encodeOrders(&env.Orders); err != nil {
					return nil, err
				}
				op = &OrdersOpening{Text: oa.Text, Digest: oa.Digest, Queue: old.Queue}
				queueOf[oa.Side] = e.Seq
			}
			if rec, err = acceptedRecord(in, oa, op, false); err != nil {
				return nil, err
			}
			rec.Time, rec.Actor = e.Time, e.Actor
		case TypeAdjudicated:
			var old struct {
				Adjudicated
				Report []string `json:"report"`
			}
			if err := json.Unmarshal(e.Payload, &old); err != nil {
				return nil, &LogError{Seq: e.Seq, Msg: err.Error()}
			}
			a := old.Adjudicated
			a.Report = adjudicator.Lines(old.Report...)
			if a.Rolls == nil {
				a.Rolls = []*adjudicator.Roll{} // as adjudications now record no roll
			}
			b, err := json.Marshal(a)
			if err != nil {
				return nil, err
			}
			rec.Payload, rec.Schema = b, 2
		case TypeQueueDropped:
			var old struct {
				Side   adjudicator.Side `json:"side"`
				Turn   int              `json:"turn"`
				Phase  string           `json:"phase"`
				Reason string           `json:"reason"`
			}
			if err := json.Unmarshal(e.Payload, &old); err != nil {
				return nil, &LogError{Seq: e.Seq, Msg: err.Error()}
			}
			op := QueueDroppedOpening{Reason: old.Reason}
			var err error
			if op.Salt, err = salt(in); err != nil {
				return nil, err
			}
			private, c, err := seal(op)
			if err != nil {
				return nil, err
			}
			b, _ := json.Marshal(QueueDropped{Side: old.Side, Turn: old.Turn, Phase: old.Phase, Sealed: c})
			rec = Record{Type: TypeQueueDropped, Schema: 2, Time: e.Time, Actor: e.Actor, Payload: b, Private: private}
		}
		up.Records = append(up.Records, rec)
	}
	// What the old log showed every side stays readable: reveal every
	// sealed part but the texts of orders sent ahead that still wait.
	g, err := Load(Numbered(up.Records), lookup)
	if err != nil {
		return nil, fmt.Errorf("the upgraded log does not fold: %w", err)
	}
	out := &Outcome{Records: up.Records}
	in.Unseal = Vault{}.Unseal
	for _, ref := range append([]SealedRef(nil), g.Unrevealed...) {
		waiting := false
		for _, q := range g.Queues {
			waiting = waiting || (q.Seq == ref.Seq && !g.Over())
		}
		if waiting {
			continue
		}
		if err := g.reveal(in, out, ref); err != nil {
			return nil, err
		}
	}
	up.Records = out.Records
	rec, err := record(TypeUpgraded, at, ActorReferee, Upgraded{FromSchema: 1, OldEvents: len(entries), OldHead: oldHead,
		Changes: "players' secrets removed from orders texts and game.created (kept as check values outside the log); reports as lines with audiences; reasons of dropped orders sent ahead sealed; texts of orders sent ahead still waiting sealed"})
	if err != nil {
		return nil, err
	}
	up.Records = append(up.Records, rec)
	if _, err := Load(Numbered(up.Records), lookup); err != nil {
		return nil, fmt.Errorf("the upgraded log does not fold: %w", err)
	}
	return up, nil
}

// Numbered makes a log of records, numbered from 1: a log built in memory
// (an upgrade, a branch) folded before it is stored.
func Numbered(recs []Record) []Entry {
	out := make([]Entry, len(recs))
	for i, r := range recs {
		out[i] = Entry{Seq: uint64(i + 1), Record: r}
	}
	return out
}
