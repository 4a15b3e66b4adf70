-- The sharded layout of Arbiter's tables on Citus 12 (docs/scale-out.md).
--
-- Run once, as a superuser, on the Citus coordinator, in the Arbiter
-- database, after `arbiter migrate` (migrations 0001-0024) and after every
-- worker was added (citus_add_node), with citus.enable_unsafe_triggers on in
-- every node's configuration:
--   psql -v ON_ERROR_STOP=1 -d arbiter -f docs/scale-out/citus-layout.sql
-- It is one transaction: it changes everything or nothing, and it refuses
-- (changing nothing) a database at another migration, one already laid out,
-- one without workers, and a populated store that is not ready (see the
-- checks below). On a populated store, stop every writer first.
--
-- This layout is a design that Arbiter does not use yet: arbiterd of this
-- version cannot append to it (it may no longer move store_head) and reads
-- none of what it adds. docs/scale-out.md says what would have to change.
--
-- Placement (distribution column; co-location group):
--   games, events, append_requests, game_results, dealer_secrets,
--     shard_heads (new)                          game id; group "games"
--   played_game_keys (new)                       played key; its own group
--   streams, stream_events                       stream id; group "streams"
--   league_projections, league_tables, league_ratings,
--     league_history_chunks                      league id; group "leagues"
--   transparency_head, transparency_segments, transparency_tiles,
--     transparency_stream_heads, transparency_checkpoints,
--     transparency_checkpoint_leaves (new)       log id; group "transparency"
--   tokens, schema_migrations, store_head,
--     projector_checkpoints, leases,
--     lease_requests, transparency_log_binding   reference tables (a copy on every node)
--
-- Names this file gives (stored: never rename once a database runs on it):
-- the log ids "store" (the transparency log from before this layout,
-- frozen), "shards/<n>" (one per shard of the games group, n = 0, 1, ...
-- in hash order), "streams" and "top"; the head keys "heads/<k>".

BEGIN;

-- Citus refuses triggers on distributed tables unless this is on, here and
-- on every worker (checked below). Arbiter's triggers touch only the row's
-- own shard and its co-located shards (the result trigger reads the batch's
-- events and writes its game and result, all of one game), which is what
-- Citus lets a trigger on a shard do.
SET LOCAL citus.enable_unsafe_triggers = on;
-- One connection per worker for the whole transaction: the DDL and the
-- copies below then never trip over each other's connections.
SET LOCAL citus.multi_shard_modify_mode = 'sequential';

-- ---------------------------------------------------------------------------
-- 1. Is this database ready?
-- ---------------------------------------------------------------------------
DO $$
DECLARE
  head bigint;
  at_version integer;
