-- 0014: the transparency log keeps its subtree hashes in tiles
-- (engine/merkle/tiles.h) instead of one row per perfect subtree: about one
-- row per fifteen leaves instead of two per leaf, which is most of what the
-- log builder wrote per event. Proofs and roots are unchanged; the subtrees
-- of other heights are recomputed from the tiles when read. Forward only:
-- never edit this file once landed.

-- Tile (tile_level, tile_index) holds the hashes of the perfect subtrees of
-- height 4 * tile_level with indexes 16 * tile_index to 16 * tile_index + 15,
-- concatenated. The rightmost tile of a level is stored again each time a
-- builder step ends with it wider; every stored width is a prefix of the
-- wider ones.
CREATE TABLE transparency_tiles (
  tile_level smallint NOT NULL CHECK (tile_level >= 0 AND tile_level < 16),
  tile_index bigint NOT NULL CHECK (tile_index >= 0),
  width      smallint NOT NULL CHECK (width BETWEEN 1 AND 16),
  hashes     bytea NOT NULL CHECK (octet_length(hashes) = 32 * width),
  PRIMARY KEY (tile_level, tile_index, width)
);
COMMENT ON TABLE transparency_tiles IS 'The transparency log''s subtree hashes, sixteen to a tile (engine/merkle/tiles.h). Append-only.';
COMMENT ON COLUMN transparency_tiles.tile_level IS 'The tile holds subtrees of height 4 * tile_level (0: leaf hashes).';
COMMENT ON COLUMN transparency_tiles.tile_index IS 'Its first subtree has index 16 * tile_index at that height.';
COMMENT ON COLUMN transparency_tiles.width IS 'How many hashes it holds (16 when full).';
COMMENT ON COLUMN transparency_tiles.hashes IS 'The hashes, 32 bytes each, in index order.';

-- The subtrees already built, into tiles: each tile at the width it has.
INSERT INTO transparency_tiles (tile_level, tile_index, width, hashes)
SELECT level / 4, index / 16, count(*), string_agg(hash, ''::bytea ORDER BY index)
FROM transparency_nodes
WHERE level % 4 = 0
GROUP BY level / 4, index / 16;

DROP TABLE transparency_nodes;

CREATE TRIGGER transparency_tiles_append_only BEFORE UPDATE OR DELETE ON transparency_tiles
  FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_tiles_no_truncate BEFORE TRUNCATE ON transparency_tiles
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();

GRANT SELECT, INSERT ON transparency_tiles TO arbiter_service;
