-- 0018: a result row carries what rating needs of its event (the payload
-- and the time), so that a league's rebuild reads its results as one range
-- of game_results_by_league instead of one look-up in events per result: a
-- million look-ups for a large league, in a table that holds every action of
-- every game. game_results stays an index of the event log kept by the
-- trigger below: the copy is made in the writing transaction from the event
-- itself, and events never change (events_append_only). Forward only: never
-- edit this file once landed.

ALTER TABLE game_results ADD COLUMN recorded_micros bigint, ADD COLUMN payload bytea;

-- The rows so far get their copies now; the append-only guard steps aside
-- for this one statement of the migration's own transaction.
ALTER TABLE game_results DISABLE TRIGGER game_results_append_only;
UPDATE game_results r
   SET recorded_micros = (extract(epoch FROM e.recorded_at) * 1000000)::bigint,
       payload = e.payload
  FROM events e
 WHERE e.game_id = r.game_id AND e.sequence = r.sequence;
ALTER TABLE game_results ENABLE TRIGGER game_results_append_only;
ALTER TABLE game_results ALTER COLUMN recorded_micros SET NOT NULL,
                         ALTER COLUMN payload SET NOT NULL;

COMMENT ON COLUMN game_results.recorded_micros IS 'The event''s recorded_at in microseconds since 1970 (UTC), converted as the store''s reads convert it.';
COMMENT ON COLUMN game_results.payload IS 'The event''s payload (GameFinished or GameVoided), copied from it when it was stored.';

CREATE OR REPLACE FUNCTION arbiter_record_result() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  last_type text;
  last_payload bytea;
  last_micros bigint;
  new_kind text;
  league text;
  tournament text;
BEGIN
  SELECT type, payload, (extract(epoch FROM recorded_at) * 1000000)::bigint
    INTO last_type, last_payload, last_micros
    FROM events
   WHERE game_id = NEW.game_id AND sequence = NEW.last_sequence;
  IF last_type = 'game_finished' THEN
    new_kind := 'finished';
  ELSIF last_type = 'game_voided' THEN
    new_kind := 'voided';
  ELSE
    RETURN NULL;
  END IF;
  UPDATE games SET status = new_kind WHERE game_id = NEW.game_id
    RETURNING league_id, tournament_id INTO league, tournament;
  INSERT INTO game_results (position, game_id, sequence, kind, league_id, tournament_id,
                            recorded_micros, payload)
  VALUES (NEW.last_position, NEW.game_id, NEW.last_sequence, new_kind, league, tournament,
          last_micros, last_payload);
  RETURN NULL;
END;
$$;
