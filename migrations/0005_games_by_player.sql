-- 0005: list a player's games without scanning every game.
-- Forward only: never edit this file once landed.
CREATE INDEX games_by_player ON games USING gin (players);
COMMENT ON INDEX games_by_player IS 'ListGames filtered by player (players @> ARRAY[player]).';
