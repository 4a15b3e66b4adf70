-- 0020: the played game's key. Forward only: never edit this file once landed.
--
-- A submitted log's key is the SHA-256 of its header and actions
-- (services/games/played_game.h); two games stored with a key never share it,
-- so the same played game cannot be stored (and rated) twice under two ids.
-- A game submitted with allow_duplicate is stored without a key and its
-- event 1 names the game it duplicates. Like the rest of the row, the key is
-- derived from the game's events and fixed at creation.
ALTER TABLE games ADD COLUMN played_key text;
CREATE UNIQUE INDEX games_played_key ON games (played_key) WHERE played_key IS NOT NULL;
COMMENT ON COLUMN games.played_key IS
  'SHA-256 (hex) of a submitted log''s header and actions; unique; NULL for games created live '
  'or stored with allow_duplicate.';

CREATE FUNCTION arbiter_games_played_key_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.played_key IS DISTINCT FROM OLD.played_key THEN
    RAISE EXCEPTION 'games.played_key is fixed at creation: game "%"', OLD.game_id
      USING ERRCODE = 'AR002',
            HINT = 'The key is derived from the game''s header and actions.';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER games_played_key_fixed BEFORE UPDATE ON games
  FOR EACH ROW EXECUTE FUNCTION arbiter_games_played_key_fixed();