BEGIN
  IF substring(citus_version() FROM 'Citus (\d+)')::int < 12 THEN
    RAISE EXCEPTION 'this layout is written for Citus 12 or later; this is %', citus_version();
  END IF;
  IF NOT EXISTS (SELECT FROM citus_get_active_worker_nodes()) THEN
    RAISE EXCEPTION 'no worker node: add the workers first (SELECT citus_add_node(host, port))';
  END IF;
  IF EXISTS (SELECT FROM run_command_on_workers('SHOW citus.enable_unsafe_triggers')
             WHERE NOT success OR result <> 'on') THEN
    RAISE EXCEPTION 'citus.enable_unsafe_triggers is not on on every worker'
      USING HINT = 'Set it in each node''s configuration (the compose profile passes -c citus.enable_unsafe_triggers=on) and reload.';
  END IF;
  IF EXISTS (SELECT FROM pg_dist_partition WHERE logicalrelid = 'games'::regclass) THEN
    RAISE EXCEPTION 'the layout has already been applied to this database (games is distributed)';
  END IF;
  SELECT max(version) INTO at_version FROM schema_migrations;
  IF at_version IS DISTINCT FROM 24 THEN
    RAISE EXCEPTION 'this layout is written for the schema of migrations 0001-0024; this database is at %',
      coalesce(at_version::text, 'no migration')
      USING HINT = 'Run arbiter migrate first, or review the layout against the newer migrations.';
  END IF;
  SELECT last_position INTO head FROM store_head;
  IF (SELECT events_position FROM transparency_head) <> head
     OR EXISTS (SELECT FROM streams s
                LEFT JOIN transparency_stream_heads h ON h.stream_id = s.stream_id
                WHERE h.sequence IS DISTINCT FROM s.last_sequence) THEN
    RAISE EXCEPTION 'the transparency log does not hold every stored event yet'
      USING HINT = 'Stop the writers and let arbiterd''s log builder catch up.';
  END IF;
  IF (SELECT tree_size FROM transparency_head) > 0
     AND NOT EXISTS (SELECT FROM transparency_checkpoints
                     WHERE tree_size = (SELECT tree_size FROM transparency_head)) THEN
    RAISE EXCEPTION 'no signed checkpoint covers the whole transparency log'
      USING HINT = 'Sign one (arbiter checkpoint --publish): it becomes the log''s last checkpoint.';
  END IF;
  IF (SELECT position FROM projector_checkpoints WHERE projector = 'leagues') IS DISTINCT FROM head THEN
    RAISE EXCEPTION 'the league projector has not counted every result yet'
      USING HINT = 'Stop the writers and let arbiterd''s projector catch up.';
  END IF;
END;
$$;

-- ---------------------------------------------------------------------------
-- 2. Keys and columns, while the tables are still plain PostgreSQL tables.
-- Citus requires every UNIQUE and PRIMARY KEY index of a distributed table
-- to include its distribution column, and refuses to distribute a table
-- that a plain table references, so the two foreign keys go now and come
-- back once both of their tables are distributed (section 5).
-- ---------------------------------------------------------------------------
ALTER TABLE append_requests DROP CONSTRAINT append_requests_game_id_fkey;
ALTER TABLE stream_events DROP CONSTRAINT stream_events_stream_id_fkey;

-- The triggers go too, and come back in section 6 as the migrations define
-- them: Citus creates a table's shards with its triggers and then copies the
-- stored rows into them, and the result trigger would then record every
-- stored result a second time.
DROP TRIGGER games_fixed_columns ON games;
DROP TRIGGER games_no_truncate ON games;
DROP TRIGGER games_played_key_fixed ON games;
DROP TRIGGER events_append_only ON events;
DROP TRIGGER events_no_truncate ON events;
DROP TRIGGER events_notify ON events;
DROP TRIGGER append_requests_append_only ON append_requests;
DROP TRIGGER append_requests_no_truncate ON append_requests;
DROP TRIGGER append_requests_record_result ON append_requests;
DROP TRIGGER game_results_append_only ON game_results;
DROP TRIGGER game_results_no_truncate ON game_results;
DROP TRIGGER stream_events_append_only ON stream_events;
DROP TRIGGER stream_events_no_truncate ON stream_events;
DROP TRIGGER transparency_segments_append_only ON transparency_segments;
DROP TRIGGER transparency_segments_no_truncate ON transparency_segments;
DROP TRIGGER transparency_tiles_append_only ON transparency_tiles;
DROP TRIGGER transparency_tiles_no_truncate ON transparency_tiles;
DROP TRIGGER transparency_checkpoints_append_only ON transparency_checkpoints;
DROP TRIGGER transparency_checkpoints_no_truncate ON transparency_checkpoints;
DROP TRIGGER transparency_log_binding_append_only ON transparency_log_binding;
DROP TRIGGER transparency_log_binding_no_truncate ON transparency_log_binding;

-- games: a creation is found again by its game id (given, or derived from
-- the request id), so the request id need not be unique across the store;
-- the service's store request ids hash the game id in anyway
-- (services/games/game_events.h, StoreRequestId).
ALTER TABLE games DROP CONSTRAINT games_create_request_id_key;

