-- 0001: games, events, the store head and append requests.
-- Forward only: never edit this file once landed (the runner checks its
-- SHA-256 against schema_migrations). Identifiers use the "C" collation so
-- that ordering is by bytes on every server, as in the in-memory store.

CREATE TABLE games (
  game_id           text COLLATE "C" PRIMARY KEY,
  game              text NOT NULL,
  ruleset_id        text NOT NULL,
  ruleset_hash      text NOT NULL CHECK (ruleset_hash ~ '^[0-9a-f]{64}$'),
  seed              numeric(20, 0) CHECK (seed >= 0 AND seed <= 18446744073709551615),
  seed_commitment   text,
  players           text[] NOT NULL CHECK (cardinality(players) >= 1),
  status            text NOT NULL DEFAULT 'active'
                    CHECK (status IN ('active', 'finished', 'voided')),
  created_by        text NOT NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  league_id         text COLLATE "C",
  tournament_id     text COLLATE "C",
  create_request_id text COLLATE "C" NOT NULL UNIQUE,
  create_digest     text NOT NULL,
  last_sequence     bigint NOT NULL DEFAULT 0 CHECK (last_sequence >= 0),
  last_hash         text,
  CHECK ((seed IS NULL) <> (seed_commitment IS NULL))
);
CREATE INDEX games_by_game ON games (game, game_id);
CREATE INDEX games_by_status ON games (status, game_id);
CREATE INDEX games_by_league ON games (league_id, game_id) WHERE league_id IS NOT NULL;
CREATE INDEX games_by_tournament ON games (tournament_id, game_id)
  WHERE tournament_id IS NOT NULL;

COMMENT ON TABLE games IS 'One row per game: fixed metadata plus the head of its event chain. Not append-only: status, last_sequence and last_hash change.';
COMMENT ON COLUMN games.game_id IS 'Caller-chosen id of the game, unique in the store.';
COMMENT ON COLUMN games.game IS 'Engine game name, e.g. atlantica.';
COMMENT ON COLUMN games.ruleset_id IS 'Id of the ruleset the game is played under.';
COMMENT ON COLUMN games.ruleset_hash IS 'SHA-256 (hex) of the ruleset, so a changed ruleset is noticed.';
COMMENT ON COLUMN games.seed IS 'The seed of the engine generator (unsigned 64-bit), if revealed at creation.';
COMMENT ON COLUMN games.seed_commitment IS 'A commitment to a seed revealed later (exactly one of seed and seed_commitment is set).';
COMMENT ON COLUMN games.players IS 'Player ids in seat order (seat 0 first).';
COMMENT ON COLUMN games.status IS 'active, finished or voided; only active games accept events.';
COMMENT ON COLUMN games.created_by IS 'Who created the game (authenticated principal).';
COMMENT ON COLUMN games.created_at IS 'When the game was created.';
COMMENT ON COLUMN games.league_id IS 'League the game belongs to, if any.';
COMMENT ON COLUMN games.tournament_id IS 'Tournament the game belongs to, if any.';
COMMENT ON COLUMN games.create_request_id IS 'Request id of the creating call; a retry returns this row.';
COMMENT ON COLUMN games.create_digest IS 'SHA-256 of the creating request, to tell a retry from a reused request id.';
COMMENT ON COLUMN games.last_sequence IS 'Sequence of the last event (0: none). Appends compare it with the writer''s expected sequence.';
COMMENT ON COLUMN games.last_hash IS 'Hash of the last event (NULL: none).';

-- A single row: the position of the last committed event. An append
-- increments it while holding the row lock until commit, so positions are
-- gap-free and become visible in order (docs/event-store.md).
CREATE TABLE store_head (
  id            boolean PRIMARY KEY DEFAULT true CHECK (id),
  last_position bigint NOT NULL CHECK (last_position >= 0)
);
INSERT INTO store_head (id, last_position) VALUES (true, 0);
COMMENT ON TABLE store_head IS 'One row holding the last assigned store-wide position; its row lock orders appends.';
COMMENT ON COLUMN store_head.id IS 'Always true (there is one row).';
COMMENT ON COLUMN store_head.last_position IS 'Position of the last event of the store (0: empty).';

