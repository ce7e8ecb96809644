// Package hub is umpire's embedded mail hub: a small IMAP server and SMTP
// submission server, so that "umpire serve" can run a game for a club on one
// machine or a LAN without any mail account elsewhere. The referee daemon
// and the players' mail programs (Thunderbird, Apple Mail, ...) all log in
// to the hub; each user U has the address U@Domain and at least an INBOX.
//
// Mailboxes persist in a directory (see store.go for the format): after
// Close and Open, every user's mailboxes, messages, flags, UIDs, UIDNEXT
// and UIDVALIDITY are unchanged, because the daemon remembers UIDVALIDITY
// and the last UID it handled. The IMAP side implements its own
// imapserver.Session backend on go-imap v2's imapserver (imapmemserver
// cannot restore UIDs or UIDVALIDITY), and reuses imapserver's
// MailboxTracker for sequence numbers and unilateral updates, and its
// Extract* helpers for FETCH.
//
// Security model: there is no TLS, and plaintext LOGIN / AUTH PLAIN / AUTH
// LOGIN are allowed without it, because the hub is meant for loopback or a
// trusted LAN. Passwords are stored only as salted PBKDF2 hashes; a login
// that passed is remembered in memory as an HMAC under a per-process random
// key (authcache.go), so a mail program logging in again does not pay the
// slow hash while a wrong password always does. SMTP
// requires authentication, delivers only to existing users @Domain, and lets
// a user send only as their own address (envelope and From header), since
// the referee tells players apart by From.
//
// This package must never relay mail off the hub or open any outgoing
// network connection, never store a password in clear, never change a
// mailbox's UIDVALIDITY or reuse a UID, and never write the directory
// without holding its lock.
package hub
