-- 0006: keep the readable JSON copy of each event as the text the writer
-- sent (type json) instead of PostgreSQL's parsed jsonb.
-- Forward only: never edit this file once landed.
--
-- Building jsonb was about a quarter of PostgreSQL's cost of inserting an
-- event. json checks the syntax and stores the text unchanged, so the copy
-- is now byte for byte the line the writer printed (key order and spacing
-- included). Auditors who want jsonb's operators cast: payload_json::jsonb.
-- The stores refuse "\u0000" as before, so every copy they write casts.

DROP VIEW events_in_order;
ALTER TABLE events ALTER COLUMN payload_json TYPE json USING payload_json::json;
CREATE VIEW events_in_order AS
SELECT r.first_position + (e.sequence - r.first_sequence) AS position, e.*
FROM append_requests r
JOIN events e ON e.game_id = r.game_id AND e.sequence BETWEEN r.first_sequence AND r.last_sequence;

GRANT SELECT ON events_in_order TO arbiter_service;

COMMENT ON VIEW events_in_order IS 'Every event with its store-wide position: ORDER BY position is commit order.';
COMMENT ON COLUMN events.payload_json IS 'A readable JSON copy of the payload for auditors, as the writer sent it (not hashed; may be NULL; cast to jsonb for its operators).';
