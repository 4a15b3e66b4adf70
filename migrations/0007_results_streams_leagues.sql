-- 0007: game results in the store's global order, status moves as chained
-- events, streams (the hash-chained logs of leagues and, later, tournaments),
-- and the league projections. Forward only: never edit this file once landed.

-- A game ends by an event of its own chain: a batch whose last event has type
-- "game_finished" finishes the game, one whose last event is "game_voided"
-- voids it. The trigger below runs in the writing transaction, after the
-- batch has its positions: it moves the game's status and records the event
-- in game_results, so that rankings read the results in global order without
-- scanning every action.
CREATE TABLE game_results (
  position      bigint PRIMARY KEY CHECK (position >= 1),
  game_id       text COLLATE "C" NOT NULL,
  sequence      bigint NOT NULL CHECK (sequence >= 1),
  kind          text NOT NULL CHECK (kind IN ('finished', 'voided')),
  league_id     text COLLATE "C",
  tournament_id text COLLATE "C"
);
CREATE INDEX game_results_by_league ON game_results (league_id, position)
  WHERE league_id IS NOT NULL;
COMMENT ON TABLE game_results IS 'Every game_finished and game_voided event, by store position: an index of the event log kept by a trigger. Append-only.';
COMMENT ON COLUMN game_results.position IS 'Store-wide position of the event.';
COMMENT ON COLUMN game_results.game_id IS 'The game.';
COMMENT ON COLUMN game_results.sequence IS 'The event''s sequence within its game.';
COMMENT ON COLUMN game_results.kind IS 'finished (a game_finished event) or voided (a game_voided event).';
COMMENT ON COLUMN game_results.league_id IS 'The game''s league, if any (fixed at creation).';
COMMENT ON COLUMN game_results.tournament_id IS 'The game''s tournament, if any (fixed at creation).';

CREATE TRIGGER game_results_append_only BEFORE UPDATE OR DELETE ON game_results
  FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER game_results_no_truncate BEFORE TRUNCATE ON game_results
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();

CREATE FUNCTION arbiter_record_result() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  last_type text;
  new_kind text;
  league text;
  tournament text;
BEGIN
  SELECT type INTO last_type FROM events
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
  INSERT INTO game_results (position, game_id, sequence, kind, league_id, tournament_id)
  VALUES (NEW.last_position, NEW.game_id, NEW.last_sequence, new_kind, league, tournament);
  RETURN NULL;
END;
$$;
CREATE TRIGGER append_requests_record_result AFTER INSERT ON append_requests
  FOR EACH ROW EXECUTE FUNCTION arbiter_record_result();

-- Streams: append-only, hash-chained logs other than games (a league's
-- creation and settings, ...). One event per request; hashed like game events
-- (services/store/event_hash.h) with the stream id in place of the game id
-- and the request id as the event id.
CREATE TABLE streams (
  stream_id     text COLLATE "C" PRIMARY KEY,
  kind          text NOT NULL,
  created_by    text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_sequence bigint NOT NULL CHECK (last_sequence >= 1),
  last_hash     text NOT NULL CHECK (octet_length(last_hash) = 64)
);
CREATE INDEX streams_by_kind ON streams (kind, stream_id);
COMMENT ON TABLE streams IS 'One row per stream (e.g. leagues/north): its kind and the head of its chain.';
COMMENT ON COLUMN streams.stream_id IS 'Resource name of the stream, e.g. leagues/north.';
COMMENT ON COLUMN streams.kind IS 'What the stream is the log of, e.g. league.';
COMMENT ON COLUMN streams.created_by IS 'Who created it (authenticated principal).';
COMMENT ON COLUMN streams.created_at IS 'When it was created.';
COMMENT ON COLUMN streams.last_sequence IS 'Sequence of its last event.';
COMMENT ON COLUMN streams.last_hash IS 'Hash of its last event.';

CREATE TABLE stream_events (
  stream_id   text COLLATE "C" NOT NULL REFERENCES streams (stream_id),
  sequence    bigint NOT NULL CHECK (sequence >= 1),
  request_id  text COLLATE "C" NOT NULL UNIQUE,
  digest      text NOT NULL,
  type        text NOT NULL,
  payload     bytea NOT NULL,
  recorded_by text NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  prev_hash   text NOT NULL CHECK (octet_length(prev_hash) = 64),
  hash        text NOT NULL CHECK (octet_length(hash) = 64),
  PRIMARY KEY (stream_id, sequence)
);
COMMENT ON TABLE stream_events IS 'Every event of every stream. Append-only: triggers refuse UPDATE, DELETE and TRUNCATE.';
COMMENT ON COLUMN stream_events.stream_id IS 'The stream.';
COMMENT ON COLUMN stream_events.sequence IS '1, 2, 3, ... within the stream, without gaps.';
COMMENT ON COLUMN stream_events.request_id IS 'The request that wrote it (also hashed as the event id); a retry returns this event.';
COMMENT ON COLUMN stream_events.digest IS 'SHA-256 of the request, to tell a retry from a reused request id.';
COMMENT ON COLUMN stream_events.type IS 'Kind of event, e.g. league_created.';
COMMENT ON COLUMN stream_events.payload IS 'The canonical payload bytes, hashed exactly as stored.';
COMMENT ON COLUMN stream_events.recorded_by IS 'Who appended it.';
COMMENT ON COLUMN stream_events.recorded_at IS 'When.';
COMMENT ON COLUMN stream_events.prev_hash IS 'Hash of the previous event of the stream (64 zeros for sequence 1).';
COMMENT ON COLUMN stream_events.hash IS 'SHA-256 as for game events (services/store/event_hash.h).';

