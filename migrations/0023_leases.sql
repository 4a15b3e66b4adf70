-- 0023: leases for the work that must run in one arbiterd at a time (the
-- league projector, the transparency-log builder, the reveal sweeper), and
-- the requests other servers leave for a lease's holder
-- (docs/replication.md, "Singletons"). Forward only: never edit this file
-- once landed.
--
-- A lease is a row: who holds it, until when by the database's clock, and
-- its fencing token, which grows by one at every grant after the first (a
-- takeover, or a holder taking its own expired lease again). A holder
-- renews it well before it expires; a server that finds it expired takes it
-- over. Every write the holder makes checks, in its own transaction and
-- with the row locked FOR SHARE (so no takeover can commit in between), that
-- the row still names it, with its token, unexpired: a holder that was
-- paused or cut off past its lease writes nothing. The services' SQL is
-- services/store/pg/leases.cc.
CREATE TABLE leases (
  name        text COLLATE "C" PRIMARY KEY,
  holder      text NOT NULL,
  token       bigint NOT NULL CHECK (token >= 1),
  expires_at  timestamptz NOT NULL,
  acquired_at timestamptz NOT NULL,
  renewed_at  timestamptz NOT NULL
);
COMMENT ON TABLE leases IS
  'One row per singleton (projector:leagues, transparency, reveal-sweeper): which arbiterd may '
  'run it now. A write of the singleton is refused unless this row names its holder and token '
  'and has not expired.';
COMMENT ON COLUMN leases.name IS 'The work the lease is for: projector:leagues, transparency, reveal-sweeper.';
COMMENT ON COLUMN leases.holder IS 'The arbiterd process holding it: host:pid:random, as in its log lines.';
COMMENT ON COLUMN leases.token IS 'The fencing token: 1 at the first grant, one more at every grant after it (a takeover); never smaller.';
COMMENT ON COLUMN leases.expires_at IS 'When the lease lapses unless renewed (the database''s clock: now + ttl at each grant or renewal).';
COMMENT ON COLUMN leases.acquired_at IS 'When the current holder was granted this token.';
COMMENT ON COLUMN leases.renewed_at IS 'When the current holder last renewed it.';

-- Work asked of a lease's holder by another server: "rebuild league L now"
-- (lease projector:leagues, subject the league id) or "sign a checkpoint now"
-- (lease transparency, subject ''). The asker adds one to `requested` and
-- waits until the holder has set `done` to at least that number; the holder
-- sets it in the fenced transaction that did the work.
CREATE TABLE lease_requests (
  lease     text COLLATE "C" NOT NULL,
  subject   text COLLATE "C" NOT NULL,
  requested bigint NOT NULL CHECK (requested >= 1),
  done      bigint NOT NULL DEFAULT 0 CHECK (done >= 0),
  PRIMARY KEY (lease, subject)
);
COMMENT ON TABLE lease_requests IS
  'Work asked of the holder of a lease by another server, and how far the holder has done it.';
COMMENT ON COLUMN lease_requests.lease IS 'The lease whose holder is asked (leases.name).';
COMMENT ON COLUMN lease_requests.subject IS 'What is asked about: a league id for projector:leagues; empty for transparency.';
COMMENT ON COLUMN lease_requests.requested IS 'The number of the latest request: each asker adds one and waits for it.';
COMMENT ON COLUMN lease_requests.done IS 'The number of the latest request the holder has done.';

GRANT SELECT, INSERT, UPDATE (holder, token, expires_at, acquired_at, renewed_at) ON leases
  TO arbiter_service;
GRANT SELECT, INSERT, UPDATE (requested, done) ON lease_requests TO arbiter_service;
