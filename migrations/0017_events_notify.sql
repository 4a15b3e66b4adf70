-- 0017: every statement that stores events wakes the servers that follow
-- the store (services/store/postgres_change_feed.h) with a NOTIFY on the
-- channel "arbiter_events". The notification carries nothing: a follower
-- reads what is new by position, so a lost or merged notification loses
-- nothing, it only delays. PostgreSQL sends it at commit, once per
-- transaction. Forward only: never edit this file once landed.

CREATE FUNCTION arbiter_events_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('arbiter_events', '');
  RETURN NULL;
END;
$$;
COMMENT ON FUNCTION arbiter_events_notify() IS 'Wakes the followers of the store (LISTEN arbiter_events) when events are stored.';

CREATE TRIGGER events_notify AFTER INSERT ON events
FOR EACH STATEMENT EXECUTE FUNCTION arbiter_events_notify();
