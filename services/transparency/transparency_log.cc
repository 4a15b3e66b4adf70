#include "services/transparency/transparency_log.h"

#include <pqxx/pqxx>

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "services/transparency/checkpoint.h"

namespace arbiter::transparency {
namespace {

using engine::merkle::Hash;
using engine::merkle::NodeId;
using engine::merkle::TileId;

// pg_advisory_xact_lock key of the log builder ("arbiter 0010").
constexpr int64_t kBuilderLock = 7213'0010;
constexpr int kStepEvents = 10'000;

// A PostgreSQL array literal: {"a","b"} with NULL for nullopt.
std::string ArrayLiteral(const std::vector<std::optional<std::string>>& values) {
  std::string out = "{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out.push_back(',');
    if (!values[i].has_value()) {
      out += "NULL";
      continue;
    }
    out.push_back('"');
    for (char c : *values[i]) {
      if (c == '"' || c == '\\') out.push_back('\\');
      out.push_back(c);
    }
    out.push_back('"');
  }
  out.push_back('}');
  return out;
}

template <typename T>
std::string NumberArray(const std::vector<T>& values) {
  return absl::StrCat("{", absl::StrJoin(values, ","), "}");
}

// The widest stored copy of each tile with at least the width asked for,
// as its hashes. DataLoss if one is missing or malformed.
absl::StatusOr<std::map<TileId, std::vector<Hash>>> ReadTiles(
    pqxx::transaction_base& txn, const std::map<TileId, int>& widths) {
  std::map<TileId, std::vector<Hash>> out;
  if (widths.empty()) return out;
  std::vector<int> levels, needed;
  std::vector<uint64_t> indexes;
  for (const auto& [id, width] : widths) {
    levels.push_back(id.level);
    indexes.push_back(id.index);
    needed.push_back(width);
  }
  pqxx::result rows = txn.exec_params(
      "SELECT w.level, w.index, t.hashes FROM "
      "unnest($1::smallint[], $2::bigint[], $3::smallint[]) AS w(level, index, width) "
      "CROSS JOIN LATERAL (SELECT encode(hashes, 'hex') AS hashes FROM transparency_tiles "
      "  WHERE tile_level = w.level AND tile_index = w.index AND width >= w.width "
      "  ORDER BY width DESC LIMIT 1) t",
      NumberArray(levels), NumberArray(indexes), NumberArray(needed));
  for (const pqxx::row& row : rows) {
    const TileId id{row[0].as<int>(), row[1].as<uint64_t>()};
    const std::string hex = row[2].as<std::string>();
    std::vector<Hash> hashes;
    for (std::size_t at = 0; at + 64 <= hex.size(); at += 64) {
      absl::StatusOr<Hash> hash = engine::merkle::FromHex(std::string_view(hex).substr(at, 64));
      if (!hash.ok()) return absl::DataLossError("a stored tile hash is not 32 bytes");
      hashes.push_back(*hash);
    }
    out[id] = std::move(hashes);
  }
  for (const auto& [id, width] : widths) {
    if (out.count(id) == 0) {
      return absl::DataLossError(absl::StrCat("the transparency log lacks tile (", id.level, ", ",
                                              id.index, ") with ", width, " hashes"));
    }
  }
  return out;
}

// The hashes of the perfect subtrees `ids`, from their tiles.
absl::StatusOr<std::map<std::pair<int, uint64_t>, Hash>> ReadNodes(
    pqxx::transaction_base& txn, const std::vector<NodeId>& ids) {
  std::map<TileId, int> widths;
  for (const NodeId& id : ids) {
    const engine::merkle::TileSlice slice = engine::merkle::SliceOfNode(id);
    int& width = widths[slice.tile];
    width = std::max(width, slice.width_needed());
  }
  absl::StatusOr<std::map<TileId, std::vector<Hash>>> tiles = ReadTiles(txn, widths);
  if (!tiles.ok()) return tiles.status();
  std::map<std::pair<int, uint64_t>, Hash> out;
  for (const NodeId& id : ids) {
    const engine::merkle::TileSlice slice = engine::merkle::SliceOfNode(id);
    absl::StatusOr<Hash> hash = engine::merkle::NodeFromTile(tiles->at(slice.tile), slice);
    if (!hash.ok()) return absl::DataLossError(hash.status().message());
    out[{id.level, id.index}] = *hash;
  }
  return out;
}

StoredCheckpoint CheckpointFromRow(const pqxx::row& row) {
  StoredCheckpoint out;
  out.size = row[0].as<uint64_t>();
  out.root = *engine::merkle::FromHex(row[1].as<std::string>());
  out.time = absl::FromUnixSeconds(row[2].as<int64_t>());
  out.note = row[3].as<std::string>();
  return out;
}

constexpr char kCheckpointColumns[] =
    "tree_size, encode(root_hash, 'hex'), extract(epoch FROM signed_at)::bigint, note";

}  // namespace

