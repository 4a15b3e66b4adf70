-- 0015: a player's rating history is stored in chunks of up to 32 points
-- (services/league/history_chunks.h) instead of one row per point: a rebuild
-- of a league of a million four-player games writes about 100,000 rows
-- instead of four million. The API answers are unchanged. Forward only:
-- never edit this file once landed.
--
-- The projections are derived from the logs, so nothing is converted: the
-- old history goes, the other projection rows are emptied, and the league
-- projector rebuilds every league on its next step (as after a crash of
-- PostgreSQL, which empties these unlogged tables). The checkpoint is kept:
-- a league without a league_projections row is rebuilt from the logs up to
-- the store head whatever the checkpoint.
DROP TABLE league_rating_history;
TRUNCATE league_ratings, league_tables, league_projections;

-- Unlogged and rewritten by the projector, as the other league projections
-- (migration 0007).
CREATE UNLOGGED TABLE league_history_chunks (
  league_id text COLLATE "C" NOT NULL,
  season    text COLLATE "C" NOT NULL,
  player    text COLLATE "C" NOT NULL,
  chunk     bigint NOT NULL CHECK (chunk >= 0),
  points    integer NOT NULL CHECK (points BETWEEN 1 AND 32),
  data      bytea NOT NULL,
  PRIMARY KEY (league_id, season, player, chunk)
);
COMMENT ON TABLE league_history_chunks IS 'A player''s rating after each rated game, 32 points to a chunk (services/league/history_chunks.h). Derived.';
COMMENT ON COLUMN league_history_chunks.league_id IS 'The league.';
COMMENT ON COLUMN league_history_chunks.season IS 'The table: '''' for all time, else the season.';
COMMENT ON COLUMN league_history_chunks.player IS 'The player (or virtual opponent).';
COMMENT ON COLUMN league_history_chunks.chunk IS 'Holds the points with games 32 * chunk + 1 to 32 * chunk + 32 (games: the player''s rated games on the table, that one included).';
COMMENT ON COLUMN league_history_chunks.points IS 'How many points data holds (32 once full).';
COMMENT ON COLUMN league_history_chunks.data IS 'The points, oldest first, each encoded as history_chunks.h says (stored: never renumber); the projector appends to the last chunk.';

GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON league_history_chunks TO arbiter_service;
