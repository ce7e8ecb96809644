package game

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/umpire-pbem/umpire/adjudicator"
)

// The clock. A game may give the requests it waits for a deadline, by kind
// of request ("deadline.orders=72h"). The engine does not read a clock: the
// deadlines, reminders and lateness are events appended by whoever holds
// the clock (store/games, for the daemon and the command line), with the
// time of the submission or of the tick that caused them. The game folds
// them into Deadlines.

// Clock event types (schema 1).
const (
	TypeDeadlineSet      = "deadline.set"      // DeadlineSet
	TypeDeadlineReminded = "deadline.reminded" // DeadlineReminded
	TypeDeadlinePassed   = "deadline.passed"   // DeadlinePassed
	TypeDeadlineExtended = "deadline.extended" // DeadlineExtended
	TypePaused           = "game.paused"       // Paused
	TypeResumed          = "game.resumed"      // Resumed
	TypeEnded            = "game.ended"        // Ended
	TypeReplaced         = "player.replaced"   // Replaced
	TypeDigest           = "referee.digest"    // DigestSent
)

// DigestSent is the payload of referee.digest: the referee was sent a digest
// of adjudications From to To (referee.copies=digest, once a day).
type DigestSent struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// Replaced is the payload of player.replaced: from this event on, side is
// played from Address ("" when the referee ejected the player and nobody
// plays it yet); the old player's secret no longer counts (the data file
// keeps the new player's check value only).
type Replaced struct {
	Side    adjudicator.Side `json:"side"`
	Address string           `json:"address"`
	Reason  string           `json:"reason,omitempty"`
	// Seat is the seat of the player replaced when several play the
	// side (team.go); "" is its captain, the only player of most sides.
	Seat adjudicator.Side `json:"seat,omitempty"`
}

// EndRecord ends the game with result (the referee's word), folded into g.
func (g *Game) EndRecord(now time.Time, result string, loser adjudicator.Side) (Record, error) {
	if g.Over() {
		return Record{}, fmt.Errorf("game %s is over already", g.ID)
	}
	return g.fold(now, ActorReferee, TypeEnded, Ended{Result: result, Loser: loser})
}

// ReplaceRecord gives side to another player (address "": to nobody),
// folded into g.
func (g *Game) ReplaceRecord(now time.Time, side adjudicator.Side, address, reason string) (Record, error) {
	return g.ReplaceMemberRecord(now, side, "", address, reason)
}

// ReplaceMemberRecord gives the place of the player of side at address
// old ("" for the side's captain) to another player, folded into g: the
// other players of the side stay.
func (g *Game) ReplaceMemberRecord(now time.Time, side adjudicator.Side, old, address, reason string) (Record, error) {
	team := g.Team(side)
	if len(team) == 0 {
		return Record{}, fmt.Errorf("game %s has no side %q", g.ID, side)
	}
	r := Replaced{Side: side, Address: address, Reason: reason}
	if old != "" {
		p, captain, ok := g.Member(side, old)
		if !ok {
			return Record{}, fmt.Errorf("%s does not play %s in game %s; its players are %s", old, side, g.ID, addresses(team))
		}
		if !captain {
			r.Seat = p.seat()
		}
	}
	if address != "" {
		if p, _, ok := g.Member(side, address); ok && (r.Seat == "" && p.seat() != team[0].seat() || r.Seat != "" && p.seat() != r.Seat) {
			return Record{}, fmt.Errorf("%s already plays %s in game %s", address, side, g.ID)
		}
	}
	return g.fold(now, ActorReferee, TypeReplaced, r)
}

func addresses(team []Player) string {
	out := make([]string, len(team))
	for i, p := range team {
		out[i] = p.Address
	}
	return strings.Join(out, ", ")
}

// Ended is the payload of game.ended: the game ended outside its rules (a
// side forfeited by missing deadlines, or the referee ended it).
type Ended struct {
	Result string           `json:"result"`
	Loser  adjudicator.Side `json:"loser,omitempty"`
}

