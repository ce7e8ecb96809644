// Package extract turns one raw RFC 5322 mail, as a player sent it to the
// referee, into the YAML orders the player meant, plus the header fields the
// daemon needs to file and answer it.
//
// It reads a text/plain body (any charset, quoted-printable or base64,
// format=flowed), the text/plain alternative of a multipart/alternative mail,
// or a single .yaml/.yml attachment, which wins over the body. From a body it
// strips quoted replies with their "On … wrote:" line, signatures after a
// "-- " line, and, when the body has a line that is exactly "---", everything
// outside the fenced block. Without a fence, a greeting before the orders
// and a footer after them ("Thanks", "Sent from my iPhone", a signature
// without its "-- " line) are dropped when the orders can be told by their
// envelope keys (game:, side:, orders:, ...); lines in the middle of the
// orders never are, and two separate blocks of orders are refused
// (CodeTwoBlocks) rather than guessed at. It always reports how many lines of the mail
// precede the orders (Mail.LineOffset), so that a YAML error at line n of the
// orders can be shown to the player as line n+LineOffset of the mail.
//
// Failures are *Error values with a stable Code and a Msg written for the
// player, saying how to send the orders instead.
//
// This package must never interpret the orders (that is the order parser's
// job), never do I/O beyond reading the bytes it is given, never keep state
// between calls, and never panic, whatever the input: it faces mail from
// anybody on the Internet.
package extract
