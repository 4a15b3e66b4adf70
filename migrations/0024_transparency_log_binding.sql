-- 0024: which identity the database's transparency log is signed under. Every
-- arbiterd on one database builds and signs the same tree (under the lease
-- "transparency", 0023), so every one must sign with the same Ed25519 key and
-- the same origin (--transparency-key, --log-origin): checkpoints of one tree
-- under two identities would be two logs to an auditor, each with a history
-- the other's key cannot vouch for. This table holds the one identity the
-- log is bound to; arbiterd compares its own with it at start and refuses to
-- start, writing nothing, if they differ (docs/replication.md,
-- "Misconfiguration"). Forward only: never edit this file once landed.
--
-- The first arbiterd to start on a database claims it
-- (INSERT ... ON CONFLICT DO NOTHING, then reads what is stored, so of two
-- servers starting at once one claims and the other compares). A database
-- that signed checkpoints before this migration is bound at the next start:
-- a checkpoint names its origin and key id but not the public key, so this
-- file cannot bind it; the first arbiterd whose key verifies the latest
-- checkpoint binds it to that key, and one whose key does not is refused.
-- At every start arbiterd also checks that the bound key verifies the latest
-- checkpoint, so a binding row rewritten by someone who can write the
-- database (this table refuses changes to the service's role, not to a
-- superuser) is refused too. The SQL is services/store/pg/log_binding.cc.
CREATE TABLE transparency_log_binding (
  id         boolean PRIMARY KEY DEFAULT true CHECK (id),
  origin     text NOT NULL CHECK (origin <> ''),
  public_key bytea NOT NULL CHECK (octet_length(public_key) = 32),
  bound_at   timestamptz NOT NULL DEFAULT now(),
  bound_by   text NOT NULL
);
COMMENT ON TABLE transparency_log_binding IS
  'One row: the origin and Ed25519 public key that every checkpoint of this database''s '
  'transparency log is signed under. Written once, by the first arbiterd to start; never changed.';
COMMENT ON COLUMN transparency_log_binding.id IS 'Always true (there is one row).';
COMMENT ON COLUMN transparency_log_binding.origin IS 'The log''s name, written in every checkpoint and the signing key''s name (arbiterd --log-origin).';
COMMENT ON COLUMN transparency_log_binding.public_key IS 'The 32 bytes of the Ed25519 public key (the key of arbiterd --transparency-key; its verifier key is transparency.pub).';
COMMENT ON COLUMN transparency_log_binding.bound_at IS 'When the row was written.';
COMMENT ON COLUMN transparency_log_binding.bound_by IS 'What wrote it, for people: the first arbiterd to start (host:pid), or the one that bound a log from before this migration from its latest checkpoint.';

CREATE TRIGGER transparency_log_binding_append_only BEFORE UPDATE OR DELETE
  ON transparency_log_binding FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_log_binding_no_truncate BEFORE TRUNCATE ON transparency_log_binding
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();

GRANT SELECT, INSERT ON transparency_log_binding TO arbiter_service;
