-- 0022: store each event in as few bytes as its guarantees need.
-- Forward only: never edit this file once landed.
--
-- An events row used to carry about 590 bytes with its indexes. It now keeps
-- (docs/event-store.md, "What each stored byte is for"):
--   * hash as its 32 bytes (bytea) instead of 64 hex characters;
--   * no prev_hash: it is the previous event's hash, read from there
--     (readers and the view events_readable put it back);
--   * no recorded_by and recorded_at: one writer and one transaction store a
--     batch, so append_requests keeps them once per batch;
--   * event_id NULL when it is the derived id the service gives every event
--     (the first 32 hex digits of SHA-256(game id), '-', the sequence:
--     arbiter_derived_event_id below); other ids are kept, and unique;
--   * payload_json only when the server runs with --keep-json-copies.
-- Every hash, every answer and every transparency-log leaf stays the same:
-- nothing hashed changes, and what is dropped is recomputed exactly. The
-- migration refuses to run (and changes nothing) on a store whose rows
-- disagree with that, naming what disagrees: check it with VerifyGame.

-- The derived event id, as services/store/event_hash.h computes it.
CREATE FUNCTION arbiter_derived_event_id(game_id text, sequence bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT left(encode(sha256(convert_to(game_id, 'UTF8')), 'hex'), 32) || '-' || sequence::text
$$;
COMMENT ON FUNCTION arbiter_derived_event_id(text, bigint) IS 'The id the service gives event `sequence` of a game; stored as NULL in events.event_id.';

-- What would be lost must be derivable.
DO $$
DECLARE
  bad record;
BEGIN
  SELECT e.game_id, e.sequence INTO bad FROM events e
  LEFT JOIN append_requests r ON r.game_id = e.game_id
       AND e.sequence BETWEEN r.first_sequence AND r.last_sequence
  WHERE r.request_id IS NULL LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'event % of game "%" belongs to no append_requests row', bad.sequence, bad.game_id
      USING HINT = 'Run arbiter verify on that game; restore the store from a backup before migrating.';
  END IF;
  SELECT e.game_id, e.sequence INTO bad FROM events e
  JOIN append_requests r ON r.game_id = e.game_id
       AND e.sequence BETWEEN r.first_sequence AND r.last_sequence
  JOIN events f ON f.game_id = r.game_id AND f.sequence = r.first_sequence
  WHERE e.recorded_by <> f.recorded_by OR e.recorded_at <> f.recorded_at LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'event % of game "%" was recorded by another writer or at another time than its batch''s first', bad.sequence, bad.game_id;
  END IF;
  SELECT e.game_id, e.sequence INTO bad FROM events e
  LEFT JOIN events p ON p.game_id = e.game_id AND p.sequence = e.sequence - 1
  WHERE e.prev_hash <> CASE WHEN e.sequence = 1 THEN repeat('0', 64) ELSE p.hash END
     OR (e.sequence > 1 AND p.hash IS NULL)
  LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'event % of game "%": its prev_hash is not the previous event''s hash', bad.sequence, bad.game_id
      USING HINT = 'Run arbiter verify on that game; restore the store from a backup before migrating.';
  END IF;
  SELECT e.game_id, e.sequence INTO bad FROM events e WHERE e.hash !~ '^[0-9a-f]{64}$' LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'event % of game "%": its hash is not 64 lowercase hex digits', bad.sequence, bad.game_id;
  END IF;
END;
$$;

-- Who recorded a batch and when, once per batch.
ALTER TABLE append_requests ADD COLUMN recorded_by text;
ALTER TABLE append_requests DISABLE TRIGGER append_requests_append_only;
UPDATE append_requests r SET recorded_by = f.recorded_by, recorded_at = f.recorded_at
FROM events f WHERE f.game_id = r.game_id AND f.sequence = r.first_sequence;
ALTER TABLE append_requests ENABLE TRIGGER append_requests_append_only;
ALTER TABLE append_requests ALTER COLUMN recorded_by SET NOT NULL;
COMMENT ON COLUMN append_requests.recorded_by IS 'Who appended the batch (each of its events).';
COMMENT ON COLUMN append_requests.recorded_at IS 'When the appending transaction started: the time of each of its events.';

-- The lean table, filled from the old one, then put in its place.
CREATE TABLE events_lean (
  game_id      text COLLATE "C" NOT NULL,
  sequence     bigint NOT NULL CHECK (sequence >= 1),
  type         text NOT NULL,
  payload      bytea NOT NULL,
  hash         bytea NOT NULL CHECK (octet_length(hash) = 32),
  event_id     text COLLATE "C",
  payload_json json
);
INSERT INTO events_lean (game_id, sequence, type, payload, hash, event_id, payload_json)
SELECT game_id, sequence, type, payload, decode(hash, 'hex'),
       NULLIF(event_id, arbiter_derived_event_id(game_id, sequence)), payload_json
FROM events ORDER BY game_id, sequence;

DROP VIEW events_in_order;
DROP TABLE events;
ALTER TABLE events_lean RENAME TO events;
ALTER TABLE events ADD CONSTRAINT events_pkey PRIMARY KEY (game_id, sequence);
CREATE UNIQUE INDEX events_event_id ON events (event_id) WHERE event_id IS NOT NULL;

CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER events_notify AFTER INSERT ON events
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_events_notify();
GRANT SELECT, INSERT ON events TO arbiter_service;

COMMENT ON TABLE events IS 'Every event of every game, in as few bytes as its guarantees need (migration 0022; the view events_readable shows every field). Append-only: triggers refuse UPDATE, DELETE and TRUNCATE.';
COMMENT ON COLUMN events.game_id IS 'The game the event belongs to.';
COMMENT ON COLUMN events.sequence IS 'Position within the game: 1, 2, 3, ... without gaps.';
COMMENT ON COLUMN events.type IS 'Kind of event, e.g. action.';
COMMENT ON COLUMN events.payload IS 'The canonical payload bytes: the record itself, hashed exactly as stored.';
COMMENT ON COLUMN events.hash IS 'SHA-256 (32 bytes) over the previous event''s hash and the event''s stored bytes (services/store/event_hash.h).';
COMMENT ON COLUMN events.event_id IS 'The writer-chosen id, unique in the store; NULL when it is the derived id arbiter_derived_event_id(game_id, sequence).';
COMMENT ON COLUMN events.payload_json IS 'A readable JSON copy of the payload, kept only when the server runs with --keep-json-copies (not hashed; cast to jsonb for its operators).';

-- Every field of every event as the chain hashes it, for auditors in SQL.
CREATE VIEW events_readable AS
SELECT r.first_position + (e.sequence - r.first_sequence) AS position,
       e.game_id, e.sequence,
       coalesce(e.event_id, arbiter_derived_event_id(e.game_id, e.sequence)) AS event_id,
       e.type, e.payload, e.payload_json, r.recorded_by, r.recorded_at,
       CASE WHEN e.sequence = 1 THEN repeat('0', 64)
            ELSE (SELECT encode(p.hash, 'hex') FROM events p
                  WHERE p.game_id = e.game_id AND p.sequence = e.sequence - 1) END AS prev_hash,
       encode(e.hash, 'hex') AS hash
FROM append_requests r
JOIN events e ON e.game_id = r.game_id AND e.sequence BETWEEN r.first_sequence AND r.last_sequence;
COMMENT ON VIEW events_readable IS 'Every event with its store-wide position and every field the hash chain covers, as stored before migration 0022 (hashes as hex): ORDER BY position is commit order.';
GRANT SELECT ON events_readable TO arbiter_service;

-- The same view under its old name, for SQL written before 0022.
CREATE VIEW events_in_order AS SELECT * FROM events_readable;
COMMENT ON VIEW events_in_order IS 'Every event with its store-wide position: ORDER BY position is commit order (the same as events_readable).';
GRANT SELECT ON events_in_order TO arbiter_service;

-- A result's time is its batch's.
CREATE OR REPLACE FUNCTION arbiter_record_result() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  last_type text;
  last_payload bytea;
  new_kind text;
  league text;
  tournament text;
BEGIN
  SELECT type, payload INTO last_type, last_payload
    FROM events
   WHERE game_id = NEW.game_id AND sequence = NEW.last_sequence;
  IF last_type = 'game_finished' THEN
    new_kind := 'finished';
  ELSIF last_type = 'game_voided' THEN
    new_kind := 'voided';
  ELSE
    RETURN NULL;
  END IF;
  UPDATE games SET status = new_kind WHERE game_id = NEW.game_id
    RETURNING league_id, tournament_id INTO league, tournament;
  INSERT INTO game_results (position, game_id, sequence, kind, league_id, tournament_id,
                            recorded_micros, payload)
  VALUES (NEW.last_position, NEW.game_id, NEW.last_sequence, new_kind, league, tournament,
          (extract(epoch FROM NEW.recorded_at) * 1000000)::bigint, last_payload);
  RETURN NULL;
END;
$$;
