-- 0008: tokens expire and can be revoked. Forward only: never edit this file
-- once landed. A token is refused once now() >= expires_at or once
-- revoked_at is set; rows are kept (never deleted) so that logs and games
-- that name a token id keep meaning something.
ALTER TABLE tokens ADD COLUMN expires_at timestamptz;
ALTER TABLE tokens ADD COLUMN revoked_at timestamptz;
ALTER TABLE tokens ADD COLUMN revoked_by text;
ALTER TABLE tokens ADD CONSTRAINT tokens_revoked_by_with_revoked_at
  CHECK ((revoked_at IS NULL) = (revoked_by IS NULL));
COMMENT ON COLUMN tokens.expires_at IS 'When the token stops working (NULL: never; CreateToken ttl).';
COMMENT ON COLUMN tokens.revoked_at IS 'When the token was revoked (NULL: not revoked). Set once.';
COMMENT ON COLUMN tokens.revoked_by IS 'Principal that revoked the token (NULL: not revoked).';

-- The service revokes tokens; it never changes anything else in a row.
GRANT UPDATE (revoked_at, revoked_by) ON tokens TO arbiter_service;