// NoteDefault is the ClockNote kind that asks for a request's default
// answer to be applied (no-move=default): the caller submits it.
const NoteDefault = "no-move.default"

// DeadlineExtended is the payload of deadline.extended: request Request
// is now due at Due, for Reason (the referee's, or the daemon's own when it
// was down past the deadline).
type DeadlineExtended struct {
	Request string           `json:"request"`
	Side    adjudicator.Side `json:"side"`
	Due     time.Time        `json:"due"`
	Reason  string           `json:"reason"`
	Grace   bool             `json:"grace,omitempty"` // the side's one grace of no-move.grace
}

// Paused is the payload of game.paused: the referee stopped the clock.
type Paused struct {
	Reason string `json:"reason"`
}

// Resumed is the payload of game.resumed: the clock runs again; every
// deadline was moved by the time the game stood paused (deadline.extended
// events follow it).
type Resumed struct {
	Reason string `json:"reason,omitempty"`
}

// DeadlineSet is the payload of deadline.set: request Request must be
// answered by Due.
type DeadlineSet struct {
	Request string           `json:"request"`
	Side    adjudicator.Side `json:"side"`
	Kind    string           `json:"kind"`
	Due     time.Time        `json:"due"`
}

// DeadlineReminded is the payload of deadline.reminded: the side was
// reminded Before (a duration, "24h0m0s") the deadline.
type DeadlineReminded struct {
	Request string           `json:"request"`
	Side    adjudicator.Side `json:"side"`
	Before  string           `json:"before"`
}

// DeadlinePassed is the payload of deadline.passed: the deadline passed
// with no answer.
type DeadlinePassed struct {
	Request string           `json:"request"`
	Side    adjudicator.Side `json:"side"`
	Due     time.Time        `json:"due"`
}

// Deadline is a request's deadline as folded from the log.
type Deadline struct {
	Due      time.Time
	Reminded []string // the reminders sent, as durations before Due
	Passed   bool
	Extended int // how many times it was moved
}

// applyClock folds a clock event into g.
func (g *Game) applyClock(e Entry) error {
	set := func(id string, f func(*Deadline)) {
		m := make(map[string]Deadline, len(g.Deadlines)+1)
		for k, v := range g.Deadlines {
			m[k] = v
		}
		d := m[id]
		d.Reminded = slices.Clone(d.Reminded)
		f(&d)
		m[id] = d
		g.Deadlines = m
	}
	switch e.Type {
	case TypeDeadlineSet:
		var p DeadlineSet
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return &LogError{Seq: e.Seq, Msg: "bad deadline.set: " + err.Error()}
		}
		set(p.Request, func(d *Deadline) { *d = Deadline{Due: p.Due.UTC()} })
	case TypeDeadlineReminded:
		var p DeadlineReminded
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return &LogError{Seq: e.Seq, Msg: "bad deadline.reminded: " + err.Error()}
		}
		set(p.Request, func(d *Deadline) { d.Reminded = append(d.Reminded, p.Before) })
	case TypeDeadlinePassed:
		var p DeadlinePassed
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return &LogError{Seq: e.Seq, Msg: "bad deadline.passed: " + err.Error()}
		}
		set(p.Request, func(d *Deadline) { d.Passed = true })
		m := make(map[adjudicator.Side]int, len(g.Misses)+1)
		for k, v := range g.Misses {
			m[k] = v
		}
		m[p.Side]++
		g.Misses = m
	case TypeDeadlineExtended:
		var p DeadlineExtended
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return &LogError{Seq: e.Seq, Msg: "bad deadline.extended: " + err.Error()}
		}
		// A new deadline: reminders and lateness count again from it.
		set(p.Request, func(d *Deadline) { *d = Deadline{Due: p.Due.UTC(), Extended: d.Extended + 1} })
		if p.Grace {
			g.Graced = appendSide(g.Graced, p.Side)
		}
	case TypePaused:
		var p Paused
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return &LogError{Seq: e.Seq, Msg: "bad game.paused: " + err.Error()}
		}
		g.PausedAt, g.PauseReason = e.Time.UTC(), p.Reason
	case TypeResumed:
		g.PausedAt, g.PauseReason = time.Time{}, ""
	case TypeEnded:
		var p Ended
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return &LogError{Seq: e.Seq, Msg: "bad game.ended: " + err.Error()}
		}
		g.Ended = &p
	case TypeDigest:
		var p DigestSent
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return &LogError{Seq: e.Seq, Msg: "bad referee.digest: " + err.Error()}
		}
		g.DigestK, g.DigestAt = p.To, e.Time.UTC()
	case TypeReplaced:
		var p Replaced
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return &LogError{Seq: e.Seq, Msg: "bad player.replaced: " + err.Error()}
		}
		players := slices.Clone(g.Created.Players)
		for i := range players {
			if players[i].Side == p.Side && (p.Seat == "" || players[i].seat() == p.Seat) {
				players[i].Address = p.Address
				if p.Seat == "" {
					break // the captain: the side's first player
				}
			}
		}
		g.Created.Players = players
	}
	return nil
}

