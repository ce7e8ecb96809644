package referee

import (
	"context"

	"github.com/umpire-pbem/umpire/templates"
)

// Who may use a command.
const (
	WhoAnyone  = "anyone umpire knows (a player or a referee); no secret"
	WhoPlayers = "players (with side: and secret:) and the referee"
	WhoReferee = "the referee (of umpire.yaml, or the game's own)"
	WhoConfig  = "the referee of umpire.yaml"
)

// MailCommands describes every command umpire answers by mail: the one
// source of the help mail (command: help) and of the list of commands in
// docs/mail.md, which TestDocsCommands keeps current
// (go test ./mail/referee -run TestDocsCommands -update rewrites it).
// A command whose Who is not WhoReferee is answered by history.go.
var MailCommands = []templates.MailCommand{
	{Name: "help", Who: WhoAnyone, Fields: "none",
		Summary: "this list of commands, each with an example mail",
		Example: "command: help\n"},
	{Name: "status", Who: WhoPlayers, Fields: "game; side and secret (players); as (the referee, optional: one side's view)",
		Summary: "what the game waits for and by when, the last adjudication's number, the score, the game's deadlines",
		Example: "command: status\ngame: club-1\nside: red\nsecret: k3w6rbd2mqnhk5ia   # yours, from the welcome mail\n"},
	{Name: "history", Who: WhoPlayers, Fields: "game; side and secret (players); as (the referee, optional: one side's view)",
		Summary: "every adjudication so far, one line each: its number, what it answered, its first line",
		Example: "command: history\ngame: club-1\nside: red\nsecret: k3w6rbd2mqnhk5ia\n"},
	{Name: "results", Who: WhoPlayers, Fields: "game; k (the adjudication's number); side and secret (players); as (the referee, optional: one side's view)",
		Summary: "one adjudication in full, as you may read it: every line, every roll, the dice seed",
		Example: "command: results\ngame: club-1\nk: 3\nside: red\nsecret: k3w6rbd2mqnhk5ia\n"},
	{Name: "map", Who: WhoPlayers, Fields: "game; turn (optional: the end of a past turn); side and secret (players); as (the referee, optional: one side's view)",
		Summary: "the board as you may see it, as text and, for a game on a hex map, a picture; a player sees only their own side's view",
		Example: "command: map\ngame: club-1\nturn: 2                # optional: as it stood at the end of turn 2\nside: red\nsecret: k3w6rbd2mqnhk5ia\n"},
	{Name: "export", Who: WhoPlayers, Fields: "game; side and secret (players)",
		Summary: "the game's audit bundle (only what every side may read) attached as GAME.tar, for umpire verify; a bundle over 5 MiB is not mailed",
		Example: "command: export\ngame: club-1\nside: red\nsecret: k3w6rbd2mqnhk5ia\n"},
	{Name: "press", Who: WhoPlayers, Fields: "game, side, secret; to (a side, or all); text",
		Summary: "write to another side through umpire, as the game's press option allows (none, open, private, grey); players only",
		Example: "command: press\ngame: club-1\nside: red\nsecret: k3w6rbd2mqnhk5ia\nto: blue                 # or: all\ntext: |\n  Shall we share the road?\n"},
	{Name: "away", Who: WhoPlayers, Fields: "game; side and secret (players; the referee names the side); until (a date or a time); reason (optional)",
		Summary: "say you will be away: no reminders meanwhile, and no deadline of yours falls before a day after (at most the game's deadline.away-max, 14 days by default)",
		Example: "command: away\ngame: club-1\nside: red\nsecret: YOUR-SECRET\nuntil: 2026-12-05\nreason: a week in the hills\n"},
	{Name: "back", Who: WhoPlayers, Fields: "game; side and secret (players; the referee names the side)",
		Summary: "end an absence early",
		Example: "command: back\ngame: club-1\nside: red\nsecret: YOUR-SECRET\n"},
	{Name: "mail", Who: WhoPlayers, Fields: "game; side and secret (players; the referee names the side); results (due or every)",
		Summary: "choose when you get results: after every adjudication (every, the default), or only when something is due from you, the game ends or your own orders made them (due); each mail then tells everything since your last",
		Example: "command: mail\ngame: club-1\nside: red\nsecret: YOUR-SECRET\nresults: due               # or: every\n"},
	{Name: "new", Who: WhoConfig, Fields: "ruleset, scenario, players; id, options, chain_length, handicap (optional: pair or combined, for a ruleset that keeps handicaps), module (optional: the module data of a ruleset played from modules; umpire module list names them)",
		Summary: "create a game; each player is mailed a welcome with their secret",
		Example: "command: new\nid: club-1                # optional; drawn from the mail otherwise\nruleset: race\nscenario: sprint\noptions: {turns: \"3\"}\nplayers:\n  red: alice@example.org\n  blue: bob@example.org\n"},
	{Name: "new-campaign", Who: WhoConfig, Fields: "players; id, options, ruleset (optional: the campaign ruleset when this umpire has one)",
		Summary: "start a campaign: a series of linked games, each created when the one before ends and mailed to its players with its own secret; the campaign's results after every game (docs/series.md)",
		Example: "command: new-campaign\nid: siege                 # its games are siege-g1, siege-g2 …\noptions: {}               # the campaign's options: umpire rulesets lists them\nplayers:\n  invader: alice@example.org\n  defender: bob@example.org\n"},
	{Name: "new-tournament", Who: WhoConfig, Fields: "players (p1, p2 …); id, options, ruleset (optional: the tournament ruleset when this umpire has one)",
		Summary: "start a tournament: a series that draws its pairings with its own dice, creates every match's games and mails the standings after every game (docs/series.md)",
		Example: "command: new-tournament\nid: cup\noptions: {format: swiss, rounds: \"3\"}\nplayers:\n  p1: alice@example.org\n  p2: bob@example.org\n  p3: carol@example.org\n  p4: dave@example.org\n"},
	{Name: "handicaps", Who: WhoConfig, Fields: "address (optional: one player only); ruleset (optional: one ruleset's games, when several keep handicaps)",
		Summary: "every player's handicap, for the rulesets that keep them (docs/series.md), counted from the finished games: a game won +1, lost -1, a draw 0; per pair of opponents and combined, with the number of games and the warning for 10 or more",
		Example: "command: handicaps\naddress: alice@example.org   # optional\n"},
	{Name: "show", Who: WhoReferee, Fields: "game",
		Summary: "the referee's view: the board, the players, who is due, mail that could not be delivered",
		Example: "command: show\ngame: club-1\n"},
	{Name: "resend", Who: WhoReferee, Fields: "game; side (optional: one side only)",
		Summary: "the last results again, to every player (or one side)",
		Example: "command: resend\ngame: club-1\nside: red\n"},
	{Name: "outbox", Who: WhoConfig, Fields: "none",
		Summary: "the mail that could not be delivered, in every game",
		Example: "command: outbox\n"},
	{Name: "retry", Who: WhoConfig, Fields: "message (optional: one outbox message)",
		Summary: "send refused mail again, once the address is fixed",
		Example: "command: retry\nmessage: umpire.club-1.results.3.red@example.org   # optional\n"},
	{Name: "unlock", Who: WhoReferee, Fields: "game; side (optional: every side otherwise)",
		Summary: "lift a pause on guessing a side's secret, and reset its counts",
		Example: "command: unlock\ngame: club-1\nside: red\n"},
	{Name: "pause", Who: WhoReferee, Fields: "game; reason",
		Summary: "stop the game's clock: no deadline runs, nobody is reminded; everyone is told",
		Example: "command: pause\ngame: club-1\nreason: the club's summer break\n"},
	{Name: "resume", Who: WhoReferee, Fields: "game; reason (optional)",
		Summary: "start the clock again: every deadline moves by the time the game stood paused",
		Example: "command: resume\ngame: club-1\n"},
	{Name: "extend", Who: WhoReferee, Fields: "game; by (a duration) or until (a time); side (optional); reason",
		Summary: "move a deadline, for one side or every side that owes something",
		Example: "command: extend\ngame: club-1\nside: red\nby: 48h                  # or: until: 2026-12-01T18:00:00Z\nreason: red asked for two more days\n"},
	{Name: "process", Who: WhoReferee, Fields: "game; side (optional: every side that owes something)",
		Summary: "apply the game's rule for late orders now, as if the deadline had passed",
		Example: "command: process\ngame: club-1\nside: blue\n"},
	{Name: "end", Who: WhoReferee, Fields: "game; result; loser (optional)",
		Summary: "end the game with a result in your words; every sealed part is revealed",
		Example: "command: end\ngame: club-1\nresult: \"red wins: blue left the club\"\nloser: blue\n"},
	{Name: "replace", Who: WhoReferee, Fields: "game; side; address; player (optional: which player of a team, by address; its captain by default); reason (optional)",
		Summary: "give a side to another player, who gets a new secret; the old one no longer counts",
		Example: "command: replace\ngame: club-1\nside: blue\naddress: carol@example.org\nreason: bob moved away\n"},
	{Name: "rollback", Who: WhoReferee, Fields: "game; to (an event number); id (optional: the new game's id); reason (optional)",
		Summary: "go back to an event: the game goes on as a new game (a branch) from there, the old one kept; same dice up to there, a fresh chain after",
		Example: "command: rollback\ngame: club-1\nto: 57\nreason: the wrong orders were sent for red\n"},
	{Name: "eject", Who: WhoReferee, Fields: "game; side; player (optional: which player of a team, by address; its captain by default); reason (optional)",
		Summary: "take a side from its player: its secret no longer counts, nobody plays it until replaced",
		Example: "command: eject\ngame: club-1\nside: blue\nreason: abusive press\n"},
	{Name: "observe", Who: WhoReferee, Fields: "game; address; delay (optional: turns late, default 0)",
		Summary: "an address that gets each adjudication as every side may read it (pictures included), at once or some turns late; it cannot play",
		Example: "command: observe\ngame: club-1\naddress: carol@example.org\ndelay: 1                 # optional\n"},
	{Name: "unobserve", Who: WhoReferee, Fields: "game; address",
		Summary: "stop sending an observer the results",
		Example: "command: unobserve\ngame: club-1\naddress: carol@example.org\n"},
}

// mailCommand finds a command of MailCommands by name.
func mailCommand(name string) (templates.MailCommand, bool) {
	for _, c := range MailCommands {
		if c.Name == name {
			return c, true
		}
	}
	return templates.MailCommand{}, false
}

// isAskName reports whether name is a command history.go answers: one
// players may use.
func isAskName(name string) bool {
	c, ok := mailCommand(name)
	return ok && (c.Who == WhoAnyone || c.Who == WhoPlayers)
}

// commandNames lists the names of cmds, in order.
func commandNames(cmds []templates.MailCommand) []string {
	out := make([]string, len(cmds))
	for i, c := range cmds {
		out[i] = c.Name
	}
	return out
}

// askHelp answers "command: help": every command, with an example mail.
func (h *handling) askHelp(ctx context.Context) error {
	data := templates.HelpData{Referee: h.d.Referee, RefereeSecret: h.d.RefereeSecret != "", Commands: MailCommands}
	return h.answer(ctx, "", "help", templates.AskHelp, data)
}
