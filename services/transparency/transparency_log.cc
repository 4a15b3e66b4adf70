#include "services/transparency/transparency_log.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "engine/core/status_macros.h"
#include "services/transparency/checkpoint.h"
#include "spdlog/spdlog.h"

namespace arbiter::transparency {
namespace {

using engine::merkle::Hash;
using engine::merkle::NodeId;
using engine::merkle::TileId;
using Segment = store::pg::TransparencySegment;

constexpr int kStepEvents = 10'000;

// The widest stored copy of each tile with at least the width asked for,
// as its hashes. DataLoss if one is missing or malformed.
absl::StatusOr<std::map<TileId, std::vector<Hash>>> TilesFromRows(
    const std::map<TileId, int>& widths, const std::vector<store::pg::TileRow>& rows) {
  std::map<TileId, std::vector<Hash>> out;
  for (const store::pg::TileRow& row : rows) {
    std::vector<Hash> hashes;
    const std::string_view hex = row.hashes_hex;
    for (std::size_t at = 0; at + 64 <= hex.size(); at += 64) {
      absl::StatusOr<Hash> hash = engine::merkle::FromHex(hex.substr(at, 64));
      if (!hash.ok()) return absl::DataLossError("a stored tile hash is not 32 bytes");
      hashes.push_back(*hash);
    }
    out[TileId{row.level, row.index}] = std::move(hashes);
  }
  for (const auto& [id, width] : widths) {
    if (out.count(id) == 0) {
      return absl::DataLossError(absl::StrCat("the transparency log lacks tile (", id.level, ", ",
                                              id.index, ") with ", width, " hashes"));
    }
  }
  return out;
}

std::vector<store::pg::TileWanted> Wanted(const std::map<TileId, int>& widths) {
  std::vector<store::pg::TileWanted> wanted;
  for (const auto& [id, width] : widths) wanted.push_back({id.level, id.index, width});
  return wanted;
}

// The tiles that hold the perfect subtrees `ids`, each with the width it
// must have at least.
std::map<TileId, int> TilesOfNodes(const std::vector<NodeId>& ids) {
  std::map<TileId, int> widths;
  for (const NodeId& id : ids) {
    const engine::merkle::TileSlice slice = engine::merkle::SliceOfNode(id);
    int& width = widths[slice.tile];
    width = std::max(width, slice.width_needed());
  }
  return widths;
}

// The hashes of the perfect subtrees `ids`, from their tiles.
absl::StatusOr<std::map<std::pair<int, uint64_t>, Hash>> NodesFromTiles(
    const std::vector<NodeId>& ids, const std::map<TileId, std::vector<Hash>>& tiles) {
  std::map<std::pair<int, uint64_t>, Hash> out;
  for (const NodeId& id : ids) {
    const engine::merkle::TileSlice slice = engine::merkle::SliceOfNode(id);
    absl::StatusOr<Hash> hash = engine::merkle::NodeFromTile(tiles.at(slice.tile), slice);
    if (!hash.ok()) return absl::DataLossError(hash.status().message());
    out[{id.level, id.index}] = *hash;
  }
  return out;
}

StoredCheckpoint CheckpointFromRow(const store::pg::CheckpointRow& row) {
  StoredCheckpoint out;
  out.size = row.tree_size;
  out.root = *engine::merkle::FromHex(row.root_hex);
  out.time = absl::FromUnixSeconds(row.signed_at_seconds);
  out.note = row.note;
  return out;
}

}  // namespace

// The tree as a builder step grows it, and what the step will store: the
// runs of leaves it added (segments) and the last game event and stream
// events in the tree.
struct TransparencyLog::Growth {
  uint64_t from_size = 0;  // the tree's size as the step found it (its natural fence)
  engine::merkle::CompactRange range;
  engine::merkle::TileBuilder tiles;
  int64_t position = 0;  // of the last game event in the tree
  uint64_t added = 0;
  std::vector<Segment> segments;
  std::map<std::string, int64_t> stream_heads;  // stream id -> last sequence added

