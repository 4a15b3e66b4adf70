-- 0019: player tokens. A player's token is bound to the player id (its
-- principal) and to the games it may play, listed here, or to tournaments
-- (tokens.tournaments), whose every table the player sits at. Forward only:
-- never edit this file once landed.
ALTER TABLE tokens DROP CONSTRAINT tokens_role_check;
ALTER TABLE tokens ADD CONSTRAINT tokens_role_check
  CHECK (role IN ('admin', 'organiser', 'auditor', 'public', 'player'));
ALTER TABLE tokens ADD COLUMN games text[] NOT NULL DEFAULT '{}';
COMMENT ON COLUMN tokens.role IS 'admin, organiser, auditor, public or player.';
COMMENT ON COLUMN tokens.games IS 'A player''s games (ids), at the seat of its principal.';
COMMENT ON COLUMN tokens.tournaments IS
  'An organiser''s tournaments; a player''s tournaments (every table it sits at).';