-- games: a played game's key stays unique in the whole store, through a
-- claim in a table of its own, distributed by the key.
DROP INDEX games_played_key;
CREATE TABLE played_game_keys (
  played_key text PRIMARY KEY,
  game_id    text COLLATE "C" NOT NULL
);
INSERT INTO played_game_keys (played_key, game_id)
SELECT played_key, game_id FROM games WHERE played_key IS NOT NULL;
COMMENT ON TABLE played_game_keys IS 'One row per stored played-game key (games.played_key): the claim that keeps the key unique in the whole store, written in the game''s creating transaction. Append-only.';
COMMENT ON COLUMN played_game_keys.played_key IS 'SHA-256 (hex) of a submitted log''s header and actions.';
COMMENT ON COLUMN played_game_keys.game_id IS 'The game stored with it.';

-- events: a writer's own event id is unique within its game. (The
-- service's event ids are derived from the game id and the sequence and
-- stored as NULL; only other writers of the store choose their own.)
DROP INDEX events_event_id;
CREATE UNIQUE INDEX events_event_id ON events (game_id, event_id) WHERE event_id IS NOT NULL;
COMMENT ON COLUMN events.event_id IS 'The writer-chosen id, unique within the game; NULL when it is the derived id arbiter_derived_event_id(game_id, sequence).';

-- append_requests: a request id is unique within its game; positions are
-- per shard from here on (shard_heads), with the shard's clock beside them.
ALTER TABLE append_requests DROP CONSTRAINT append_requests_pkey;
ALTER TABLE append_requests ADD CONSTRAINT append_requests_pkey PRIMARY KEY (game_id, request_id);
ALTER TABLE append_requests ADD COLUMN shard integer CHECK (shard >= 0),
                            ADD COLUMN order_time timestamptz,
                            ADD CONSTRAINT append_requests_shard_and_time
                              CHECK ((shard IS NULL) = (order_time IS NULL));
DROP INDEX append_requests_by_position;
CREATE INDEX append_requests_by_shard_position ON append_requests (shard, last_position);
COMMENT ON COLUMN append_requests.shard IS 'The shard of the games group that holds the batch (0, 1, ... in hash order); NULL for a batch stored before the sharded layout, whose positions are store-wide.';
COMMENT ON COLUMN append_requests.order_time IS 'The shard''s clock when the batch took its positions (shard_heads.last_order_time): increasing with the positions of a shard; with shard and position it orders batches across shards. NULL with shard.';
COMMENT ON COLUMN append_requests.first_position IS 'Position of the first event written: within its shard (1, 2, 3, ... in commit order, without gaps above the store-wide positions of before the layout), or store-wide when shard is NULL.';
COMMENT ON COLUMN append_requests.last_position IS 'Position of the last event written (see first_position).';

-- game_results: keyed by its event; carries the batch's shard and clock.
ALTER TABLE game_results DROP CONSTRAINT game_results_pkey;
ALTER TABLE game_results ADD CONSTRAINT game_results_pkey PRIMARY KEY (game_id, sequence);
ALTER TABLE game_results ADD COLUMN shard integer CHECK (shard >= 0),
                         ADD COLUMN order_time timestamptz,
                         ADD CONSTRAINT game_results_shard_and_time
                           CHECK ((shard IS NULL) = (order_time IS NULL));
CREATE INDEX game_results_by_shard_position ON game_results (shard, position);
DROP INDEX game_results_by_league;
CREATE INDEX game_results_by_league
  ON game_results (league_id, order_time NULLS FIRST, shard NULLS FIRST, position)
  WHERE league_id IS NOT NULL;
COMMENT ON COLUMN game_results.position IS 'Position of the event: within its shard, or store-wide when shard is NULL.';
COMMENT ON COLUMN game_results.shard IS 'The shard of its batch (append_requests.shard).';
COMMENT ON COLUMN game_results.order_time IS 'The shard''s clock of its batch (append_requests.order_time). Results are rated in the order (order_time, shard, position), NULLs (before the layout) first by position.';

