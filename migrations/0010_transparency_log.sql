-- 0010: the transparency log. Every event hash of the store (game events and
-- stream events) enters, in one global order, a Merkle tree in the manner of
-- RFC 6962 (engine/merkle/merkle.h); arbiterd signs checkpoints of it
-- (docs/transparency.md). Forward only: never edit this file once landed.
--
-- One log builder at a time (arbiterd, under an advisory lock) reads events
-- that have committed, gives them the next leaf indexes in the order it reads
-- them, and stores which events they are, the hashes of the perfect subtrees
-- they complete and its progress in one transaction, off the append path: an
-- append writes nothing here.

-- Which event each leaf is, one row per run of leaves the builder added
-- together: a run of game events (consecutive store positions from
-- `position`) or a run of one stream's events (consecutive sequences from
-- `sequence`). A row per run instead of per leaf keeps the builder's writes
-- to the subtree hashes. Stored: never renumber a leaf.
CREATE TABLE transparency_segments (
  first_leaf bigint PRIMARY KEY CHECK (first_leaf >= 0),
  leaves     bigint NOT NULL CHECK (leaves >= 1),
  position   bigint CHECK (position >= 1),
  stream_id  text COLLATE "C",
  sequence   bigint CHECK (sequence >= 1),
  CHECK ((position IS NULL) <> (stream_id IS NULL)),
  CHECK ((stream_id IS NULL) = (sequence IS NULL))
);
CREATE UNIQUE INDEX transparency_segments_by_position ON transparency_segments (position)
  WHERE position IS NOT NULL;
CREATE UNIQUE INDEX transparency_segments_by_stream ON transparency_segments (stream_id, sequence)
  WHERE stream_id IS NOT NULL;
COMMENT ON TABLE transparency_segments IS 'Which events are the leaves of the transparency log, by runs. Append-only. The leaf hash of an event is SHA-256(0x00 || the 32 bytes of its hash), stored as node (0, leaf index).';
COMMENT ON COLUMN transparency_segments.first_leaf IS 'Index of the run''s first leaf (leaves are 0, 1, 2, ... without gaps, in the order the builder read the events).';
COMMENT ON COLUMN transparency_segments.leaves IS 'Leaves in the run.';
COMMENT ON COLUMN transparency_segments.position IS 'Game events: the store position of the first; the others follow without gaps.';
COMMENT ON COLUMN transparency_segments.stream_id IS 'Stream events: their stream.';
COMMENT ON COLUMN transparency_segments.sequence IS 'Stream events: the sequence of the first; the others follow without gaps.';

-- One row per leaf, for people and SQL: leaf index and its event.
CREATE VIEW transparency_leaves AS
SELECT s.first_leaf + g AS leaf_index,
       s.position + g AS position,
       s.stream_id,
       s.sequence + g AS sequence
FROM transparency_segments s, generate_series(0, s.leaves - 1) AS g;
COMMENT ON VIEW transparency_leaves IS 'Every leaf of the transparency log with its event: a game event by store position, or a stream event by stream and sequence.';

-- Every perfect subtree of the tree: level L, index I covers leaves
-- [I * 2^L, (I + 1) * 2^L). Level 0 holds the leaf hashes.
CREATE TABLE transparency_nodes (
  level smallint NOT NULL CHECK (level >= 0 AND level < 64),
  index bigint NOT NULL CHECK (index >= 0),
  hash  bytea NOT NULL CHECK (octet_length(hash) = 32),
  PRIMARY KEY (level, index)
);
COMMENT ON TABLE transparency_nodes IS 'The hash of every perfect subtree of the transparency log (RFC 6962 node hashes; level 0: leaf hashes). Append-only.';
COMMENT ON COLUMN transparency_nodes.level IS 'Height of the subtree: it covers 2^level leaves.';
COMMENT ON COLUMN transparency_nodes.index IS 'Which subtree of that height: it starts at leaf index * 2^level.';
COMMENT ON COLUMN transparency_nodes.hash IS 'Its hash: 32 bytes of SHA-256.';

-- The builder's progress: a single row.
CREATE TABLE transparency_head (
  id              boolean PRIMARY KEY DEFAULT true CHECK (id),
  tree_size       bigint NOT NULL CHECK (tree_size >= 0),
  events_position bigint NOT NULL CHECK (events_position >= 0)
);
INSERT INTO transparency_head (id, tree_size, events_position) VALUES (true, 0, 0);
COMMENT ON TABLE transparency_head IS 'One row: how far the log builder has gone.';
COMMENT ON COLUMN transparency_head.id IS 'Always true (there is one row).';
COMMENT ON COLUMN transparency_head.tree_size IS 'Leaves in the tree.';
COMMENT ON COLUMN transparency_head.events_position IS 'The last store position (game events) that is a leaf.';

CREATE TABLE transparency_stream_heads (
  stream_id text COLLATE "C" PRIMARY KEY,
  sequence  bigint NOT NULL CHECK (sequence >= 1)
);
COMMENT ON TABLE transparency_stream_heads IS 'Per stream, the last sequence that is a leaf.';
COMMENT ON COLUMN transparency_stream_heads.stream_id IS 'The stream.';
COMMENT ON COLUMN transparency_stream_heads.sequence IS 'Its last event in the tree.';

-- Signed checkpoints, in the note format of docs/transparency.md.
CREATE TABLE transparency_checkpoints (
  tree_size bigint PRIMARY KEY CHECK (tree_size >= 0),
  root_hash bytea NOT NULL CHECK (octet_length(root_hash) = 32),
  signed_at timestamptz NOT NULL,
  note      text NOT NULL
);
COMMENT ON TABLE transparency_checkpoints IS 'Every checkpoint arbiterd signed: the tree size, its root and the signed note. Append-only.';
COMMENT ON COLUMN transparency_checkpoints.tree_size IS 'Leaves in the tree the checkpoint commits to.';
COMMENT ON COLUMN transparency_checkpoints.root_hash IS 'The tree''s root hash (32 bytes).';
COMMENT ON COLUMN transparency_checkpoints.signed_at IS 'The time written in the note.';
COMMENT ON COLUMN transparency_checkpoints.note IS 'The signed note, byte for byte as served (docs/transparency.md).';

CREATE TRIGGER transparency_segments_append_only BEFORE UPDATE OR DELETE
  ON transparency_segments FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_segments_no_truncate BEFORE TRUNCATE ON transparency_segments
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_nodes_append_only BEFORE UPDATE OR DELETE ON transparency_nodes
  FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_nodes_no_truncate BEFORE TRUNCATE ON transparency_nodes
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_checkpoints_append_only BEFORE UPDATE OR DELETE
  ON transparency_checkpoints FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_checkpoints_no_truncate BEFORE TRUNCATE ON transparency_checkpoints
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();

GRANT SELECT, INSERT ON transparency_segments, transparency_nodes, transparency_checkpoints
  TO arbiter_service;
GRANT SELECT ON transparency_leaves TO arbiter_service;
GRANT SELECT, UPDATE (tree_size, events_position) ON transparency_head TO arbiter_service;
GRANT SELECT, INSERT, UPDATE (sequence) ON transparency_stream_heads TO arbiter_service;
