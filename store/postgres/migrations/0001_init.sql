-- The first schema of umpire's PostgreSQL store. Every key and opaque string
-- (game ids, marks, meta keys, secret names, message IDs, event types and
-- actors, addresses) is bytea: it may hold any bytes, and bytea orders
-- bytewise, as Go orders strings. Times are UnixNano in a bigint, or, where
-- a time must come back exactly over time.Time's whole range (the outbox),
-- seconds and nanoseconds, NULL for the zero time.

-- One row per game that has events: the head of its log. Writers lock it
-- (SELECT ... FOR UPDATE) for their whole transaction: one writer per game.
CREATE TABLE games (
    id      bytea  PRIMARY KEY,
    version bigint NOT NULL CHECK (version > 0),
    head    bytea  NOT NULL CHECK (octet_length(head) = 32)
);

-- The hash-chained logs.
CREATE TABLE events (
    game           bytea   NOT NULL REFERENCES games (id),
    seq            bigint  NOT NULL CHECK (seq > 0),
    type           bytea   NOT NULL,
    schema_version bigint  NOT NULL,
    at_ns          bigint  NOT NULL,
    actor          bytea   NOT NULL,
    payload        bytea   NOT NULL,
    prev           bytea   NOT NULL CHECK (octet_length(prev) = 32),
    hash           bytea   NOT NULL CHECK (octet_length(hash) = 32),
    PRIMARY KEY (game, seq)
);

-- Private per-game values, never exported. A game may have secrets before
-- it has events, so there is no reference to games.
CREATE TABLE secrets (
    game  bytea NOT NULL,
    name  bytea NOT NULL,
    value bytea NOT NULL,
    PRIMARY KEY (game, name)
);

CREATE TABLE marks (
    mark bytea PRIMARY KEY
);

CREATE TABLE meta (
    key   bytea PRIMARY KEY,
    value bytea NOT NULL
);

-- The queue order is (n, ord): n is drawn once per transaction from
-- outbox_order, ord is the message's place in that transaction.
CREATE SEQUENCE outbox_order;

CREATE TABLE outbox (
    n          bigint  NOT NULL,
    ord        integer NOT NULL,
    id         bytea   NOT NULL UNIQUE,
    game       bytea   NOT NULL,
    sender     bytea   NOT NULL,
    recipients bytea[] NOT NULL,
    raw        bytea   NOT NULL,
    created_s  bigint,
    created_ns integer,
    status     text    NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
    attempts   bigint  NOT NULL,
    next_s     bigint,
    next_ns    integer,
    due        bigint  NOT NULL, -- store.DueNano(NextAttempt): the order of Due
    last_error bytea   NOT NULL,
    sent_s     bigint,
    sent_ns    integer,
    pruned     boolean NOT NULL,
    PRIMARY KEY (n, ord)
);
CREATE INDEX outbox_by_game ON outbox (game, n, ord);
CREATE INDEX outbox_due ON outbox (due, id) WHERE status = 'pending';
CREATE INDEX outbox_due_from ON outbox (sender, due, id) WHERE status = 'pending';
CREATE INDEX outbox_sent ON outbox (n, ord) WHERE status = 'sent' AND NOT pruned;

-- One cached fold per game, valid while event seq still has hash.
CREATE TABLE snapshots (
    game bytea  PRIMARY KEY,
    seq  bigint NOT NULL,
    hash bytea  NOT NULL,
    data bytea  NOT NULL
);

-- Named exclusive rights with a term on the server's clock.
CREATE TABLE leases (
    name    bytea       PRIMARY KEY,
    holder  bytea       NOT NULL,
    expires timestamptz NOT NULL
);
