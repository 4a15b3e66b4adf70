-- 0021: the dealer's secrets of dealt games. Forward only: never edit this
-- file once landed.
--
-- A dealt game's event 1 holds only the commitment to a secret the server
-- drew; the secret itself is kept here while the game is played, so that the
-- server can deal, and is recorded in the game's "dealer_revealed" event when
-- the game ends or is voided (docs/chance.md, "Dealt games"). Whoever can
-- read this table during play knows every hidden card of every live dealt
-- game, as a dealer does: grant it to nobody but the service. A secret
-- changed here no longer opens its game's commitment, and the game's reveal
-- says so (VerifyGame, arbiter audit).
CREATE TABLE dealer_secrets (
  game_id text PRIMARY KEY,
  secret bytea NOT NULL CHECK (octet_length(secret) = 32)
);
COMMENT ON TABLE dealer_secrets IS
  'The server''s secret of each dealt game (32 bytes), kept until the game ends and the secret '
  'is recorded in its dealer_revealed event. Readable by the service only.';
REVOKE ALL ON dealer_secrets FROM PUBLIC;
GRANT SELECT, INSERT ON dealer_secrets TO arbiter_service;
