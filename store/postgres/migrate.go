package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// ErrSchema says that the database's schema is not the one this umpire
// reads: behind (run `umpire store migrate`) or ahead (written by a newer
// umpire). Open and Migrate wrap it with the details.
var ErrSchema = errors.New("store: PostgreSQL schema version mismatch")

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Migration is one step of the schema, an embedded file
// migrations/NNNN_name.sql applied in one transaction.
type Migration struct {
	Version int    // NNNN, from 1 without gaps
	Name    string // the rest of the file name, e.g. "init"
	SQL     string
}

// migrations is the parsed list, in version order; a malformed file name is
// a build mistake, caught by the first test that runs.
var migrations = mustParseMigrations()

func mustParseMigrations() []Migration {
	names, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		panic(err)
	}
	var out []Migration
	for i, name := range names { // Glob returns them sorted
		base := strings.TrimSuffix(path.Base(name), ".sql")
		num, label, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v != i+1 || label == "" {
			panic(fmt.Sprintf("store/postgres: migration %s is not named NNNN_name.sql with NNNN = %04d", name, i+1))
		}
		sql, err := migrationFiles.ReadFile(name)
		if err != nil {
			panic(err)
		}
		out = append(out, Migration{Version: v, Name: label, SQL: string(sql)})
	}
	return out
}

// Migrations returns the schema's steps in order, for `umpire store
// migrate` to list. The last one's Version is what Open requires.
func Migrations() []Migration { return append([]Migration(nil), migrations...) }

// Latest is the schema version this build reads and writes.
func Latest() int { return migrations[len(migrations)-1].Version }

const migrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version    integer     PRIMARY KEY,
	name       text        NOT NULL,
	applied_at timestamptz NOT NULL DEFAULT now()
)`

// Migrate applies the migrations the database at url lacks, in order, each
// in its own transaction, and returns their names ("0001_init"). It holds
// an advisory lock meanwhile, so two umpires migrating at once apply each
// step once; running it again applies nothing. A schema written by a newer
// umpire is refused with ErrSchema and left alone.
func Migrate(ctx context.Context, url string, o Options) (applied []string, err error) {
	cfg, name, err := poolConfig(url, o)
	if err != nil {
		return nil, err
	}
	conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
	if err != nil {
		return nil, fmt.Errorf("store: migrate %s: %w", name, err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	fail := func(err error) ([]string, error) {
		if ctx.Err() != nil {
			return applied, ctx.Err()
		}
		return applied, fmt.Errorf("store: migrate %s: %w", name, err)
	}
	// The lock is per schema, so that databases holding several umpires
	// (or test schemas) do not wait on one another; closing the
	// connection releases it whatever happens.
	const lock = `SELECT pg_advisory_lock(hashtextextended('umpire schema_migrations ' || coalesce(current_schema(), ''), 0))`
	if _, err := conn.Exec(ctx, lock); err != nil {
		return fail(err)
	}
	if _, err := conn.Exec(ctx, migrationsTable); err != nil {
		return fail(err)
	}
	current, err := schemaVersion(ctx, conn)
	if err != nil {
		return fail(err)
	}
	if current > Latest() {
		return nil, newerError(name, current)
	}
	for _, m := range migrations[current:] {
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, m.Version, m.Name)
			return err
		})
		if err != nil {
			return fail(fmt.Errorf("migration %04d_%s: %w", m.Version, m.Name, err))
		}
		applied = append(applied, fmt.Sprintf("%04d_%s", m.Version, m.Name))
	}
	return applied, nil
}

// SchemaVersion returns the schema version of the database at url (0 for
// one never migrated) without refusing one that is behind or ahead, for a
// status line.
func SchemaVersion(ctx context.Context, url string, o Options) (int, error) {
	cfg, name, err := poolConfig(url, o)
	if err != nil {
		return 0, err
	}
	conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
	if err != nil {
		return 0, fmt.Errorf("store: %s: %w", name, err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	v, err := schemaVersion(ctx, conn)
	if err != nil {
		return 0, fmt.Errorf("store: %s: %w", name, err)
	}
	return v, nil
}

// SchemaVersion returns the schema version of the store's database.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	if err := s.enter(ctx); err != nil {
		return 0, err
	}
	v, err := schemaVersion(ctx, s.pool)
	return v, s.wrap(ctx, err)
}

// querier is what schemaVersion needs of a connection.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// schemaVersion reads the highest applied migration; 0 when the table does
// not exist.
func schemaVersion(ctx context.Context, q querier) (int, error) {
	var v int
	err := q.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&v)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "42P01" { // undefined_table
		return 0, nil
	}
	return v, err
}

// checkSchema refuses a schema that is not at Latest.
func checkSchema(ctx context.Context, q querier, name string) error {
	v, err := schemaVersion(ctx, q)
	if err != nil {
		return fmt.Errorf("store: open %s: reading the schema version: %w", name, err)
	}
	switch {
	case v > Latest():
		return newerError(name, v)
	case v == 0:
		return fmt.Errorf("%w: %s has no umpire tables (schema version 0, this umpire needs %d): run `umpire store migrate` first", ErrSchema, name, Latest())
	case v < Latest():
		return fmt.Errorf("%w: %s is at schema version %d, this umpire needs %d: run `umpire store migrate` (after a backup)", ErrSchema, name, v, Latest())
	}
	return nil
}

func newerError(name string, v int) error {
	return fmt.Errorf("%w: %s is at schema version %d, written by a newer umpire (this one knows up to %d): upgrade umpire rather than touch the schema", ErrSchema, name, v, Latest())
}
