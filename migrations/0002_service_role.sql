-- 0002: the role the service works as. Forward only: never edit once landed.
-- arbiter_service cannot log in; the service logs in as any role that is a
-- member of it (GRANT arbiter_service TO <login>) and runs SET ROLE.
-- Roles are cluster-wide, so the role may already exist (another database).
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'arbiter_service') THEN
    CREATE ROLE arbiter_service NOLOGIN;
  END IF;
END
$$;

GRANT USAGE ON SCHEMA public TO arbiter_service;
-- Events and request answers: only INSERT and SELECT, never UPDATE/DELETE.
GRANT SELECT, INSERT ON events, append_requests TO arbiter_service;
GRANT SELECT, INSERT ON games TO arbiter_service;
GRANT UPDATE (status, last_sequence, last_hash) ON games TO arbiter_service;
GRANT SELECT, UPDATE (last_position) ON store_head TO arbiter_service;
GRANT SELECT ON schema_migrations TO arbiter_service;
