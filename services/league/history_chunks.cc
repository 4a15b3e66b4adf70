#include "services/league/history_chunks.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace arbiter::league {
namespace {

// Writes at `out` (room for 10 bytes); returns the end.
char* PutVarint(uint64_t value, char* out) {
  while (value >= 0x80) {
    *out++ = static_cast<char>((value & 0x7f) | 0x80);
    value >>= 7;
  }
  *out++ = static_cast<char>(value);
  return out;
}

uint64_t ZigZag(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}

int64_t UnZigZag(uint64_t value) {
  return static_cast<int64_t>(value >> 1) ^ -static_cast<int64_t>(value & 1);
}

char* PutDouble(double value, char* out) {
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  for (int i = 0; i < 8; ++i) *out++ = static_cast<char>((bits >> (8 * i)) & 0xff);
  return out;
}

// Reads what EncodePoint wrote; every Get returns false at a malformed or
// truncated field.
class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}
  bool done() const { return at_ == data_.size(); }

  bool Varint(uint64_t& value) {
    value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at_ == data_.size()) return false;
      const auto byte = static_cast<unsigned char>(data_[at_++]);
      value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return true;
    }
    return false;
  }
  bool Signed(int64_t& value) {
    uint64_t raw = 0;
    if (!Varint(raw)) return false;
    value = UnZigZag(raw);
    return true;
  }
  bool Double(double& value) {
    if (data_.size() - at_ < 8) return false;
    uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) {
      bits |= static_cast<uint64_t>(static_cast<unsigned char>(data_[at_ + i])) << (8 * i);
    }
    at_ += 8;
    std::memcpy(&value, &bits, sizeof value);
    return true;
  }
  bool Bytes(std::string& value) {
    uint64_t size = 0;
    if (!Varint(size) || size > data_.size() - at_) return false;
    value.assign(data_.substr(at_, size));
    at_ += size;
    return true;
  }

 private:
  std::string_view data_;
  size_t at_ = 0;
};

}  // namespace

void EncodePoint(const engine::league::HistoryPoint& point, double display, std::string& out) {
  char head[40];  // four varints
  char* end = PutVarint(static_cast<uint64_t>(point.games), head);
  end = PutVarint(static_cast<uint64_t>(point.position), end);
  end = PutVarint(ZigZag(absl::ToUnixMicros(point.time)), end);
  end = PutVarint(point.game_id.size(), end);
  out.append(head, static_cast<size_t>(end - head));
  out.append(point.game_id);
  char tail[42];  // four doubles and a varint
  end = PutDouble(point.rating.mu, tail);
  end = PutDouble(point.rating.sigma, end);
  end = PutDouble(point.rating.volatility, end);
  end = PutDouble(display, end);
  end = PutVarint(ZigZag(point.place), end);
  out.append(tail, static_cast<size_t>(end - tail));
}

absl::StatusOr<std::vector<HistoryRow>> DecodeChunk(std::string_view data,
                                                    const std::string& league_id,
                                                    const std::string& season,
                                                    const std::string& player) {
  std::vector<HistoryRow> out;
  Reader reader(data);
  while (!reader.done()) {
    HistoryRow row;
    row.league_id = league_id;
    row.point.season = season;
    row.point.player = player;
    uint64_t games = 0, position = 0;
    int64_t micros = 0, place = 0;
    if (!reader.Varint(games) || !reader.Varint(position) || !reader.Signed(micros) ||
        !reader.Bytes(row.point.game_id) || !reader.Double(row.point.rating.mu) ||
        !reader.Double(row.point.rating.sigma) || !reader.Double(row.point.rating.volatility) ||
        !reader.Double(row.display) || !reader.Signed(place)) {
      return absl::DataLossError(absl::StrCat("the rating history of player \"", player,
                                              "\" in league \"", league_id, "\" (season \"",
                                              season, "\") does not decode after ", out.size(),
                                              " points; rebuild the league"));
    }
    row.point.games = static_cast<int64_t>(games);
    row.point.position = static_cast<int64_t>(position);
    row.point.time = absl::FromUnixMicros(micros);
    row.point.place = static_cast<int>(place);
    out.push_back(std::move(row));
  }
  return out;
}

HistoryChunker::Table& HistoryChunker::TableOf(const std::string& season) {
  if (last_table_ < tables_.size() && tables_[last_table_].season == season) {
    return tables_[last_table_];
  }
  for (last_table_ = 0; last_table_ < tables_.size(); ++last_table_) {
    if (tables_[last_table_].season == season) return tables_[last_table_];
  }
  tables_.emplace_back().season = season;
  return tables_.back();
}

HistoryChunker::Open& HistoryChunker::OpenOf(Table& table, const engine::league::HistoryPoint& point) {
  if (!table.named && point.slot >= 0) {
    const auto slot = static_cast<size_t>(point.slot);
    if (slot >= table.by_slot.size()) {
      table.by_slot.resize(std::max(slot + 1, 2 * table.by_slot.size()));
    }
    Open& open = table.by_slot[slot];
    if (open.chunk < 0 || open.player == point.player) return open;
  }
  if (!table.named) {
    for (Open& open : table.by_slot) {
      if (open.chunk >= 0) table.by_name[open.player] = std::move(open);
    }
    table.by_slot.clear();
    table.named = true;
  }
  return table.by_name[point.player];
}

void HistoryChunker::Close(Open& open) {
  if (open.chunk < 0) return;
  HistoryChunk& closed = chunks_[open.index];
  closed.points = std::exchange(open.points, 0);
  closed.data = std::exchange(open.data, {});
}

void HistoryChunker::Add(const engine::league::HistoryPoint& point) {
  Table& table = TableOf(point.season);
  Open& open = OpenOf(table, point);
  const int64_t chunk = ChunkOf(point.games);
  if (open.chunk != chunk) {
    Close(open);
    if (open.chunk < 0) open.player = point.player;
    open.chunk = chunk;
    open.index = chunks_.size();
    HistoryChunk& added = chunks_.emplace_back();
    added.league_id = league_id_;
    added.season = point.season;
    added.player = point.player;
    added.chunk = chunk;
    open.data.reserve(static_cast<size_t>(kHistoryChunkPoints) * 64);
  }
  EncodePoint(point, engine::rating::DisplayRating(config_, point.rating), open.data);
  ++open.points;
  ++points_;
}

std::vector<HistoryChunk> HistoryChunker::Take() {
  for (Table& table : tables_) {
    for (Open& open : table.by_slot) Close(open);
    for (auto& [player, open] : table.by_name) Close(open);
  }
  tables_.clear();
  last_table_ = 0;
  points_ = 0;
  return std::exchange(chunks_, {});
}

}  // namespace arbiter::league
