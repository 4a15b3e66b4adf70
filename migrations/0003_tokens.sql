-- 0003: bearer tokens of the gRPC service. Forward only: never edit this
-- file once landed. A token is "arb_<token_id>_<secret>"; only the SHA-256
-- of the whole token is stored, so the table cannot be used to log in.
CREATE TABLE tokens (
  token_id    text COLLATE "C" PRIMARY KEY,
  token_hash  text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  role        text NOT NULL CHECK (role IN ('admin', 'organiser', 'auditor', 'public')),
  principal   text NOT NULL,
  leagues     text[] NOT NULL DEFAULT '{}',
  tournaments text[] NOT NULL DEFAULT '{}',
  request_id  text COLLATE "C" UNIQUE,
  created_by  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE tokens IS 'Bearer tokens of the gRPC service, stored hashed.';
COMMENT ON COLUMN tokens.token_id IS 'The public part of the token (after "arb_"), for logs.';
COMMENT ON COLUMN tokens.token_hash IS 'SHA-256 (hex) of the whole token string.';
COMMENT ON COLUMN tokens.role IS 'admin, organiser, auditor or public.';
COMMENT ON COLUMN tokens.principal IS 'Who holds the token; recorded as creator of games and events.';
COMMENT ON COLUMN tokens.leagues IS 'An organiser''s leagues.';
COMMENT ON COLUMN tokens.tournaments IS 'An organiser''s tournaments.';
COMMENT ON COLUMN tokens.request_id IS 'The CreateToken request id (NULL for the bootstrap token).';
COMMENT ON COLUMN tokens.created_by IS 'Principal that created the token.';
COMMENT ON COLUMN tokens.created_at IS 'When the token was created.';

GRANT SELECT, INSERT ON tokens TO arbiter_service;