-- Rows stored before the layout are exactly those with store-wide
-- positions, up to the store head as it stands now.
DO $$
DECLARE
  head bigint := (SELECT last_position FROM store_head);
BEGIN
  EXECUTE format('ALTER TABLE append_requests ADD CONSTRAINT append_requests_positions_before_layout '
                 'CHECK (shard IS NOT NULL OR last_position <= %s)', head);
  EXECUTE format('ALTER TABLE game_results ADD CONSTRAINT game_results_positions_before_layout '
                 'CHECK (shard IS NOT NULL OR position <= %s)', head);
END;
$$;

-- The result trigger copies the batch's shard and clock.
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
                            recorded_micros, payload, shard, order_time)
  VALUES (NEW.last_position, NEW.game_id, NEW.last_sequence, new_kind, league, tournament,
          (extract(epoch FROM NEW.recorded_at) * 1000000)::bigint, last_payload,
          NEW.shard, NEW.order_time);
  RETURN NULL;
END;
$$;

-- dealer_secrets: its game id in the collation of games.game_id, which
-- co-location requires.
ALTER TABLE dealer_secrets ALTER COLUMN game_id TYPE text COLLATE "C";

-- One head per shard of the games group, in that shard (its key hashes into
-- the shard's range), so that an append takes its positions in the same
-- single-shard transaction as its events. Filled in section 4.
CREATE TABLE shard_heads (
  head_key        text COLLATE "C" PRIMARY KEY,
  shard           integer NOT NULL CHECK (shard >= 0),
  last_position   bigint NOT NULL CHECK (last_position >= 0),
  last_order_time timestamptz NOT NULL
);
COMMENT ON TABLE shard_heads IS 'One row per shard of the games group: its last assigned position and its clock. An append locks its shard''s row after inserting its events and keeps the lock until commit, so positions are gap-free and commit-ordered within the shard (docs/scale-out.md).';
COMMENT ON COLUMN shard_heads.head_key IS 'A key that hashes into the shard''s range ("heads/<k>"); the row''s distribution value.';
COMMENT ON COLUMN shard_heads.shard IS 'The shard: 0, 1, ... in the order of the hash ranges.';
COMMENT ON COLUMN shard_heads.last_position IS 'Position of the shard''s last event; starts at the store-wide head of before the layout.';
COMMENT ON COLUMN shard_heads.last_order_time IS 'The shard''s clock: every batch, and every heartbeat of an idle shard, sets it to greatest(last_order_time + 1 microsecond, clock_timestamp()) under the row lock.';

-- store_head: frozen at the last store-wide position.
REVOKE UPDATE ON store_head FROM arbiter_service;
COMMENT ON TABLE store_head IS 'The last store-wide position, frozen when the sharded layout was applied: later positions are per shard (shard_heads).';

-- stream_events: a request id is unique within its stream.
ALTER TABLE stream_events DROP CONSTRAINT stream_events_request_id_key;
ALTER TABLE stream_events ADD CONSTRAINT stream_events_request_id_key UNIQUE (stream_id, request_id);
COMMENT ON COLUMN stream_events.request_id IS 'The request that wrote it (also hashed as the event id), unique within the stream; a retry returns this event.';

-- League projections: logged, so that a crash of one worker cannot empty
-- its shards of them while their checkpoint, kept elsewhere, survives.
ALTER TABLE league_projections SET LOGGED;
ALTER TABLE league_tables SET LOGGED;
ALTER TABLE league_ratings SET LOGGED;
ALTER TABLE league_history_chunks SET LOGGED;
ALTER TABLE projector_checkpoints SET LOGGED;
ALTER TABLE projector_checkpoints DROP CONSTRAINT projector_checkpoints_pkey;
ALTER TABLE projector_checkpoints ADD COLUMN shard integer CHECK (shard >= 0);
COMMENT ON TABLE projector_checkpoints IS 'Each projector''s vector checkpoint: per shard of the games group, the last position it has counted (the counted results are a prefix of the order (order_time, shard, position)).';
COMMENT ON COLUMN projector_checkpoints.shard IS 'The shard this component is of.';

-- The transparency log: one log per shard of the games group, one for the
-- streams, and a top-level log of their signed checkpoints; the log of
-- before the layout stays, frozen, as log "store".
ALTER TABLE transparency_head DROP COLUMN id;
ALTER TABLE transparency_head ADD COLUMN log_id text COLLATE "C" NOT NULL DEFAULT 'store';
ALTER TABLE transparency_head ALTER COLUMN log_id DROP DEFAULT;
ALTER TABLE transparency_head ADD CONSTRAINT transparency_head_pkey PRIMARY KEY (log_id);
COMMENT ON TABLE transparency_head IS 'One row per log: how far its builder has gone.';
COMMENT ON COLUMN transparency_head.log_id IS 'The log: "store" (before the sharded layout; frozen), "shards/<n>", "streams" or "top".';
COMMENT ON COLUMN transparency_head.events_position IS 'A shard''s log: the last position of its shard that is a leaf ("store": store-wide; "streams", "top": 0).';

ALTER TABLE transparency_segments ADD COLUMN log_id text COLLATE "C" NOT NULL DEFAULT 'store';
ALTER TABLE transparency_segments ALTER COLUMN log_id DROP DEFAULT;
ALTER TABLE transparency_segments DROP CONSTRAINT transparency_segments_pkey;
ALTER TABLE transparency_segments ADD CONSTRAINT transparency_segments_pkey PRIMARY KEY (log_id, first_leaf);
DROP INDEX transparency_segments_by_position;
DROP INDEX transparency_segments_by_stream;
CREATE UNIQUE INDEX transparency_segments_by_position ON transparency_segments (log_id, position)
  WHERE position IS NOT NULL;
CREATE UNIQUE INDEX transparency_segments_by_stream ON transparency_segments (log_id, stream_id, sequence)
  WHERE stream_id IS NOT NULL;
COMMENT ON COLUMN transparency_segments.log_id IS 'The log the leaves are of.';
COMMENT ON COLUMN transparency_segments.position IS 'Game events: the position of the first (within the log''s shard; store-wide in log "store"); the others follow without gaps.';

ALTER TABLE transparency_tiles ADD COLUMN log_id text COLLATE "C" NOT NULL DEFAULT 'store';
ALTER TABLE transparency_tiles ALTER COLUMN log_id DROP DEFAULT;
ALTER TABLE transparency_tiles DROP CONSTRAINT transparency_tiles_pkey;
ALTER TABLE transparency_tiles ADD CONSTRAINT transparency_tiles_pkey
  PRIMARY KEY (log_id, tile_level, tile_index, width);
COMMENT ON COLUMN transparency_tiles.log_id IS 'The log the tile is of.';

ALTER TABLE transparency_stream_heads ADD COLUMN log_id text COLLATE "C" NOT NULL DEFAULT 'store';
ALTER TABLE transparency_stream_heads ALTER COLUMN log_id DROP DEFAULT;
ALTER TABLE transparency_stream_heads DROP CONSTRAINT transparency_stream_heads_pkey;
ALTER TABLE transparency_stream_heads ADD CONSTRAINT transparency_stream_heads_pkey
  PRIMARY KEY (log_id, stream_id);
COMMENT ON COLUMN transparency_stream_heads.log_id IS 'The log ("store" or "streams").';

ALTER TABLE transparency_checkpoints ADD COLUMN log_id text COLLATE "C" NOT NULL DEFAULT 'store';
ALTER TABLE transparency_checkpoints ALTER COLUMN log_id DROP DEFAULT;
ALTER TABLE transparency_checkpoints DROP CONSTRAINT transparency_checkpoints_pkey;
ALTER TABLE transparency_checkpoints ADD CONSTRAINT transparency_checkpoints_pkey
  PRIMARY KEY (log_id, tree_size);
COMMENT ON COLUMN transparency_checkpoints.log_id IS 'The log the checkpoint is of; its origin is the server''s --log-origin for "store", and --log-origin, "/" and the log id for the others.';

CREATE TABLE transparency_checkpoint_leaves (
  log_id          text COLLATE "C" NOT NULL,
  leaf_index      bigint NOT NULL CHECK (leaf_index >= 0),
  checkpoint_log  text COLLATE "C" NOT NULL,
  checkpoint_size bigint NOT NULL CHECK (checkpoint_size >= 0),
  PRIMARY KEY (log_id, leaf_index),
  UNIQUE (log_id, checkpoint_log, checkpoint_size)
);
COMMENT ON TABLE transparency_checkpoint_leaves IS 'The leaves of the top-level log: each is a signed checkpoint of another log (transparency_checkpoints), its leaf data the SHA-256 of the checkpoint''s signed text. Append-only.';
COMMENT ON COLUMN transparency_checkpoint_leaves.log_id IS 'The log the leaf is of ("top").';
COMMENT ON COLUMN transparency_checkpoint_leaves.leaf_index IS 'Its index: 0, 1, 2, ... without gaps, in the order the checkpoints were logged.';
COMMENT ON COLUMN transparency_checkpoint_leaves.checkpoint_log IS 'The log of the checkpoint.';
COMMENT ON COLUMN transparency_checkpoint_leaves.checkpoint_size IS 'Its tree size.';

-- ---------------------------------------------------------------------------
-- 3. The games group first: the other parts need its shards.
-- ---------------------------------------------------------------------------
SELECT create_distributed_table('games', 'game_id', shard_count => 32, colocate_with => 'none');
SELECT create_distributed_table('events', 'game_id', colocate_with => 'games');
SELECT create_distributed_table('append_requests', 'game_id', colocate_with => 'games');
SELECT create_distributed_table('game_results', 'game_id', colocate_with => 'games');
SELECT create_distributed_table('dealer_secrets', 'game_id', colocate_with => 'games');
SELECT create_distributed_table('shard_heads', 'head_key', colocate_with => 'games');
SELECT create_distributed_table('played_game_keys', 'played_key', colocate_with => 'none');

-- ---------------------------------------------------------------------------
-- 4. One head, one checkpoint component and one log per shard of games.
-- The shards are numbered 0, 1, ... in the order of their hash ranges. Each
-- head gets the first key of "heads/0", "heads/1", ... that hashes into its
-- shard; every shard's positions continue from the store-wide head.
-- ---------------------------------------------------------------------------
CREATE TEMP TABLE layout_shards ON COMMIT DROP AS
SELECT (row_number() OVER (ORDER BY shardminvalue::int) - 1)::int AS shard, shardid
  FROM pg_dist_shard WHERE logicalrelid = 'games'::regclass;

INSERT INTO shard_heads (head_key, shard, last_position, last_order_time)
SELECT DISTINCT ON (s.shard) c.head_key, s.shard, (SELECT last_position FROM store_head), now()
  FROM layout_shards s
  JOIN (SELECT k, 'heads/' || k AS head_key,
               get_shard_id_for_distribution_column('games', 'heads/' || k) AS shardid
          FROM generate_series(0, 99999) AS k) c ON c.shardid = s.shardid
 ORDER BY s.shard, c.k;

DO $$
BEGIN
  IF (SELECT count(*) FROM shard_heads) <> (SELECT count(*) FROM layout_shards) THEN
    RAISE EXCEPTION 'found a head key for % of % shards', (SELECT count(*) FROM shard_heads),
      (SELECT count(*) FROM layout_shards);
  END IF;
END;
$$;

INSERT INTO projector_checkpoints (projector, position, shard)
SELECT p.projector, p.position, s.shard
  FROM projector_checkpoints p CROSS JOIN layout_shards s
 WHERE p.shard IS NULL;
DELETE FROM projector_checkpoints WHERE shard IS NULL;
ALTER TABLE projector_checkpoints ALTER COLUMN shard SET NOT NULL;
ALTER TABLE projector_checkpoints ADD CONSTRAINT projector_checkpoints_pkey PRIMARY KEY (projector, shard);

INSERT INTO transparency_head (log_id, tree_size, events_position)
SELECT 'shards/' || shard, 0, (SELECT last_position FROM store_head) FROM layout_shards
UNION ALL SELECT 'streams', 0, 0
UNION ALL SELECT 'top', 0, 0;
INSERT INTO transparency_stream_heads (log_id, stream_id, sequence)
SELECT 'streams', stream_id, sequence FROM transparency_stream_heads WHERE log_id = 'store';

-- ---------------------------------------------------------------------------
-- 5. The other groups and the reference tables; the foreign keys back.
-- ---------------------------------------------------------------------------
SELECT create_distributed_table('streams', 'stream_id', colocate_with => 'none');
SELECT create_distributed_table('stream_events', 'stream_id', colocate_with => 'streams');

SELECT create_distributed_table('league_projections', 'league_id', colocate_with => 'none');
SELECT create_distributed_table('league_tables', 'league_id', colocate_with => 'league_projections');
SELECT create_distributed_table('league_ratings', 'league_id', colocate_with => 'league_projections');
SELECT create_distributed_table('league_history_chunks', 'league_id',
                                colocate_with => 'league_projections');

SELECT create_distributed_table('transparency_head', 'log_id', colocate_with => 'none');
SELECT create_distributed_table('transparency_segments', 'log_id', colocate_with => 'transparency_head');
SELECT create_distributed_table('transparency_tiles', 'log_id', colocate_with => 'transparency_head');
SELECT create_distributed_table('transparency_stream_heads', 'log_id',
                                colocate_with => 'transparency_head');
SELECT create_distributed_table('transparency_checkpoints', 'log_id',
                                colocate_with => 'transparency_head');
SELECT create_distributed_table('transparency_checkpoint_leaves', 'log_id',
                                colocate_with => 'transparency_head');

SELECT create_reference_table('tokens');
SELECT create_reference_table('schema_migrations');
SELECT create_reference_table('store_head');
SELECT create_reference_table('projector_checkpoints');
SELECT create_reference_table('leases');
SELECT create_reference_table('lease_requests');
-- The one identity (origin, public key) every log is signed under: the
-- shard, streams and top logs' origins are this origin followed by "/" and
-- the log id, under the same key (docs/scale-out.md).
SELECT create_reference_table('transparency_log_binding');

ALTER TABLE append_requests ADD CONSTRAINT append_requests_game_id_fkey
  FOREIGN KEY (game_id) REFERENCES games (game_id);
ALTER TABLE stream_events ADD CONSTRAINT stream_events_stream_id_fkey
  FOREIGN KEY (stream_id) REFERENCES streams (stream_id);

-- ---------------------------------------------------------------------------
-- 6. Triggers, views (created again, which also gives them to the workers)
-- and privileges of what is new. Row triggers run on the shards; TRUNCATE
-- triggers stay on the coordinator's tables (Citus puts none on shards).
-- ---------------------------------------------------------------------------
CREATE TRIGGER games_fixed_columns BEFORE UPDATE OR DELETE ON games
  FOR EACH ROW EXECUTE FUNCTION arbiter_games_fixed();
CREATE TRIGGER games_no_truncate BEFORE TRUNCATE ON games
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER games_played_key_fixed BEFORE UPDATE ON games
  FOR EACH ROW EXECUTE FUNCTION arbiter_games_played_key_fixed();
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER events_notify AFTER INSERT ON events
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_events_notify();
CREATE TRIGGER append_requests_append_only BEFORE UPDATE OR DELETE ON append_requests
  FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER append_requests_no_truncate BEFORE TRUNCATE ON append_requests
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER append_requests_record_result AFTER INSERT ON append_requests
  FOR EACH ROW EXECUTE FUNCTION arbiter_record_result();
CREATE TRIGGER game_results_append_only BEFORE UPDATE OR DELETE ON game_results
  FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER game_results_no_truncate BEFORE TRUNCATE ON game_results
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER played_game_keys_append_only BEFORE UPDATE OR DELETE ON played_game_keys
  FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER played_game_keys_no_truncate BEFORE TRUNCATE ON played_game_keys
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER stream_events_append_only BEFORE UPDATE OR DELETE ON stream_events
  FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER stream_events_no_truncate BEFORE TRUNCATE ON stream_events
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_segments_append_only BEFORE UPDATE OR DELETE
  ON transparency_segments FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_segments_no_truncate BEFORE TRUNCATE ON transparency_segments
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_tiles_append_only BEFORE UPDATE OR DELETE ON transparency_tiles
  FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_tiles_no_truncate BEFORE TRUNCATE ON transparency_tiles
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_checkpoints_append_only BEFORE UPDATE OR DELETE
  ON transparency_checkpoints FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_checkpoints_no_truncate BEFORE TRUNCATE ON transparency_checkpoints
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_checkpoint_leaves_append_only BEFORE UPDATE OR DELETE
  ON transparency_checkpoint_leaves FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_checkpoint_leaves_no_truncate BEFORE TRUNCATE
  ON transparency_checkpoint_leaves FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_log_binding_append_only BEFORE UPDATE OR DELETE
  ON transparency_log_binding FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_log_binding_no_truncate BEFORE TRUNCATE ON transparency_log_binding
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();

CREATE OR REPLACE VIEW events_readable AS
SELECT r.first_position + (e.sequence - r.first_sequence) AS position,
       e.game_id, e.sequence,
       coalesce(e.event_id, arbiter_derived_event_id(e.game_id, e.sequence)) AS event_id,
       e.type, e.payload, e.payload_json, r.recorded_by, r.recorded_at,
       CASE WHEN e.sequence = 1 THEN repeat('0', 64)
            ELSE (SELECT encode(p.hash, 'hex') FROM events p
                  WHERE p.game_id = e.game_id AND p.sequence = e.sequence - 1) END AS prev_hash,
       encode(e.hash, 'hex') AS hash,
       r.shard, r.order_time
FROM append_requests r
JOIN events e ON e.game_id = r.game_id AND e.sequence BETWEEN r.first_sequence AND r.last_sequence;
COMMENT ON VIEW events_readable IS 'Every event with its position and every field the hash chain covers (hashes as hex). Positions are per shard (shard), store-wide where shard is NULL: ORDER BY shard, position is commit order within each shard.';
CREATE OR REPLACE VIEW events_in_order AS SELECT * FROM events_readable;
COMMENT ON VIEW events_in_order IS 'The same as events_readable.';

CREATE OR REPLACE VIEW transparency_leaves AS
SELECT s.first_leaf + g AS leaf_index,
       s.position + g AS position,
       s.stream_id,
       s.sequence + g AS sequence,
       s.log_id
FROM transparency_segments s, generate_series(0, s.leaves - 1) AS g;
COMMENT ON VIEW transparency_leaves IS 'Every leaf of the transparency logs (but "top", whose leaves are in transparency_checkpoint_leaves) with its event: a game event by position, or a stream event by stream and sequence.';

GRANT SELECT, UPDATE (last_position, last_order_time) ON shard_heads TO arbiter_service;
GRANT SELECT, INSERT ON played_game_keys, transparency_checkpoint_leaves TO arbiter_service;
GRANT SELECT, INSERT ON transparency_head TO arbiter_service;

COMMIT;