absl::StatusOr<Hash> EventLeafHash(const std::string& event_hash_hex) {
  absl::StatusOr<Hash> raw = engine::merkle::FromHex(event_hash_hex);
  if (!raw.ok()) return raw.status();
  return engine::merkle::LeafHash(engine::merkle::ToBytes(*raw));
}

absl::StatusOr<uint64_t> TransparencyLog::CatchUp() {
  while (true) {
    int64_t added = 0;
    absl::StatusOr<uint64_t> size = Step(kStepEvents, &added);
    if (!size.ok() || added < kStepEvents) return size;
  }
}

absl::StatusOr<uint64_t> TransparencyLog::Step(int limit, int64_t* added) {
  absl::MutexLock lock(&build_mu_);
  *added = 0;
  uint64_t tree_size = 0;
  engine::merkle::CompactRange range;
  engine::merkle::TileBuilder tiles;
  absl::Status status = pool_.Run("building the transparency log", [&](pqxx::connection_base& conn) {
    pqxx::work txn(conn);
    const bool locked =
        txn.exec_params1("SELECT pg_try_advisory_xact_lock($1)", kBuilderLock)[0].as<bool>();
    pqxx::row head = txn.exec1(
        locked ? "SELECT tree_size, events_position FROM transparency_head FOR UPDATE"
               : "SELECT tree_size, events_position FROM transparency_head");
    tree_size = head[0].as<uint64_t>();
    int64_t position = head[1].as<int64_t>();
    if (!locked) return absl::OkStatus();  // another server is building
    if (frontier_known_ && frontier_.size() == tree_size) {
      range = frontier_;
      tiles = tiles_;
    } else {
      const std::vector<NodeId> ids = engine::merkle::SubtreeNodes({0, tree_size});
      absl::StatusOr<std::map<std::pair<int, uint64_t>, Hash>> nodes = ReadNodes(txn, ids);
      if (!nodes.ok()) return nodes.status();
      std::vector<Hash> frontier;
      for (const NodeId& id : ids) frontier.push_back(nodes->at({id.level, id.index}));
      absl::StatusOr<engine::merkle::CompactRange> restored =
          engine::merkle::CompactRange::FromFrontier(tree_size, std::move(frontier));
      if (!restored.ok()) return restored.status();
      range = *std::move(restored);

      const std::vector<std::pair<TileId, int>> partial = engine::merkle::PartialTiles(tree_size);
      std::map<TileId, int> widths(partial.begin(), partial.end());
      absl::StatusOr<std::map<TileId, std::vector<Hash>>> stored = ReadTiles(txn, widths);
      if (!stored.ok()) return stored.status();
      std::vector<std::vector<Hash>> partial_hashes;
      for (const auto& [id, width] : partial) {
        std::vector<Hash>& hashes = stored->at(id);
        hashes.resize(width);  // a wider copy is not expected; its prefix is the same
        partial_hashes.push_back(std::move(hashes));
      }
      absl::StatusOr<engine::merkle::TileBuilder> builder =
          engine::merkle::TileBuilder::Restore(tree_size, std::move(partial_hashes));
      if (!builder.ok()) return absl::DataLossError(builder.status().message());
      tiles = *std::move(builder);
    }

    uint64_t added_leaves = 0;
    // Runs of leaves: (first leaf, leaves, first position | stream + sequence).
    std::vector<uint64_t> run_first, run_leaves;
    std::vector<std::optional<std::string>> run_positions, run_streams, run_sequences;
    auto add_leaf = [&](const std::string& event_hash, const std::string& what) -> absl::Status {
      absl::StatusOr<Hash> leaf = EventLeafHash(event_hash);
      if (!leaf.ok()) {
        return absl::DataLossError(absl::StrCat("the stored hash of ", what, " is not a hash"));
      }
      tiles.Add(range.Append(*leaf));
      ++added_leaves;
      return absl::OkStatus();
    };
    auto start_run = [&](std::optional<std::string> first_position,
                         std::optional<std::string> stream,
                         std::optional<std::string> first_sequence) {
      run_first.push_back(range.size());
      run_leaves.push_back(0);
      run_positions.push_back(std::move(first_position));
      run_streams.push_back(std::move(stream));
      run_sequences.push_back(std::move(first_sequence));
    };

    // Game events: positions commit in order and without gaps.
    // The batches first (an index range on last_position), then each
    // batch's events by primary key. The LIMIT inside the LATERAL keeps it a
    // subquery run per batch: without it the planner may flatten it into a
    // join that hashes the whole events table on every step (seen, with a
    // step's cost growing with the store).
    pqxx::result events = txn.exec_params(
        "SELECT r.first_position + (e.sequence - r.first_sequence), e.hash "
        "FROM (SELECT game_id, first_sequence, last_sequence, first_position, last_position "
        "      FROM append_requests WHERE last_position > $1 ORDER BY last_position LIMIT $2) r "
        "CROSS JOIN LATERAL (SELECT sequence, hash FROM events "
        "      WHERE game_id = r.game_id AND sequence BETWEEN "
        "      greatest(r.first_sequence, r.first_sequence + ($1 - r.first_position) + 1) "
        "      AND r.last_sequence ORDER BY sequence LIMIT $2) e "
        "ORDER BY r.last_position, e.sequence LIMIT $2",
        position, limit);
    for (const pqxx::row& row : events) {
      const int64_t p = row[0].as<int64_t>();
      if (p != position + 1) break;  // not expected; the next step retries
      if (run_first.empty()) start_run(absl::StrCat(p), std::nullopt, std::nullopt);
      if (absl::Status s = add_leaf(row[1].as<std::string>(), absl::StrCat("event ", p));
          !s.ok()) {
        return s;
      }
      ++run_leaves.back();
      position = p;
    }
    // Stream events: each stream's new events, in stream and sequence order.
    std::map<std::string, int64_t> stream_heads;
    const int room = limit - static_cast<int>(added_leaves);
    if (room > 0) {
      pqxx::result streams = txn.exec_params(
          "SELECT se.stream_id, se.sequence, se.hash FROM streams s "
          "LEFT JOIN transparency_stream_heads h ON h.stream_id = s.stream_id "
          "JOIN stream_events se ON se.stream_id = s.stream_id "
          "AND se.sequence > coalesce(h.sequence, 0) "
          "WHERE s.last_sequence > coalesce(h.sequence, 0) "
          "ORDER BY se.stream_id, se.sequence LIMIT $1",
          room);
      for (const pqxx::row& row : streams) {
        const std::string stream_id = row[0].as<std::string>();
        const int64_t sequence = row[1].as<int64_t>();
        auto stream_head = stream_heads.find(stream_id);
        if (stream_head == stream_heads.end() || stream_head->second + 1 != sequence) {
          start_run(std::nullopt, stream_id, absl::StrCat(sequence));
        }
        if (absl::Status s = add_leaf(row[2].as<std::string>(),
                                      absl::StrCat("event ", sequence, " of ", stream_id));
            !s.ok()) {
          return s;
        }
        ++run_leaves.back();
        stream_heads[stream_id] = sequence;
      }
    }
    if (added_leaves == 0) return absl::OkStatus();

    // The tree is derived from the events: a step lost in a crash is simply
    // built again, so it need not wait for its commit to reach the disk. A
    // checkpoint's own commit is synchronous, and flushing it flushes every
    // step before it, so no checkpoint ever outlives the tree it signs.
    txn.exec0("SET LOCAL synchronous_commit = off");
    txn.exec_params0(
        "INSERT INTO transparency_segments (first_leaf, leaves, position, stream_id, sequence) "
        "SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], "
        "$5::bigint[])",
        NumberArray(run_first), NumberArray(run_leaves), ArrayLiteral(run_positions),
        ArrayLiteral(run_streams), ArrayLiteral(run_sequences));
    {
      // COPY: the cheapest way to store the tiles (about one per 15 leaves,
      // plus the rightmost tile of each level that grew).
      pqxx::stream_to copy(txn, "transparency_tiles",
                           std::vector<std::string>{"tile_level", "tile_index", "width", "hashes"});
      for (const engine::merkle::TileContent& tile : tiles.TakeTilesToStore()) {
        std::string hex = "\\x";
        hex.reserve(2 + 64 * tile.hashes.size());
        for (const Hash& hash : tile.hashes) hex += engine::merkle::ToHex(hash);
        copy << std::make_tuple(tile.id.level, tile.id.index,
                                static_cast<int>(tile.hashes.size()), hex);
      }
      copy.complete();
    }
    if (!stream_heads.empty()) {
      std::vector<std::optional<std::string>> ids;
      std::vector<int64_t> seqs;
      for (const auto& [id, seq] : stream_heads) {
        ids.push_back(id);
        seqs.push_back(seq);
      }
      txn.exec_params0(
          "INSERT INTO transparency_stream_heads (stream_id, sequence) "
          "SELECT * FROM unnest($1::text[], $2::bigint[]) "
          "ON CONFLICT (stream_id) DO UPDATE SET sequence = EXCLUDED.sequence",
          ArrayLiteral(ids), NumberArray(seqs));
    }
    txn.exec_params0("UPDATE transparency_head SET tree_size = $1, events_position = $2",
                     range.size(), position);
    txn.commit();
    *added = static_cast<int64_t>(added_leaves);
    tree_size = range.size();
    frontier_ = range;
    tiles_ = std::move(tiles);
    frontier_known_ = true;
    return absl::OkStatus();
  });
  if (!status.ok()) {
    frontier_known_ = false;
    return status;
  }
  return tree_size;
}

