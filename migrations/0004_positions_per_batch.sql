-- 0004: appends take their store-wide positions at the end of the
-- transaction, so that appends to different games no longer run one at a time.
-- Forward only: never edit this file once landed.
--
-- Until now every event row carried its position, so an append had to lock
-- store_head before inserting its events and keep the lock until commit. Now
-- an append inserts its events first, without positions; only then does it
-- lock store_head, take the next positions for the whole batch, record them in
-- its append_requests row and commit. The lock still lasts until commit, so
-- positions stay gap-free and become visible in order (docs/event-store.md),
-- but it now covers one small row and the commit instead of the whole insert.
--
-- An event's position is the first_position of the batch that wrote it plus
-- its offset in the batch: first_position + (sequence - first_sequence). Every
-- event ever stored was written by an append that recorded such a row, so no
-- position is lost by dropping the column; the view events_in_order shows it.

ALTER TABLE events DROP CONSTRAINT events_pkey;
ALTER TABLE events DROP COLUMN position;
ALTER TABLE events DROP CONSTRAINT events_game_id_sequence_key;
ALTER TABLE events ADD CONSTRAINT events_pkey PRIMARY KEY (game_id, sequence);

-- Batches in store order (global reads) and per game (a game's positions).
CREATE UNIQUE INDEX append_requests_by_position ON append_requests (last_position);
CREATE INDEX append_requests_by_game ON append_requests (game_id, first_sequence);

CREATE VIEW events_in_order AS
SELECT r.first_position + (e.sequence - r.first_sequence) AS position, e.*
FROM append_requests r
JOIN events e ON e.game_id = r.game_id AND e.sequence BETWEEN r.first_sequence AND r.last_sequence;

GRANT SELECT ON events_in_order TO arbiter_service;

COMMENT ON TABLE events IS 'Every event of every game. Append-only: triggers refuse UPDATE, DELETE and TRUNCATE. Store-wide positions are in append_requests (see the view events_in_order).';
COMMENT ON TABLE append_requests IS 'One row per successful append (a batch of events of one game): its store-wide positions, and the answer a retry of it receives. Append-only.';
COMMENT ON COLUMN append_requests.first_position IS 'Store-wide position of the first event written: positions are 1, 2, 3, ... in commit order, without gaps.';
COMMENT ON VIEW events_in_order IS 'Every event with its store-wide position: ORDER BY position is commit order.';
COMMENT ON TABLE store_head IS 'One row holding the last assigned store-wide position; an append locks it after inserting its events and keeps the lock until commit.';
