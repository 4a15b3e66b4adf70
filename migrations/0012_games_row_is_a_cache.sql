-- 0012: the games row is a cache of the game's hash-chained events. Forward
-- only: never edit this file once landed.

-- Everything a verdict depends on (seed or commitment, players, ruleset,
-- league, tournament) is read from the game's event 1, which the hash chain
-- covers; the row keeps a copy for listing and indexing. This trigger
-- freezes the copy: a fixed column never changes, and the status moves only
-- as the game's chained events move it (active -> finished by a
-- game_finished event, active or finished -> voided by a game_voided event;
-- a tournament ruling may void a finished game). last_sequence and
-- last_hash follow the chain and are checked against it by every append and
-- by VerifyGame. A superuser who disables the trigger can still edit the
-- row: VerifyGame then reports the column that disagrees with the chain
-- (bad_column), and verdicts do not change, since they read the chain.
CREATE FUNCTION arbiter_games_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'games rows are never deleted: game "%"', OLD.game_id
      USING ERRCODE = 'AR002';
  END IF;
  changed := CASE
    WHEN NEW.game_id IS DISTINCT FROM OLD.game_id THEN 'game_id'
    WHEN NEW.game IS DISTINCT FROM OLD.game THEN 'game'
    WHEN NEW.ruleset_id IS DISTINCT FROM OLD.ruleset_id THEN 'ruleset_id'
    WHEN NEW.ruleset_hash IS DISTINCT FROM OLD.ruleset_hash THEN 'ruleset_hash'
    WHEN NEW.seed IS DISTINCT FROM OLD.seed THEN 'seed'
    WHEN NEW.seed_commitment IS DISTINCT FROM OLD.seed_commitment THEN 'seed_commitment'
    WHEN NEW.players IS DISTINCT FROM OLD.players THEN 'players'
    WHEN NEW.created_by IS DISTINCT FROM OLD.created_by THEN 'created_by'
    WHEN NEW.created_at IS DISTINCT FROM OLD.created_at THEN 'created_at'
    WHEN NEW.league_id IS DISTINCT FROM OLD.league_id THEN 'league_id'
    WHEN NEW.tournament_id IS DISTINCT FROM OLD.tournament_id THEN 'tournament_id'
    WHEN NEW.create_request_id IS DISTINCT FROM OLD.create_request_id THEN 'create_request_id'
    WHEN NEW.create_digest IS DISTINCT FROM OLD.create_digest THEN 'create_digest'
    ELSE NULL
  END;
  IF changed IS NOT NULL THEN
    RAISE EXCEPTION 'games.% is fixed at creation: game "%"', changed, OLD.game_id
      USING ERRCODE = 'AR002',
            HINT = 'The row is a cache of the game''s event 1; corrections are new events.';
  END IF;
  IF NEW.status IS DISTINCT FROM OLD.status AND NOT (
       (OLD.status = 'active' AND NEW.status IN ('finished', 'voided')) OR
       (OLD.status = 'finished' AND NEW.status = 'voided')) THEN
    RAISE EXCEPTION 'game "%" cannot move from % to %', OLD.game_id, OLD.status, NEW.status
      USING ERRCODE = 'AR002',
            HINT = 'Status moves only by a chained game_finished or game_voided event.';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER games_fixed_columns BEFORE UPDATE OR DELETE ON games
  FOR EACH ROW EXECUTE FUNCTION arbiter_games_fixed();
CREATE TRIGGER games_no_truncate BEFORE TRUNCATE ON games
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();
COMMENT ON TABLE games IS 'One row per game: a cache of its event 1 (frozen by the trigger games_fixed_columns) plus the head of its event chain and its status, which move only as its chained events do.';