CREATE TRIGGER stream_events_append_only BEFORE UPDATE OR DELETE ON stream_events
  FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER stream_events_no_truncate BEFORE TRUNCATE ON stream_events
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();

-- League projections: derived from the logs, rebuildable at any time, so the
-- service may rewrite them. The projector writes them together with its
-- checkpoint, in one transaction (docs/leagues.md). They are UNLOGGED: no WAL,
-- so rebuilding a large league costs a fraction of what it would; a crash of
-- PostgreSQL empties them all at once, the checkpoint included, and the
-- projector then rebuilds everything from the logs, counting each result once.
CREATE UNLOGGED TABLE projector_checkpoints (
  projector text PRIMARY KEY,
  position  bigint NOT NULL CHECK (position >= 0)
);
INSERT INTO projector_checkpoints (projector, position) VALUES ('leagues', 0);
COMMENT ON TABLE projector_checkpoints IS 'The last store position each projector has counted, written with what it counted.';

CREATE UNLOGGED TABLE league_projections (
  league_id         text COLLATE "C" PRIMARY KEY,
  settings_sequence bigint NOT NULL,
  rated_games       bigint NOT NULL
);
COMMENT ON TABLE league_projections IS 'Which settings (event of the league''s log) the league''s ratings were computed with.';

CREATE UNLOGGED TABLE league_tables (
  league_id   text COLLATE "C" NOT NULL,
  season      text COLLATE "C" NOT NULL,
  players     bigint NOT NULL,
  rated_games bigint NOT NULL,
  PRIMARY KEY (league_id, season)
);
COMMENT ON TABLE league_tables IS 'Per league and season (season '''' = all time): rated players (virtual opponents excluded) and games. Derived.';

CREATE UNLOGGED TABLE league_ratings (
  league_id     text COLLATE "C" NOT NULL,
  season        text COLLATE "C" NOT NULL,
  player        text COLLATE "C" NOT NULL,
  mu            float8 NOT NULL,
  sigma         float8 NOT NULL,
  volatility    float8 NOT NULL,
  display       float8 NOT NULL,
  games         bigint NOT NULL,
  last_position bigint NOT NULL,
  last_game_id  text COLLATE "C" NOT NULL,
  last_played   bigint NOT NULL,
  provisional   boolean NOT NULL,
  is_virtual    boolean NOT NULL,
  PRIMARY KEY (league_id, season, player)
);
CREATE INDEX league_ratings_board ON league_ratings (league_id, season, display DESC, player)
  WHERE NOT is_virtual;
COMMENT ON TABLE league_ratings IS 'Current rating of every player of every league and season (season '''' = all time). Derived. last_played: microseconds since 1970 (UTC) of the last rated game''s result.';

CREATE UNLOGGED TABLE league_rating_history (
  league_id  text COLLATE "C" NOT NULL,
  season     text COLLATE "C" NOT NULL,
  player     text COLLATE "C" NOT NULL,
  games      bigint NOT NULL,
  game_id    text COLLATE "C" NOT NULL,
  position   bigint NOT NULL,
  played_at  bigint NOT NULL,
  mu         float8 NOT NULL,
  sigma      float8 NOT NULL,
  volatility float8 NOT NULL,
  display    float8 NOT NULL,
  place      integer NOT NULL,
  PRIMARY KEY (league_id, season, player, games)
);
COMMENT ON TABLE league_rating_history IS 'A player''s rating after each rated game. Derived. played_at: microseconds since 1970 (UTC) of the game''s result.';

GRANT SELECT, INSERT ON game_results, stream_events TO arbiter_service;
GRANT SELECT, INSERT ON streams TO arbiter_service;
GRANT UPDATE (last_sequence, last_hash) ON streams TO arbiter_service;
GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE
  ON projector_checkpoints, league_projections, league_tables, league_ratings,
     league_rating_history
  TO arbiter_service;
