-- 0011: a tournament's results in one read. Forward only: never edit this
-- file once landed.

-- game_results already lists every game_finished and game_voided event with
-- the game's tournament; this index lets the tournament service read all the
-- results of one tournament (its tables' outcomes) in position order,
-- instead of reading each table's game on its own.
CREATE INDEX game_results_by_tournament ON game_results (tournament_id, position)
  WHERE tournament_id IS NOT NULL;
