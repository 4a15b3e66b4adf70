#include "services/store/pg/transparency_tables.h"

#include <pqxx/pqxx>

#include <tuple>

#include "absl/strings/str_cat.h"
#include "services/store/pg/arrays.h"
#include "services/store/pg/leases.h"

namespace arbiter::store::pg {
namespace {

// pg_advisory_xact_lock key of the log builder ("arbiter 0010").
constexpr int64_t kBuilderLock = 7213'0010;

constexpr char kCheckpointColumns[] =
    "tree_size, encode(root_hash, 'hex'), extract(epoch FROM signed_at)::bigint, note";

CheckpointRow CheckpointFromRow(const pqxx::row& row) {
  CheckpointRow out;
  out.tree_size = row[0].as<uint64_t>();
  out.root_hex = row[1].as<std::string>();
  out.signed_at_seconds = row[2].as<int64_t>();
  out.note = row[3].as<std::string>();
  return out;
}

std::vector<TileRow> ReadTilesIn(pqxx::transaction_base& txn,
                                 const std::vector<TileWanted>& wanted) {
  std::vector<TileRow> out;
  if (wanted.empty()) return out;
  std::vector<int> levels, widths;
  std::vector<uint64_t> indexes;
  for (const TileWanted& tile : wanted) {
    levels.push_back(tile.level);
    indexes.push_back(tile.index);
    widths.push_back(tile.width);
  }
  pqxx::result rows = txn.exec_params(
      "SELECT w.level, w.index, t.hashes FROM "
      "unnest($1::smallint[], $2::bigint[], $3::smallint[]) AS w(level, index, width) "
      "CROSS JOIN LATERAL (SELECT encode(hashes, 'hex') AS hashes FROM transparency_tiles "
      "  WHERE tile_level = w.level AND tile_index = w.index AND width >= w.width "
      "  ORDER BY width DESC LIMIT 1) t",
      IntArray(levels), IntArray(indexes), IntArray(widths));
  out.reserve(rows.size());
  for (const pqxx::row& row : rows) {
    out.push_back(TileRow{row[0].as<int>(), row[1].as<uint64_t>(), row[2].as<std::string>()});
  }
  return out;
}

void WriteSegments(pqxx::transaction_base& txn, const std::vector<TransparencySegment>& segments) {
  std::vector<uint64_t> first, leaves;
  std::vector<std::optional<int64_t>> positions, sequences;
  std::vector<std::optional<std::string>> streams;
  for (const TransparencySegment& segment : segments) {
    first.push_back(segment.first_leaf);
    leaves.push_back(segment.leaves);
    positions.push_back(segment.position);
    streams.push_back(segment.stream_id);
    sequences.push_back(segment.sequence);
  }
  txn.exec_params0(
      "INSERT INTO transparency_segments (first_leaf, leaves, position, stream_id, sequence) "
      "SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], "
      "$5::bigint[])",
      IntArray(first), IntArray(leaves), IntArray(positions), TextArray(streams),
      IntArray(sequences));
}

// COPY: the cheapest way to store the tiles (about one per 15 leaves, plus
// the rightmost tile of each level that grew).
void WriteTiles(pqxx::transaction_base& txn, const std::vector<TileRow>& tiles) {
  pqxx::stream_to copy(txn, "transparency_tiles",
                       std::vector<std::string>{"tile_level", "tile_index", "width", "hashes"});
  for (const TileRow& tile : tiles) {
    copy << std::make_tuple(tile.level, tile.index, static_cast<int>(tile.hashes_hex.size() / 64),
                            absl::StrCat("\\x", tile.hashes_hex));
  }
  copy.complete();
}

void WriteStreamHeads(pqxx::transaction_base& txn, const std::map<std::string, int64_t>& heads) {
  if (heads.empty()) return;
  std::vector<std::string> ids;
  std::vector<int64_t> sequences;
  for (const auto& [id, sequence] : heads) {
    ids.push_back(id);
    sequences.push_back(sequence);
  }
  txn.exec_params0(
      "INSERT INTO transparency_stream_heads (stream_id, sequence) "
      "SELECT * FROM unnest($1::text[], $2::bigint[]) "
      "ON CONFLICT (stream_id) DO UPDATE SET sequence = EXCLUDED.sequence",
      TextArray(ids), IntArray(sequences));
}

}  // namespace

bool TransparencyBuildStep::TryLock() {
  return txn_.exec_params1("SELECT pg_try_advisory_xact_lock($1)", kBuilderLock)[0].as<bool>();
}

TransparencyHead TransparencyBuildStep::ReadHead(bool lock) {
  pqxx::row head = txn_.exec1(
      lock ? "SELECT tree_size, events_position FROM transparency_head FOR UPDATE"
           : "SELECT tree_size, events_position FROM transparency_head");
  return TransparencyHead{head[0].as<uint64_t>(), head[1].as<int64_t>()};
}

std::vector<TileRow> TransparencyBuildStep::ReadTiles(const std::vector<TileWanted>& wanted) {
  return ReadTilesIn(txn_, wanted);
}

std::vector<GameEventLeaf> TransparencyBuildStep::GameEventsAfter(int64_t after, int limit) {
  // The batches first (an index range on last_position), then each batch's
  // events by primary key. The LIMIT inside the LATERAL keeps it a subquery
  // run per batch: without it the planner may flatten it into a join that
  // hashes the whole events table on every step (seen, with a step's cost
  // growing with the store).
  pqxx::result rows = txn_.exec_params(
      "SELECT r.first_position + (e.sequence - r.first_sequence), encode(e.hash, 'hex') "
      "FROM (SELECT game_id, first_sequence, last_sequence, first_position, last_position "
      "      FROM append_requests WHERE last_position > $1 ORDER BY last_position LIMIT $2) r "
      "CROSS JOIN LATERAL (SELECT sequence, hash FROM events "
      "      WHERE game_id = r.game_id AND sequence BETWEEN "
      "      greatest(r.first_sequence, r.first_sequence + ($1 - r.first_position) + 1) "
      "      AND r.last_sequence ORDER BY sequence LIMIT $2) e "
      "ORDER BY r.last_position, e.sequence LIMIT $2",
      after, limit);
  std::vector<GameEventLeaf> out;
  out.reserve(rows.size());
  for (const pqxx::row& row : rows) {
    out.push_back(GameEventLeaf{row[0].as<int64_t>(), row[1].as<std::string>()});
  }
  return out;
}

std::vector<StreamEventLeaf> TransparencyBuildStep::NewStreamEvents(int limit) {
  pqxx::result rows = txn_.exec_params(
      "SELECT se.stream_id, se.sequence, se.hash FROM streams s "
      "LEFT JOIN transparency_stream_heads h ON h.stream_id = s.stream_id "
      "JOIN stream_events se ON se.stream_id = s.stream_id "
      "AND se.sequence > coalesce(h.sequence, 0) "
      "WHERE s.last_sequence > coalesce(h.sequence, 0) "
      "ORDER BY se.stream_id, se.sequence LIMIT $1",
      limit);
  std::vector<StreamEventLeaf> out;
  out.reserve(rows.size());
  for (const pqxx::row& row : rows) {
    out.push_back(StreamEventLeaf{row[0].as<std::string>(), row[1].as<int64_t>(),
                                  row[2].as<std::string>()});
  }
  return out;
}

absl::Status TransparencyBuildStep::WriteAndCommit(const TransparencyStepWrite& write) {
  // The tree is derived from the events: a step lost in a crash is simply
  // built again, so it need not wait for its commit to reach the disk. A
  // checkpoint's own commit is synchronous, and flushing it flushes every
  // step before it, so no checkpoint ever outlives the tree it signs.
  txn_.exec0("SET LOCAL synchronous_commit = off");
  WriteSegments(txn_, write.segments);
  WriteTiles(txn_, write.tiles);
  WriteStreamHeads(txn_, write.stream_heads);
  const pqxx::result moved = txn_.exec_params0(
      "UPDATE transparency_head SET tree_size = $1, events_position = $2 WHERE tree_size = $3",
      write.head.tree_size, write.head.events_position, write.expected_size);
  if (moved.affected_rows() != 1) {
    return absl::AbortedError(absl::StrCat("the transparency log is no longer ",
                                           write.expected_size,
                                           " leaves (another builder grew it): nothing written"));
  }
  if (fence_.has_value()) {
    if (absl::Status fenced = CheckFence(txn_, *fence_); !fenced.ok()) return fenced;
  }
  txn_.commit();
  return absl::OkStatus();
}

absl::Status TransparencyTables::Build(
    const std::optional<LeaseFence>& fence,
    const std::function<absl::Status(TransparencyBuildStep&)>& step) {
  return pool_.Run("building the transparency log", [&](pqxx::connection_base& conn) {
    pqxx::work txn(conn);
    // A holder paused in here keeps the head locked: not past its lease.
    if (fence.has_value()) LimitIdleInTransaction(txn, fence->idle_limit);
    TransparencyBuildStep build(txn, fence);
    return step(build);
  });
}

absl::Status TransparencyTables::StoreCheckpoint(const CheckpointRow& checkpoint,
                                                 const std::optional<LeaseFence>& fence) {
  return pool_.Run("storing a checkpoint", [&](pqxx::connection_base& conn) -> absl::Status {
    pqxx::work txn(conn);
    txn.exec_params0(
        "INSERT INTO transparency_checkpoints (tree_size, root_hash, signed_at, note) "
        "VALUES ($1, decode($2, 'hex'), to_timestamp($3), $4) ON CONFLICT (tree_size) DO NOTHING",
        checkpoint.tree_size, checkpoint.root_hex, checkpoint.signed_at_seconds, checkpoint.note);
    if (fence.has_value()) {
      if (absl::Status fenced = CheckFence(txn, *fence); !fenced.ok()) return fenced;
    }
    txn.commit();
    return absl::OkStatus();
  });
}

absl::StatusOr<std::optional<CheckpointRow>> TransparencyTables::LatestCheckpoint() {
  return pool_.Run("reading a checkpoint",
                   [&](pqxx::connection_base& conn) -> absl::StatusOr<std::optional<CheckpointRow>> {
                     pqxx::read_transaction txn(conn);
                     pqxx::result rows = txn.exec(absl::StrCat(
                         "SELECT ", kCheckpointColumns,
                         " FROM transparency_checkpoints ORDER BY tree_size DESC LIMIT 1"));
                     if (rows.empty()) return std::optional<CheckpointRow>();
                     return CheckpointFromRow(rows[0]);
                   });
}

absl::StatusOr<std::optional<CheckpointRow>> TransparencyTables::CheckpointAt(uint64_t tree_size) {
  return pool_.Run("reading a checkpoint",
                   [&](pqxx::connection_base& conn) -> absl::StatusOr<std::optional<CheckpointRow>> {
                     pqxx::read_transaction txn(conn);
                     pqxx::result rows = txn.exec_params(
                         absl::StrCat("SELECT ", kCheckpointColumns,
                                      " FROM transparency_checkpoints WHERE tree_size = $1"),
                         tree_size);
                     if (rows.empty()) return std::optional<CheckpointRow>();
                     return CheckpointFromRow(rows[0]);
                   });
}

absl::StatusOr<uint64_t> TransparencyTables::TreeSize() {
  return pool_.Run("reading the transparency log",
                   [&](pqxx::connection_base& conn) -> absl::StatusOr<uint64_t> {
                     pqxx::read_transaction txn(conn);
                     return txn.exec1("SELECT tree_size FROM transparency_head")[0].as<uint64_t>();
                   });
}

absl::StatusOr<std::optional<uint64_t>> TransparencyTables::LeafOfPosition(int64_t position) {
  return pool_.Run("reading the transparency log",
                   [&](pqxx::connection_base& conn) -> absl::StatusOr<std::optional<uint64_t>> {
                     pqxx::read_transaction txn(conn);
                     pqxx::result rows = txn.exec_params(
                         "SELECT first_leaf + ($1 - position) FROM (SELECT * FROM "
                         "transparency_segments WHERE position IS NOT NULL AND position <= $1 "
                         "ORDER BY position DESC LIMIT 1) s WHERE position + leaves > $1",
                         position);
                     if (rows.empty()) return std::optional<uint64_t>();
                     return std::optional<uint64_t>(rows[0][0].as<uint64_t>());
                   });
}

absl::StatusOr<std::optional<uint64_t>> TransparencyTables::LeafOfStreamEvent(
    const std::string& stream_id, int64_t sequence) {
  return pool_.Run("reading the transparency log",
                   [&](pqxx::connection_base& conn) -> absl::StatusOr<std::optional<uint64_t>> {
                     pqxx::read_transaction txn(conn);
                     pqxx::result rows = txn.exec_params(
                         "SELECT first_leaf + ($2 - sequence) FROM (SELECT * FROM "
                         "transparency_segments WHERE stream_id = $1 AND sequence <= $2 "
                         "ORDER BY sequence DESC LIMIT 1) s WHERE sequence + leaves > $2",
                         stream_id, sequence);
                     if (rows.empty()) return std::optional<uint64_t>();
                     return std::optional<uint64_t>(rows[0][0].as<uint64_t>());
                   });
}

absl::StatusOr<std::vector<TileRow>> TransparencyTables::ReadTiles(
    const std::vector<TileWanted>& wanted) {
  return pool_.Run("reading the transparency log",
                   [&](pqxx::connection_base& conn) -> absl::StatusOr<std::vector<TileRow>> {
                     pqxx::read_transaction txn(conn);
                     return ReadTilesIn(txn, wanted);
                   });
}

}  // namespace arbiter::store::pg