func appendSide(s []adjudicator.Side, x adjudicator.Side) []adjudicator.Side {
	return append(slices.Clone(s), x)
}

// Paused reports whether the referee stopped the game's clock.
func (g *Game) Paused() bool { return !g.PausedAt.IsZero() }

// ExtendRecords moves the deadline of each request of reqs (all that are
// due and unanswered, when empty) to due(old deadline), for reason: the
// records, folded into g. Requests without a deadline are left alone.
func (g *Game) ExtendRecords(now time.Time, actor, reason string, reqs []string, due func(old time.Time) time.Time) ([]Record, error) {
	var recs []Record
	for _, r := range g.Due() {
		if _, answered := g.Answered(r.ID); answered || (len(reqs) > 0 && !slices.Contains(reqs, r.ID)) {
			continue
		}
		d, ok := g.Deadlines[r.ID]
		if !ok {
			continue
		}
		rec, err := g.fold(now, actor, TypeDeadlineExtended, DeadlineExtended{Request: r.ID, Side: r.Side, Due: due(d.Due).UTC(), Reason: reason})
		if err != nil {
			return nil, err
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

// PauseRecord stops the clock; ResumeRecords starts it again and moves
// every deadline by the time the game stood paused.
func (g *Game) PauseRecord(now time.Time, reason string) (Record, error) {
	if g.Paused() {
		return Record{}, fmt.Errorf("game %s is paused already (since %s)", g.ID, g.PausedAt.Format(time.RFC3339))
	}
	return g.fold(now, ActorReferee, TypePaused, Paused{Reason: reason})
}

// ResumeRecords: see PauseRecord.
func (g *Game) ResumeRecords(now time.Time, reason string) ([]Record, error) {
	if !g.Paused() {
		return nil, fmt.Errorf("game %s is not paused", g.ID)
	}
	stood := now.Sub(g.PausedAt)
	rec, err := g.fold(now, ActorReferee, TypeResumed, Resumed{Reason: reason})
	if err != nil {
		return nil, err
	}
	more, err := g.ExtendRecords(now, ActorReferee, fmt.Sprintf("the game stood paused for %s", stood.Round(time.Minute)), nil,
		func(old time.Time) time.Time { return old.Add(stood) })
	return append([]Record{rec}, more...), err
}

// ClockSettings are a game's deadline options, kept in game.created.
type ClockSettings struct {
	Deadlines map[string]time.Duration // by kind of request: setup, orders, decision
	At        string                   // "HH:MM": deadlines move to the next such time of day in Zone
	Weekdays  bool                     // deadlines on a Saturday or Sunday move to Monday
	Zone      string                   // IANA time zone; "" for UTC
	Reminders []time.Duration          // before each deadline, longest first
	Default   bool                     // no-move=default: apply the ruleset's default answer
	Grace     time.Duration            // no-move.grace: once per side per game
	Forfeit   int                      // no-move.forfeit: misses that lose the game (0: never)
	AwayMax   time.Duration            // deadline.away-max: the longest absence (0: none allowed)
	Copies    string                   // referee.copies: each, digest or none
}

// Policy says in words what happens when a deadline passes, for mails.
func (cs ClockSettings) Policy() string {
	var parts []string
	if cs.Grace > 0 {
		parts = append(parts, fmt.Sprintf("the first time a side is late, it gets %s more", cs.Grace))
	}
	if cs.Default {
		parts = append(parts, "then the rules' default answer is applied for it (hold, pass, or the first choice)")
	} else {
		parts = append(parts, "then the game waits and the referee decides")
	}
	if cs.Forfeit > 0 {
		parts = append(parts, fmt.Sprintf("a side that misses %d deadlines forfeits the game", cs.Forfeit))
	}
	return strings.Join(parts, "; ")
}

// DefaultReminders are sent before a deadline when a game names none.
var DefaultReminders = []time.Duration{24 * time.Hour, 2 * time.Hour}

// ClockOptions are the option names the clock takes; a ruleset never sees
// them.
var ClockOptions = []adjudicator.OptionInfo{
	{Name: "deadline.setup", Doc: "time to answer a setup request, e.g. 168h; none by default"},
	{Name: "deadline.orders", Doc: "time to send orders, e.g. 72h; none by default"},
	{Name: "deadline.decision", Doc: "time to answer a decision, e.g. 24h; none by default"},
	{Name: "deadline.at", Doc: "HH:MM: deadlines move to the next such time of day, in deadline.zone"},
	{Name: "deadline.weekdays", Default: "no", Values: []string{"no", "yes"}, Doc: "deadlines that fall on a weekend move to Monday"},
	{Name: "deadline.zone", Default: "UTC", Doc: "the game's time zone (IANA name, e.g. Europe/Paris)"},
	{Name: "deadline.reminders", Default: "24h,2h", Doc: "reminders before each deadline, to those who have not answered; \"none\" for none"},
	{Name: "deadline.away-max", Default: "336h", Doc: "the longest absence a player may announce (\"command: away\"); 0: none"},
	{Name: "referee.copies", Default: "each", Values: []string{"each", "digest", "none"}, Doc: "the referee gets a copy of each adjudication's results (every side's lines), a daily digest of them, or none; late players, absences and pauses are told to the referee in any case"},
	{Name: "no-move", Default: "wait", Values: []string{"wait", "default"}, Doc: "when a deadline passes with no answer: wait for the referee, or apply the ruleset's default answer (hold, pass, the first choice)"},
	{Name: "no-move.grace", Default: "0", Doc: "each side may be late once per game by this long (e.g. 24h) before the no-move policy applies"},
	{Name: TeamOption, Default: TeamCaptain, Values: []string{TeamCaptain, TeamAny, TeamSplit}, Doc: "when several players play a side (docs/teams.md): its captain (the first listed) answers for it, any of them does, or each answers for his parts of the side (split, for a ruleset that has parts)"},
	{Name: "no-move.forfeit", Default: "0", Doc: "a side that misses this many deadlines forfeits the game (0: never)"},
}

// IsClockOption reports whether an option belongs to the clock.
func IsClockOption(name string) bool {
	return strings.HasPrefix(name, "deadline.") || name == "no-move" || strings.HasPrefix(name, "no-move.") || name == "referee.copies"
}

// IsGameOption reports whether an option belongs to the game rather than
// its ruleset: the clock's, and press (press.go).
func IsGameOption(name string) bool {
	return IsClockOption(name) || name == PressOption || name == TeamOption
}

// SplitOptions separates the game's options (the clock's, press) from the
// ruleset's. ParseClock checks them all.
func SplitOptions(opts map[string]string) (rules, clock map[string]string) {
	for k, v := range opts {
		if IsGameOption(k) {
			if clock == nil {
				clock = map[string]string{}
			}
			clock[k] = v
			continue
		}
		if rules == nil {
			rules = map[string]string{}
		}
		rules[k] = v
	}
	return rules, clock
}

// ParseClock reads the clock options (the zone's name is checked by the
// caller, which can load zones).
func ParseClock(opts map[string]string) (ClockSettings, error) {
	cs := ClockSettings{Deadlines: map[string]time.Duration{}, Reminders: DefaultReminders, AwayMax: DefaultAwayMax, Copies: "each"}
	var err error
	for _, k := range sortedOptionKeys(opts) {
		v := strings.TrimSpace(opts[k])
		switch k {
		case "deadline.setup", "deadline.orders", "deadline.decision":
			d, err := time.ParseDuration(v)
			if err != nil || d < time.Hour || d > 90*24*time.Hour {
				return cs, fmt.Errorf("option %s=%q: give a duration from 1h to 2160h, e.g. 72h", k, v)
			}
			cs.Deadlines[strings.TrimPrefix(k, "deadline.")] = d
		case "deadline.at":
			if _, err := time.Parse("15:04", v); err != nil {
				return cs, fmt.Errorf("option %s=%q: give a time of day as HH:MM, e.g. 18:00", k, v)
			}
			cs.At = v
		case "deadline.weekdays":
			if v != "yes" && v != "no" {
				return cs, fmt.Errorf("option %s=%q: give yes or no", k, v)
			}
			cs.Weekdays = v == "yes"
		case "deadline.zone":
			cs.Zone = v
		case "deadline.reminders":
			cs.Reminders = nil
			if v == "none" {
				continue
			}
			for _, part := range strings.Split(v, ",") {
				d, err := time.ParseDuration(strings.TrimSpace(part))
				if err != nil || d <= 0 {
					return cs, fmt.Errorf("option %s=%q: give durations before the deadline, e.g. 24h,2h, or none", k, v)
				}
				cs.Reminders = append(cs.Reminders, d)
			}
			sort.Slice(cs.Reminders, func(i, j int) bool { return cs.Reminders[i] > cs.Reminders[j] })
		case "referee.copies":
			if v != "each" && v != "digest" && v != "none" {
				return cs, fmt.Errorf("option %s=%q: give each, digest or none", k, v)
			}
			cs.Copies = v
		case "deadline.away-max":
			if cs.AwayMax, err = optDuration(k, v, 90*24*time.Hour, "e.g. 336h, or 0 for no absences"); err != nil {
				return cs, err
			}
		case "no-move":
			if v != "wait" && v != "default" {
				return cs, fmt.Errorf("option %s=%q: give wait or default", k, v)
			}
			cs.Default = v == "default"
		case "no-move.grace":
			if cs.Grace, err = optDuration(k, v, 30*24*time.Hour, "e.g. 24h, or 0"); err != nil {
				return cs, err
			}
		case "no-move.forfeit":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 100 {
				return cs, fmt.Errorf("option %s=%q: give a number of missed deadlines, or 0 for never", k, v)
			}
			cs.Forfeit = n
		case PressOption:
			if _, err := ParsePress(v); err != nil {
				return cs, err
			}
		case TeamOption:
			if err := checkTeamOption(v); err != nil {
				return cs, err
			}
		default:
			return cs, fmt.Errorf("unknown option %q (the clock knows deadline.setup, deadline.orders, deadline.decision, deadline.at, deadline.weekdays, deadline.zone, deadline.reminders, deadline.away-max, referee.copies, no-move, no-move.grace, no-move.forfeit)", k)
		}
	}
	return cs, nil
}

// optDuration reads a duration option from 0 to max ("0" is allowed
// without a unit).
func optDuration(k, v string, max time.Duration, hint string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if v == "0" {
		d, err = 0, nil
	}
	if err != nil || d < 0 || d > max {
		return 0, fmt.Errorf("option %s=%q: give a duration up to %s, %s", k, v, max, hint)
	}
	return d, nil
}

func sortedOptionKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// DeadlineFrom computes the deadline of a request of kind that came due at
// from, in loc (the game's zone): from plus the kind's time, then moved to
// the next deadline.at, then past a weekend. ok is false when the game
// sets no deadline for that kind.
func (cs ClockSettings) DeadlineFrom(kind string, from time.Time, loc *time.Location) (time.Time, bool) {
	d, ok := cs.Deadlines[kind]
	if !ok {
		return time.Time{}, false
	}
	t := from.Add(d).In(loc)
	if cs.At != "" {
		at, _ := time.Parse("15:04", cs.At)
		day := time.Date(t.Year(), t.Month(), t.Day(), at.Hour(), at.Minute(), 0, 0, loc)
		if day.Before(t) {
			day = time.Date(t.Year(), t.Month(), t.Day()+1, at.Hour(), at.Minute(), 0, 0, loc)
		}
		t = day
	}
	if cs.Weekdays {
		for t.Weekday() == time.Saturday || t.Weekday() == time.Sunday {
			t = time.Date(t.Year(), t.Month(), t.Day()+1, t.Hour(), t.Minute(), t.Second(), 0, loc)
		}
	}
	return t.UTC(), true
}

// ClockRecords are the clock's events due at now: a deadline for each
// request that came due without one, a reminder for each side that has not
// answered and is within a reminder's distance of its deadline, and the
// passing of each deadline not met. Each record comes with what it means,
// for the mails.
func (g *Game) ClockRecords(cs ClockSettings, loc *time.Location, t Tick) ([]Record, []ClockNote, error) {
	now := t.Now
	if g.Paused() {
		return nil, nil, nil
	}
	var recs []Record
	var notes []ClockNote
	add := func(typ string, payload any, note ClockNote) error {
		rec, err := g.fold(now, ActorEngine, typ, payload)
		if err != nil {
			return err
		}
		recs = append(recs, rec)
		notes = append(notes, note)
		return nil
	}
	// The referee's daily digest of the adjudications since the last.
	since := g.DigestAt
	if since.IsZero() {
		since = g.Created0
	}
	if cs.Copies == "digest" && g.K > g.DigestK && now.Sub(since) >= 24*time.Hour {
		if err := add(TypeDigest, DigestSent{From: g.DigestK + 1, To: g.K}, ClockNote{Kind: TypeDigest}); err != nil {
			return nil, nil, err
		}
	}
	for _, r := range g.Due() {
		if _, answered := g.Answered(r.ID); answered {
			continue
		}
		if r.Side == adjudicator.SeriesSide {
			continue // umpire answers it: a child's result, a series' start
		}
		d, has := g.Deadlines[r.ID]
		if !has {
			due, ok := cs.DeadlineFrom(r.Kind, now, loc)
			if !ok {
				continue
			}
			if e := g.earliest(r.Side, now); due.Before(e) {
				due = e // the side is away
			}
			if err := add(TypeDeadlineSet, DeadlineSet{Request: r.ID, Side: r.Side, Kind: r.Kind, Due: due}, ClockNote{Kind: TypeDeadlineSet, Request: r, Due: due}); err != nil {
				return nil, nil, err
			}
			continue
		}
		if d.Passed {
			continue
		}
		if !now.Before(d.Due) && t.stood() && d.Due.After(t.Last) {
			// The deadline fell while the clock stood still.
			due := now.Add(t.Margin)
			why := fmt.Sprintf("umpire's clock did not run from %s to %s, when this deadline fell", t.Last.UTC().Format("2006-01-02 15:04 MST"), now.UTC().Format("2006-01-02 15:04 MST"))
			if err := add(TypeDeadlineExtended, DeadlineExtended{Request: r.ID, Side: r.Side, Due: due, Reason: why}, ClockNote{Kind: TypeDeadlineExtended, Request: r, Due: due, Reason: why}); err != nil {
				return nil, nil, err
			}
			continue
		}
		if !now.Before(d.Due) {
			if cs.Grace > 0 && !slices.Contains(g.Graced, r.Side) {
				due := d.Due.Add(cs.Grace)
				why := fmt.Sprintf("%s missed the deadline: its one grace of %s per game", r.Side, cs.Grace)
				if err := add(TypeDeadlineExtended, DeadlineExtended{Request: r.ID, Side: r.Side, Due: due, Reason: why, Grace: true}, ClockNote{Kind: TypeDeadlineExtended, Request: r, Due: due, Reason: why}); err != nil {
					return nil, nil, err
				}
				continue
			}
			if err := add(TypeDeadlinePassed, DeadlinePassed{Request: r.ID, Side: r.Side, Due: d.Due}, ClockNote{Kind: TypeDeadlinePassed, Request: r, Due: d.Due}); err != nil {
				return nil, nil, err
			}
			if cs.Forfeit > 0 && g.Misses[r.Side] >= cs.Forfeit {
				res := fmt.Sprintf("%s forfeits the game: %d deadlines missed", r.Side, g.Misses[r.Side])
				if err := add(TypeEnded, Ended{Result: res, Loser: r.Side}, ClockNote{Kind: TypeEnded, Request: r, Due: d.Due, Reason: res}); err != nil {
					return nil, nil, err
				}
				return recs, notes, nil
			}
			if cs.Default {
				notes = append(notes, ClockNote{Kind: NoteDefault, Request: r, Due: d.Due})
			}
			continue
		}
		if _, away := g.Away(r.Side, now); away {
			continue // no reminder while the side is away
		}
		// The nearest reminder whose time has come; earlier ones missed
		// while it was not yet time are not sent late.
		for i := len(cs.Reminders) - 1; i >= 0; i-- {
			before := cs.Reminders[i]
			if now.Before(d.Due.Add(-before)) {
				continue
			}
			if slices.Contains(d.Reminded, before.String()) {
				break
			}
			if err := add(TypeDeadlineReminded, DeadlineReminded{Request: r.ID, Side: r.Side, Before: before.String()}, ClockNote{Kind: TypeDeadlineReminded, Request: r, Due: d.Due}); err != nil {
				return nil, nil, err
			}
			break
		}
	}
	return recs, notes, nil
}

// Tick is one run of a game's clock: now, and when the clock ran before
// (zero if unknown). When more than Stall passed between the two (umpire
// was down, or the machine's clock jumped), a deadline that fell meanwhile
// is not enforced blindly: it moves to Now+Margin and the note says so.
type Tick struct {
	Now, Last     time.Time
	Stall, Margin time.Duration
}

func (t Tick) stood() bool { return !t.Last.IsZero() && t.Stall > 0 && t.Now.Sub(t.Last) > t.Stall }

// ClockNote says what one clock record means, for the mails it causes.
type ClockNote struct {
	Kind    string // the event type
	Request adjudicator.Request
	Due     time.Time
	Reason  string // for deadline.extended
}

// DefaultAnswer is the text of the rules' default answer to request r,
// as a side would send it, when the ruleset has one (adjudicator.Defaulter).
func (g *Game) DefaultAnswer(r adjudicator.Request) ([]byte, bool) {
	d, ok := g.Rules.(adjudicator.Defaulter)
	if !ok {
		return nil, false
	}
	orders, ok := d.DefaultOrders(g.State, r)
	if !ok {
		return nil, false
	}
	return []byte(fmt.Sprintf("# the rules' default answer: %s missed the deadline\nturn: %d\nphase: %s\norders: %s\n", r.Side, r.Turn, r.Phase, orders)), true
}

// DueNowRecords makes the deadlines of reqs fall now (the referee's
// "process now"): moved, or set, to now; the records, folded into g.
func (g *Game) DueNowRecords(now time.Time, reqs []string, reason string) ([]Record, error) {
	var recs []Record
	for _, r := range g.Due() {
		if !slices.Contains(reqs, r.ID) {
			continue
		}
		var rec Record
		var err error
		if _, has := g.Deadlines[r.ID]; has {
			rec, err = g.fold(now, ActorReferee, TypeDeadlineExtended, DeadlineExtended{Request: r.ID, Side: r.Side, Due: now.UTC(), Reason: reason})
		} else {
			rec, err = g.fold(now, ActorReferee, TypeDeadlineSet, DeadlineSet{Request: r.ID, Side: r.Side, Kind: r.Kind, Due: now.UTC()})
		}
		if err != nil {
			return nil, err
		}
		recs = append(recs, rec)
	}
	return recs, nil
}