  // Adds the leaf of the event whose hash is `event_hash` (`what` names the
  // event) to the last segment. DataLoss if it is not a hash.
  absl::Status Add(const std::string& event_hash, const std::string& what) {
    absl::StatusOr<Hash> leaf = EventLeafHash(event_hash);
    if (!leaf.ok()) {
      return absl::DataLossError(absl::StrCat("the stored hash of ", what, " is not a hash"));
    }
    tiles.Add(range.Append(*leaf));
    ++added;
    ++segments.back().leaves;
    return absl::OkStatus();
  }
  // Starts a segment at the next leaf.
  void Start(Segment segment) {
    segment.first_leaf = range.size();
    segment.leaves = 0;
    segments.push_back(std::move(segment));
  }
};

absl::StatusOr<Hash> EventLeafHash(const std::string& event_hash_hex) {
  ARBITER_ASSIGN_OR_RETURN(const Hash raw, engine::merkle::FromHex(event_hash_hex));
  return engine::merkle::LeafHash(engine::merkle::ToBytes(raw));
}

absl::StatusOr<std::optional<store::LeaseFence>> TransparencyLog::FenceNow() const {
  if (lease_ == nullptr) return std::optional<store::LeaseFence>();
  std::optional<store::LeaseFence> fence = lease_->Held();
  if (!fence.has_value()) {
    return absl::UnavailableError(absl::StrCat("the transparency log is built by another server (lease ",
                                               kTransparencyLease, ": ", lease_->Describe(), ")"));
  }
  return fence;
}

absl::StatusOr<uint64_t> TransparencyLog::CatchUp() {
  ARBITER_ASSIGN_OR_RETURN(const std::optional<store::LeaseFence> fence, FenceNow());
  return CatchUpFenced(fence);
}

absl::StatusOr<uint64_t> TransparencyLog::CatchUpFenced(
    const std::optional<store::LeaseFence>& fence) {
  while (true) {
    int64_t added = 0;
    absl::StatusOr<uint64_t> size = Step(kStepEvents, fence, &added);
    if (!size.ok() || added < kStepEvents) return size;
  }
}

absl::StatusOr<uint64_t> TransparencyLog::Step(int limit,
                                               const std::optional<store::LeaseFence>& fence,
                                               int64_t* added) {
  absl::MutexLock lock(&build_mu_);
  *added = 0;
  uint64_t tree_size = 0;
  auto build = [&](store::pg::TransparencyBuildStep& step) -> absl::Status {
    const bool locked = step.TryLock();
    const store::pg::TransparencyHead head = step.ReadHead(locked);
    tree_size = head.tree_size;
    if (!locked) return absl::OkStatus();  // another server is building
    ARBITER_ASSIGN_OR_RETURN(Growth growth, RestoreTree(step, head));
    ARBITER_RETURN_IF_ERROR(AddGameEvents(step, limit, growth));
    ARBITER_RETURN_IF_ERROR(AddStreamEvents(step, limit, growth));
    if (in_step_) in_step_();
    if (growth.added == 0) return absl::OkStatus();
    ARBITER_RETURN_IF_ERROR(step.WriteAndCommit(RowsOf(growth)));
    *added = static_cast<int64_t>(growth.added);
    tree_size = growth.range.size();
    frontier_ = growth.range;
    tiles_ = std::move(growth.tiles);
    frontier_known_ = true;
    return absl::OkStatus();
  };
  absl::Status status = tables_.Build(fence, build);
  if (!status.ok()) {
    frontier_known_ = false;
    return status;
  }
  return tree_size;
}

absl::StatusOr<TransparencyLog::Growth> TransparencyLog::RestoreTree(
    store::pg::TransparencyBuildStep& step, const store::pg::TransparencyHead& head) {
  Growth growth;
  growth.position = head.events_position;
  const uint64_t tree_size = head.tree_size;
  growth.from_size = tree_size;
  if (frontier_known_ && frontier_.size() == tree_size) {
    growth.range = frontier_;
    growth.tiles = tiles_;
    return growth;
  }
  // The frontier: the perfect subtrees of the whole tree, from their tiles.
  const std::vector<NodeId> ids = engine::merkle::SubtreeNodes({0, tree_size});
  const std::map<TileId, int> node_tiles = TilesOfNodes(ids);
  ARBITER_ASSIGN_OR_RETURN(const auto tiles,
                           TilesFromRows(node_tiles, step.ReadTiles(Wanted(node_tiles))));
  ARBITER_ASSIGN_OR_RETURN(const auto nodes, NodesFromTiles(ids, tiles));
  std::vector<Hash> frontier;
  for (const NodeId& id : ids) frontier.push_back(nodes.at({id.level, id.index}));
  ARBITER_ASSIGN_OR_RETURN(growth.range,
                           engine::merkle::CompactRange::FromFrontier(tree_size, std::move(frontier)));
  // The rightmost tiles, at the widths the tree gives them.
  const std::vector<std::pair<TileId, int>> partial = engine::merkle::PartialTiles(tree_size);
  const std::map<TileId, int> widths(partial.begin(), partial.end());
  ARBITER_ASSIGN_OR_RETURN(auto stored, TilesFromRows(widths, step.ReadTiles(Wanted(widths))));
  std::vector<std::vector<Hash>> partial_hashes;
  for (const auto& [id, width] : partial) {
    std::vector<Hash>& hashes = stored.at(id);
    hashes.resize(width);  // a wider copy is not expected; its prefix is the same
    partial_hashes.push_back(std::move(hashes));
  }
  absl::StatusOr<engine::merkle::TileBuilder> builder =
      engine::merkle::TileBuilder::Restore(tree_size, std::move(partial_hashes));
  if (!builder.ok()) return absl::DataLossError(builder.status().message());
  growth.tiles = *std::move(builder);
  return growth;
}

absl::Status TransparencyLog::AddGameEvents(store::pg::TransparencyBuildStep& step, int limit,
                                            Growth& growth) {
  // Positions commit in order and without gaps: one segment from the first.
  for (const store::pg::GameEventLeaf& event : step.GameEventsAfter(growth.position, limit)) {
    if (event.position != growth.position + 1) break;  // not expected; the next step retries
    if (growth.segments.empty()) {
      Segment segment;
      segment.position = event.position;
      growth.Start(std::move(segment));
    }
    ARBITER_RETURN_IF_ERROR(growth.Add(event.hash, absl::StrCat("event ", event.position)));
    growth.position = event.position;
  }
  return absl::OkStatus();
}

absl::Status TransparencyLog::AddStreamEvents(store::pg::TransparencyBuildStep& step, int limit,
                                              Growth& growth) {
  // Each stream's new events, in stream and sequence order: a segment for
  // each run of one stream.
  const int room = limit - static_cast<int>(growth.added);
  if (room <= 0) return absl::OkStatus();
  for (const store::pg::StreamEventLeaf& event : step.NewStreamEvents(room)) {
    auto last = growth.stream_heads.find(event.stream_id);
    if (last == growth.stream_heads.end() || last->second + 1 != event.sequence) {
      Segment segment;
      segment.stream_id = event.stream_id;
      segment.sequence = event.sequence;
      growth.Start(std::move(segment));
    }
    ARBITER_RETURN_IF_ERROR(growth.Add(
        event.hash, absl::StrCat("event ", event.sequence, " of ", event.stream_id)));
    growth.stream_heads[event.stream_id] = event.sequence;
  }
  return absl::OkStatus();
}

store::pg::TransparencyStepWrite TransparencyLog::RowsOf(Growth& growth) {
  store::pg::TransparencyStepWrite write;
  write.expected_size = growth.from_size;
  write.segments = std::move(growth.segments);
  for (const engine::merkle::TileContent& tile : growth.tiles.TakeTilesToStore()) {
    store::pg::TileRow& row = write.tiles.emplace_back();
    row.level = tile.id.level;
    row.index = tile.id.index;
    row.hashes_hex.reserve(64 * tile.hashes.size());
    for (const Hash& hash : tile.hashes) row.hashes_hex += engine::merkle::ToHex(hash);
  }
  write.stream_heads = std::move(growth.stream_heads);
  write.head = {growth.range.size(), growth.position};
  return write;
}

absl::StatusOr<StoredCheckpoint> TransparencyLog::Publish(absl::Duration wait) {
  if (absl::StatusOr<std::optional<store::LeaseFence>> fence = FenceNow(); fence.ok()) {
    absl::StatusOr<StoredCheckpoint> published = PublishFenced(*fence);
    if (published.ok() || !store::IsLeaseLost(published.status())) return published;
    lease_->Refused(**fence);
  }
  return PublishByHolder(wait);
}

absl::StatusOr<StoredCheckpoint> TransparencyLog::PublishByHolder(absl::Duration wait) {
  store::pg::LeaseTable& table = lease_->table();
  ARBITER_ASSIGN_OR_RETURN(const int64_t number, table.Request(kTransparencyLease, ""));
  const absl::Time deadline = absl::Now() + wait;
  while (true) {
    ARBITER_ASSIGN_OR_RETURN(const int64_t done, table.Done(kTransparencyLease, ""));
    if (done >= number) return LatestCheckpoint();
    if (absl::Now() >= deadline) {
      return absl::UnavailableError(absl::StrCat(
          "the transparency log's builder has not signed a checkpoint within ",
          absl::FormatDuration(wait), " (lease ", kTransparencyLease, ": ", lease_->Describe(),
          "); it will when it can"));
    }
    absl::SleepFor(absl::Milliseconds(20));
  }
}

absl::StatusOr<StoredCheckpoint> TransparencyLog::PublishFenced(
    const std::optional<store::LeaseFence>& fence) {
  ARBITER_ASSIGN_OR_RETURN(const uint64_t size, CatchUpFenced(fence));
  ARBITER_ASSIGN_OR_RETURN(const Hash root, RootAt(size));
  Checkpoint checkpoint;
  checkpoint.origin = signer_.name();
  checkpoint.size = size;
  checkpoint.root = root;
  checkpoint.time = absl::FromUnixSeconds(absl::ToUnixSeconds(absl::Now()));
  ARBITER_ASSIGN_OR_RETURN(std::string note, signer_.Sign(CheckpointText(checkpoint)));
  ARBITER_RETURN_IF_ERROR(tables_.StoreCheckpoint(store::pg::CheckpointRow{
      checkpoint.size, engine::merkle::ToHex(checkpoint.root),
      absl::ToUnixSeconds(checkpoint.time), std::move(note)}, fence));
  absl::StatusOr<StoredCheckpoint> stored = CheckpointAt(size);
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
  ARBITER_ASSIGN_OR_RETURN(StoredCheckpoint latest, LatestCheckpoint());
  absl::MutexLock lock(&recent_mu_);
  recent_ = latest;
  recent_read_ = absl::Now();
  return latest;
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
  std::optional<store::LeaseWatch> watch;
  if (lease_ != nullptr) watch.emplace(*lease_);
  Signing signing = ReadSigning();
  while (!stop_->WaitForNotificationWithTimeout(interval)) {
    std::optional<store::LeaseFence> fence;
    if (watch.has_value()) {
      const store::LeaseWatch::Turn turn = watch->Next();
      if (turn.changed) {
        NoteTurn(turn);
        if (turn.fence.has_value()) signing = ReadSigning();  // others may have signed since
      }
      if (!turn.fence.has_value()) continue;
      fence = turn.fence;
    }
    BuildAndSign(fence, checkpoint_interval, signing);
  }
}

TransparencyLog::Signing TransparencyLog::ReadSigning() {
  Signing signing;
  if (absl::StatusOr<StoredCheckpoint> latest = LatestCheckpoint(); latest.ok()) {
    signing.signed_size = latest->size;
    signing.last_signed = latest->time;
  }
  return signing;
}

void TransparencyLog::NoteTurn(const store::LeaseWatch::Turn& turn) {
  if (turn.fence.has_value()) {
    spdlog::info("transparency log: holding lease {} (holder {}, token {}): building and signing",
                 kTransparencyLease, turn.fence->holder, turn.fence->token);
  } else if (turn.lost) {
    spdlog::warn("transparency log: lease {} lost ({}): stopped building", kTransparencyLease,
                 lease_->Describe());
  } else {
    spdlog::info("transparency log: not holding lease {} ({}): standing by", kTransparencyLease,
                 lease_->Describe());
  }
}

void TransparencyLog::BuildAndSign(const std::optional<store::LeaseFence>& fence,
                                   absl::Duration checkpoint_interval, Signing& signing) {
  absl::StatusOr<uint64_t> size = CatchUpFenced(fence);
  if (!size.ok()) {
    if (fence.has_value() && store::IsLeaseLost(size.status())) {
      spdlog::warn("transparency log: {}", std::string(size.status().message()));
      lease_->Refused(*fence);
    }
    return;
  }
  // Checkpoints other servers asked for (Publish there).
  std::map<std::string, int64_t> asked;
  if (fence.has_value()) {
    absl::StatusOr<std::map<std::string, int64_t>> pending =
        lease_->table().Pending(kTransparencyLease);
    if (pending.ok()) asked = *std::move(pending);
  }
  const bool grown = !signing.signed_size.has_value() || *size > *signing.signed_size;
  if (asked.empty() && (!grown || absl::Now() - signing.last_signed < checkpoint_interval)) return;
  absl::StatusOr<StoredCheckpoint> published = PublishFenced(fence);
  if (!published.ok()) {
    if (fence.has_value() && store::IsLeaseLost(published.status())) lease_->Refused(*fence);
    return;
  }
  signing.signed_size = published->size;
  signing.last_signed = absl::Now();
  for (const auto& [subject, number] : asked) {
    (void)lease_->table().MarkDone(*fence, subject, number);
  }
}

absl::StatusOr<StoredCheckpoint> TransparencyLog::LatestCheckpoint() {
  ARBITER_ASSIGN_OR_RETURN(const std::optional<store::pg::CheckpointRow> row,
                           tables_.LatestCheckpoint());
  if (!row.has_value()) return absl::NotFoundError("no checkpoint has been signed yet");
  return CheckpointFromRow(*row);
}

absl::StatusOr<StoredCheckpoint> TransparencyLog::CheckpointAt(uint64_t size) {
  ARBITER_ASSIGN_OR_RETURN(const std::optional<store::pg::CheckpointRow> row,
                           tables_.CheckpointAt(size));
  if (!row.has_value()) {
    return absl::NotFoundError(absl::StrCat("no checkpoint of tree size ", size, " was signed"));
  }
  return CheckpointFromRow(*row);
}

absl::StatusOr<uint64_t> TransparencyLog::TreeSize() { return tables_.TreeSize(); }

absl::StatusOr<std::optional<uint64_t>> TransparencyLog::LeafOfPosition(int64_t position) {
  return tables_.LeafOfPosition(position);
}

absl::StatusOr<std::optional<uint64_t>> TransparencyLog::LeafOfStreamEvent(
    const std::string& stream_id, int64_t sequence) {
  return tables_.LeafOfStreamEvent(stream_id, sequence);
}

absl::StatusOr<std::vector<Hash>> TransparencyLog::RangeHashes(
    const std::vector<engine::merkle::Range>& ranges) {
  std::vector<NodeId> ids;
  for (const engine::merkle::Range& r : ranges) {
    for (const NodeId& id : engine::merkle::SubtreeNodes(r)) ids.push_back(id);
  }
  const std::map<TileId, int> widths = TilesOfNodes(ids);
  ARBITER_ASSIGN_OR_RETURN(const std::vector<store::pg::TileRow> rows,
                           tables_.ReadTiles(Wanted(widths)));
  ARBITER_ASSIGN_OR_RETURN(const auto tiles, TilesFromRows(widths, rows));
  ARBITER_ASSIGN_OR_RETURN(const auto nodes, NodesFromTiles(ids, tiles));
  std::vector<Hash> out;
  for (const engine::merkle::Range& r : ranges) {
    std::vector<Hash> parts;
    for (const NodeId& id : engine::merkle::SubtreeNodes(r)) {
      parts.push_back(nodes.at({id.level, id.index}));
    }
    out.push_back(engine::merkle::FoldRight(parts));
  }
  return out;
}

absl::StatusOr<std::vector<Hash>> TransparencyLog::InclusionProof(uint64_t index, uint64_t size) {
  ARBITER_ASSIGN_OR_RETURN(const uint64_t tree_size, TreeSize());
  if (index >= size || size > tree_size) {
    return absl::InvalidArgumentError(absl::StrCat("no inclusion proof of leaf ", index,
                                                   " in a tree of ", size,
                                                   " leaves: the log has ", tree_size));
  }
  return RangeHashes(engine::merkle::InclusionRanges(index, size));
}

absl::StatusOr<std::vector<Hash>> TransparencyLog::ConsistencyProof(uint64_t old_size,
                                                                    uint64_t new_size) {
  ARBITER_ASSIGN_OR_RETURN(const uint64_t tree_size, TreeSize());
  if (old_size > new_size || new_size > tree_size) {
    return absl::InvalidArgumentError(absl::StrCat("no consistency proof from tree size ",
                                                   old_size, " to ", new_size,
                                                   ": the log has ", tree_size, " leaves"));
  }
  return RangeHashes(engine::merkle::ConsistencyRanges(old_size, new_size));
}

absl::StatusOr<Hash> TransparencyLog::RootAt(uint64_t size) {
  std::vector<engine::merkle::Range> whole;
  if (size > 0) whole.push_back({0, size});
  ARBITER_ASSIGN_OR_RETURN(const std::vector<Hash> root, RangeHashes(whole));
  return root.empty() ? engine::merkle::EmptyRoot() : root.front();
}

}  // namespace arbiter::transparency