CREATE TABLE events (
  position     bigint PRIMARY KEY CHECK (position >= 1),
  -- No foreign key: an append holds the game's row lock, which proves the
  -- game exists, and a per-row key check would double the cost of appends.
  game_id      text COLLATE "C" NOT NULL,
  sequence     bigint NOT NULL CHECK (sequence >= 1),
  event_id     text COLLATE "C" NOT NULL UNIQUE,
  type         text NOT NULL,
  payload      bytea NOT NULL,
  payload_json jsonb,
  recorded_by  text NOT NULL,
  recorded_at  timestamptz NOT NULL DEFAULT now(),
  prev_hash    text NOT NULL CHECK (octet_length(prev_hash) = 64),
  hash         text NOT NULL CHECK (octet_length(hash) = 64),
  UNIQUE (game_id, sequence)
);
COMMENT ON TABLE events IS 'Every event of every game. Append-only: triggers refuse UPDATE, DELETE and TRUNCATE.';
COMMENT ON COLUMN events.position IS 'Store-wide position: 1, 2, 3, ... in commit order, without gaps.';
COMMENT ON COLUMN events.game_id IS 'The game the event belongs to.';
COMMENT ON COLUMN events.sequence IS 'Position within the game: 1, 2, 3, ... without gaps.';
COMMENT ON COLUMN events.event_id IS 'Writer-chosen id, unique in the store.';
COMMENT ON COLUMN events.type IS 'Kind of event, e.g. action.';
COMMENT ON COLUMN events.payload IS 'The canonical payload bytes: the record itself, hashed exactly as stored.';
COMMENT ON COLUMN events.payload_json IS 'A readable JSON copy of the payload for auditors (not hashed; may be NULL).';
COMMENT ON COLUMN events.recorded_by IS 'Who appended the event.';
COMMENT ON COLUMN events.recorded_at IS 'When the appending transaction started.';
COMMENT ON COLUMN events.prev_hash IS 'Hash of the previous event of the game (64 zeros for sequence 1).';
COMMENT ON COLUMN events.hash IS 'SHA-256 over prev_hash and the event''s stored bytes (services/store/event_hash.h).';

-- Answers to append requests, so a retried request gets the first answer.
CREATE TABLE append_requests (
  request_id     text COLLATE "C" PRIMARY KEY,
  game_id        text COLLATE "C" NOT NULL REFERENCES games (game_id),
  digest         text NOT NULL,
  first_sequence bigint NOT NULL,
  last_sequence  bigint NOT NULL,
  first_position bigint NOT NULL,
  last_position  bigint NOT NULL,
  last_hash      text NOT NULL,
  recorded_at    timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE append_requests IS 'One row per successful append request: the answer a retry of it receives. Append-only.';
COMMENT ON COLUMN append_requests.request_id IS 'The request id the writer sent.';
COMMENT ON COLUMN append_requests.game_id IS 'The game appended to.';
COMMENT ON COLUMN append_requests.digest IS 'SHA-256 of the request, to tell a retry from a reused request id.';
COMMENT ON COLUMN append_requests.first_sequence IS 'Sequence of the first event written.';
COMMENT ON COLUMN append_requests.last_sequence IS 'Sequence of the last event written.';
COMMENT ON COLUMN append_requests.first_position IS 'Store-wide position of the first event written.';
COMMENT ON COLUMN append_requests.last_position IS 'Store-wide position of the last event written.';
COMMENT ON COLUMN append_requests.last_hash IS 'Hash of the last event written.';
COMMENT ON COLUMN append_requests.recorded_at IS 'When the request was answered.';

CREATE FUNCTION arbiter_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'AR001',
          HINT = 'Corrections are new events; stored events are never edited.';
END;
$$;

CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER append_requests_append_only BEFORE UPDATE OR DELETE ON append_requests
  FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER append_requests_no_truncate BEFORE TRUNCATE ON append_requests
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();
