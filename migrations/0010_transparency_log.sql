-- 0010: the transparency log. Every event hash of the store (game events and
-- stream events) enters, in one global order, a Merkle tree in the manner of
-- RFC 6962 (engine/merkle/merkle.h); arbiterd signs checkpoints of it
-- (docs/transparency.md). Forward only: never edit this file once landed.
--
-- One log builder at a time (arbiterd, under an advisory lock) reads events
-- that have committed, gives them the next leaf indexes in the order it reads
-- them, and stores the leaves, the hashes of the perfect subtrees they
-- complete and its progress in one transaction, off the append path: an
-- append writes nothing here.

-- Stored: never renumber a leaf. Exactly one of `position` (a game event, by
-- its store position) and (`stream_id`, `sequence`) (a stream event) is set.
CREATE TABLE transparency_leaves (
  leaf_index bigint PRIMARY KEY CHECK (leaf_index >= 0),
  position   bigint UNIQUE CHECK (position >= 1),
  stream_id  text COLLATE "C",
  sequence   bigint CHECK (sequence >= 1),
  CHECK ((position IS NULL) <> (stream_id IS NULL)),
  CHECK ((stream_id IS NULL) = (sequence IS NULL)),
  UNIQUE (stream_id, sequence)
);
COMMENT ON TABLE transparency_leaves IS 'Which event is each leaf of the transparency log. Append-only. The leaf hash is SHA-256(0x00 || the 32 bytes of the event''s hash), stored as node (0, leaf_index).';
COMMENT ON COLUMN transparency_leaves.leaf_index IS 'Index of the leaf: 0, 1, 2, ... without gaps, in the order the log builder read the events.';
COMMENT ON COLUMN transparency_leaves.position IS 'A game event: its store-wide position (events_in_order).';
COMMENT ON COLUMN transparency_leaves.stream_id IS 'A stream event: its stream.';
COMMENT ON COLUMN transparency_leaves.sequence IS 'A stream event: its sequence in the stream.';

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

CREATE TRIGGER transparency_leaves_append_only BEFORE UPDATE OR DELETE ON transparency_leaves
  FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_leaves_no_truncate BEFORE TRUNCATE ON transparency_leaves
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_nodes_append_only BEFORE UPDATE OR DELETE ON transparency_nodes
  FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_nodes_no_truncate BEFORE TRUNCATE ON transparency_nodes
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_checkpoints_append_only BEFORE UPDATE OR DELETE
  ON transparency_checkpoints FOR EACH ROW EXECUTE FUNCTION arbiter_refuse_change();
CREATE TRIGGER transparency_checkpoints_no_truncate BEFORE TRUNCATE ON transparency_checkpoints
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter_refuse_change();

GRANT SELECT, INSERT ON transparency_leaves, transparency_nodes, transparency_checkpoints
  TO arbiter_service;
GRANT SELECT, UPDATE (tree_size, events_position) ON transparency_head TO arbiter_service;
GRANT SELECT, INSERT, UPDATE (sequence) ON transparency_stream_heads TO arbiter_service;
