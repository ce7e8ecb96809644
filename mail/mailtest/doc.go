// Package mailtest runs real mail servers inside a test: go-imap's
// in-memory IMAP server and a go-smtp sink that records what it receives
// (and can be told to refuse mail, temporarily or for good). Every server
// is stopped by t.Cleanup. It is for tests only: nothing in umpire's
// binary imports it.
package mailtest