absl::StatusOr<StoredCheckpoint> TransparencyLog::Publish() {
  absl::StatusOr<uint64_t> size = CatchUp();
  if (!size.ok()) return size.status();
  absl::StatusOr<Hash> root = RootAt(*size);
  if (!root.ok()) return root.status();
  Checkpoint checkpoint;
  checkpoint.origin = signer_.name();
  checkpoint.size = *size;
  checkpoint.root = *root;
  checkpoint.time = absl::FromUnixSeconds(absl::ToUnixSeconds(absl::Now()));
  absl::StatusOr<std::string> note = signer_.Sign(CheckpointText(checkpoint));
  if (!note.ok()) return note.status();
  absl::Status status = pool_.Run("storing a checkpoint", [&](pqxx::connection_base& conn) {
    pqxx::work txn(conn);
    txn.exec_params0(
        "INSERT INTO transparency_checkpoints (tree_size, root_hash, signed_at, note) "
        "VALUES ($1, decode($2, 'hex'), to_timestamp($3), $4) ON CONFLICT (tree_size) DO NOTHING",
        checkpoint.size, engine::merkle::ToHex(checkpoint.root),
        absl::ToUnixSeconds(checkpoint.time), *note);
    txn.commit();
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  absl::StatusOr<StoredCheckpoint> stored = CheckpointAt(*size);
  if (stored.ok()) {
    absl::MutexLock lock(&recent_mu_);
    if (!recent_.has_value() || recent_->size <= stored->size) {
      recent_ = *stored;
      recent_read_ = absl::Now();
    }
  }
  return stored;
}

absl::StatusOr<StoredCheckpoint> TransparencyLog::RecentCheckpoint(absl::Duration max_age) {
  {
    absl::MutexLock lock(&recent_mu_);
    if (recent_.has_value() && absl::Now() - recent_read_ <= max_age) return *recent_;
  }
  absl::StatusOr<StoredCheckpoint> latest = LatestCheckpoint();
  if (!latest.ok()) return latest.status();
  absl::MutexLock lock(&recent_mu_);
  recent_ = *latest;
  recent_read_ = absl::Now();
  return *latest;
}

void TransparencyLog::Start(absl::Duration interval, absl::Duration checkpoint_interval) {
  Stop();
  stop_ = std::make_unique<absl::Notification>();
  thread_ = std::thread([this, interval, checkpoint_interval] { Loop(interval, checkpoint_interval); });
}

void TransparencyLog::Stop() {
  if (!thread_.joinable()) return;
  stop_->Notify();
  thread_.join();
}

void TransparencyLog::Loop(absl::Duration interval, absl::Duration checkpoint_interval) {
  absl::Time last_signed = absl::InfinitePast();
  std::optional<uint64_t> signed_size;  // none yet: the first is signed at once
  if (absl::StatusOr<StoredCheckpoint> latest = LatestCheckpoint(); latest.ok()) {
    signed_size = latest->size;
    last_signed = latest->time;
  }
  while (!stop_->WaitForNotificationWithTimeout(interval)) {
    absl::StatusOr<uint64_t> size = CatchUp();
    if (!size.ok() || (signed_size.has_value() && *size <= *signed_size)) continue;
    if (absl::Now() - last_signed < checkpoint_interval) continue;
    absl::StatusOr<StoredCheckpoint> published = Publish();
    if (!published.ok()) continue;
    signed_size = published->size;
    last_signed = absl::Now();
  }
}

absl::StatusOr<StoredCheckpoint> TransparencyLog::LatestCheckpoint() {
  std::optional<StoredCheckpoint> out;
  absl::Status status = pool_.Run("reading a checkpoint", [&](pqxx::connection_base& conn) {
    pqxx::read_transaction txn(conn);
    pqxx::result rows = txn.exec(absl::StrCat("SELECT ", kCheckpointColumns,
                                              " FROM transparency_checkpoints "
                                              "ORDER BY tree_size DESC LIMIT 1"));
    if (!rows.empty()) out = CheckpointFromRow(rows[0]);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  if (!out.has_value()) return absl::NotFoundError("no checkpoint has been signed yet");
  return *out;
}

absl::StatusOr<StoredCheckpoint> TransparencyLog::CheckpointAt(uint64_t size) {
  std::optional<StoredCheckpoint> out;
  absl::Status status = pool_.Run("reading a checkpoint", [&](pqxx::connection_base& conn) {
    pqxx::read_transaction txn(conn);
    pqxx::result rows = txn.exec_params(
        absl::StrCat("SELECT ", kCheckpointColumns,
                     " FROM transparency_checkpoints WHERE tree_size = $1"),
        size);
    if (!rows.empty()) out = CheckpointFromRow(rows[0]);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  if (!out.has_value()) {
    return absl::NotFoundError(absl::StrCat("no checkpoint of tree size ", size, " was signed"));
  }
  return *out;
}

absl::StatusOr<uint64_t> TransparencyLog::TreeSize() {
  uint64_t size = 0;
  absl::Status status = pool_.Run("reading the transparency log", [&](pqxx::connection_base& conn) {
    pqxx::read_transaction txn(conn);
    size = txn.exec1("SELECT tree_size FROM transparency_head")[0].as<uint64_t>();
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return size;
}

absl::StatusOr<std::optional<uint64_t>> TransparencyLog::LeafOfPosition(int64_t position) {
  std::optional<uint64_t> out;
  absl::Status status = pool_.Run("reading the transparency log", [&](pqxx::connection_base& conn) {
    pqxx::read_transaction txn(conn);
    pqxx::result rows = txn.exec_params(
        "SELECT first_leaf + ($1 - position) FROM (SELECT * FROM transparency_segments "
        "WHERE position IS NOT NULL AND position <= $1 ORDER BY position DESC LIMIT 1) s "
        "WHERE position + leaves > $1",
        position);
    if (!rows.empty()) out = rows[0][0].as<uint64_t>();
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<std::optional<uint64_t>> TransparencyLog::LeafOfStreamEvent(
    const std::string& stream_id, int64_t sequence) {
  std::optional<uint64_t> out;
  absl::Status status = pool_.Run("reading the transparency log", [&](pqxx::connection_base& conn) {
    pqxx::read_transaction txn(conn);
    pqxx::result rows = txn.exec_params(
        "SELECT first_leaf + ($2 - sequence) FROM (SELECT * FROM transparency_segments "
        "WHERE stream_id = $1 AND sequence <= $2 ORDER BY sequence DESC LIMIT 1) s "
        "WHERE sequence + leaves > $2",
        stream_id, sequence);
    if (!rows.empty()) out = rows[0][0].as<uint64_t>();
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<std::vector<Hash>> TransparencyLog::RangeHashes(
    const std::vector<engine::merkle::Range>& ranges) {
  std::vector<NodeId> ids;
  for (const engine::merkle::Range& r : ranges) {
    for (const NodeId& id : engine::merkle::SubtreeNodes(r)) ids.push_back(id);
  }
  absl::StatusOr<std::map<std::pair<int, uint64_t>, Hash>> nodes;
  absl::Status status = pool_.Run("reading the transparency log", [&](pqxx::connection_base& conn) {
    pqxx::read_transaction txn(conn);
    nodes = ReadNodes(txn, ids);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  if (!nodes.ok()) return nodes.status();
  std::vector<Hash> out;
  for (const engine::merkle::Range& r : ranges) {
    std::vector<Hash> parts;
    for (const NodeId& id : engine::merkle::SubtreeNodes(r)) {
      parts.push_back(nodes->at({id.level, id.index}));
    }
    out.push_back(engine::merkle::FoldRight(parts));
  }
  return out;
}

absl::StatusOr<std::vector<Hash>> TransparencyLog::InclusionProof(uint64_t index, uint64_t size) {
  absl::StatusOr<uint64_t> tree_size = TreeSize();
  if (!tree_size.ok()) return tree_size.status();
  if (index >= size || size > *tree_size) {
    return absl::InvalidArgumentError(absl::StrCat("no inclusion proof of leaf ", index,
                                                   " in a tree of ", size,
                                                   " leaves: the log has ", *tree_size));
  }
  return RangeHashes(engine::merkle::InclusionRanges(index, size));
}

absl::StatusOr<std::vector<Hash>> TransparencyLog::ConsistencyProof(uint64_t old_size,
                                                                    uint64_t new_size) {
  absl::StatusOr<uint64_t> tree_size = TreeSize();
  if (!tree_size.ok()) return tree_size.status();
  if (old_size > new_size || new_size > *tree_size) {
    return absl::InvalidArgumentError(absl::StrCat("no consistency proof from tree size ",
                                                   old_size, " to ", new_size,
                                                   ": the log has ", *tree_size, " leaves"));
  }
  return RangeHashes(engine::merkle::ConsistencyRanges(old_size, new_size));
}

absl::StatusOr<Hash> TransparencyLog::RootAt(uint64_t size) {
  std::vector<engine::merkle::Range> whole;
  if (size > 0) whole.push_back({0, size});
  absl::StatusOr<std::vector<Hash>> root = RangeHashes(whole);
  if (!root.ok()) return root.status();
  return root->empty() ? engine::merkle::EmptyRoot() : root->front();
}

}  // namespace arbiter::transparency
