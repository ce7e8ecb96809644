// Package postgres is umpire's third store: the store.Store of package
// store, kept in a PostgreSQL database that the host operates, so that
// several daemons can run games from one database. It passes the same
// conformance suite (store/storetest) as the bbolt and memory stores and
// takes every rule from store's kit (CheckBatches, CheckVersion, CallKeys,
// ChainEvents, Queued, the outbox moves, Prunable), so the three cannot
// drift apart. It also implements store.Snapshots, store.Leases,
// store.DueFrom, store.Dumper, store.Loader and RewriteLog.
//
// # Schema
//
// The tables (migrations/0001_init.sql): games (one row per game: its
// version and the hash of its last event), events (the hash-chained logs),
// secrets, marks, meta, outbox (with the sequence outbox_order for the
// queue order), snapshots, leases, and schema_migrations, the steps
// applied. Keys and opaque strings are bytea, so they hold any bytes and
// sort as Go sorts strings. Open checks the schema version and never
// changes it; Migrate applies the missing steps (`umpire store migrate`).
//
// # Concurrency
//
// Every Append and AppendAll is one transaction. A writer locks the rows of
// the games it names (SELECT ... FOR UPDATE), in sorted order so that two
// calls over the same games in other orders cannot deadlock, and holds them
// to its commit: one writer per game across every process. It checks the
// batches under those locks and then writes. A game created, or a mark or
// message ID written, by another transaction at the same moment is found
// by INSERT ... ON CONFLICT DO NOTHING and ends as the loser's
// *store.ConflictError or *store.DuplicateError; serialisation failures
// and deadlocks are retried inside the store. Connections end a
// transaction left idle for a minute, so a hung client gives its games
// back. Reads are single statements, each on one snapshot; Scan and Dump
// read a page at a time and call the caller's function between pages.
//
// The package must never log or return a password (String and every error
// name the database as postgres://user@host:port/db), never hold a lock or
// a connection while it calls a caller's function, and never change the
// schema outside Migrate.
package postgres
