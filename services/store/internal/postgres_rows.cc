#include "services/store/internal/postgres_rows.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "services/store/event_hash.h"
#include "services/store/internal/store_rules.h"
#include "services/store/pg/arrays.h"

namespace arbiter::store::internal {
namespace {

using pg::TextArray;

absl::Time MicrosToTime(const pqxx::field& field) {
  return absl::FromUnixMicros(field.as<int64_t>());
}

std::string OptionalText(const pqxx::field& field) {
  return field.is_null() ? std::string() : field.as<std::string>();
}

std::vector<std::string> ParseTextArray(const pqxx::field& field) {
  std::vector<std::string> out;
  pqxx::array_parser parser = field.as_array();
  for (auto next = parser.get_next(); next.first != pqxx::array_parser::done;
       next = parser.get_next()) {
    if (next.first == pqxx::array_parser::string_value) out.push_back(next.second);
  }
  return out;
}

}  // namespace

absl::StatusOr<GameRecord> GameFromRow(const pqxx::row& row) {
  GameRecord game;
  game.game_id = row[0].as<std::string>();
  game.game = row[1].as<std::string>();
  game.ruleset_id = row[2].as<std::string>();
  game.ruleset_hash = row[3].as<std::string>();
  if (!row[4].is_null()) {
    uint64_t seed = 0;
    if (!absl::SimpleAtoi(row[4].as<std::string>(), &seed)) {
      return absl::DataLossError(absl::StrCat("game \"", game.game_id, "\" has a bad seed"));
    }
    game.seed = seed;
  }
  game.seed_commitment = OptionalText(row[5]);
  game.players = ParseTextArray(row[6]);
  std::optional<GameStatus> status = ParseGameStatus(row[7].as<std::string>());
  if (!status.has_value()) {
    return absl::DataLossError(absl::StrCat("game \"", game.game_id, "\" has an unknown status"));
  }
  game.status = *status;
  game.created_by = row[8].as<std::string>();
  game.created_at = MicrosToTime(row[9]);
  game.league_id = OptionalText(row[10]);
  game.tournament_id = OptionalText(row[11]);
  game.last_sequence = row[12].as<int64_t>();
  game.last_hash = OptionalText(row[13]);
  return game;
}

StoredEvent EventFromRow(const pqxx::row& row) {
  StoredEvent event;
  event.position = row[0].as<int64_t>();
  event.game_id = row[1].as<std::string>();
  event.sequence = row[2].as<int64_t>();
  event.event_id =
      row[3].is_null() ? DerivedEventId(event.game_id, event.sequence) : row[3].as<std::string>();
  event.type = row[4].as<std::string>();
  event.payload = pqxx::binarystring(row[5]).str();
  event.json = OptionalText(row[6]);
  event.recorded_by = row[7].as<std::string>();
  event.recorded_at = MicrosToTime(row[8]);
  if (!row[9].is_null()) {
    event.prev_hash = row[9].as<std::string>();
  } else if (event.sequence == 1) {
    event.prev_hash = GenesisHash();
  }
  event.hash = row[10].as<std::string>();
  return event;
}

AppendResult AnswerFromRow(const pqxx::row& row, int first) {
  AppendResult result;
  result.first_sequence = row[first].as<int64_t>();
  result.last_sequence = row[first + 1].as<int64_t>();
  result.first_position = row[first + 2].as<int64_t>();
  result.last_position = row[first + 3].as<int64_t>();
  result.last_hash = row[first + 4].as<std::string>();
  result.replayed = true;
  return result;
}

std::string PrevHashWhere(const std::string& lookup) {
  return absl::StrCat("CASE WHEN e.sequence > 1 AND (", lookup,
                      ") THEN (SELECT encode(p.hash, 'hex') FROM events p "
                      "WHERE p.game_id = e.game_id AND p.sequence = e.sequence - 1) END");
}

std::string EventColumns(const std::string& lookup) {
  return absl::StrCat(
      "r.first_position + (e.sequence - r.first_sequence), e.game_id, e.sequence, e.event_id, "
      "e.type, e.payload, e.payload_json::text, r.recorded_by, "
      "(extract(epoch FROM r.recorded_at) * 1000000)::bigint, ",
      PrevHashWhere(lookup), ", encode(e.hash, 'hex')");
}

void FillPrevHashes(std::vector<StoredEvent>& events) {
  for (std::size_t i = 1; i < events.size(); ++i) {
    StoredEvent& event = events[i];
    const StoredEvent& before = events[i - 1];
    if (event.prev_hash.empty() && before.game_id == event.game_id &&
        before.sequence + 1 == event.sequence) {
      event.prev_hash = before.hash;
    }
  }
}

std::optional<std::string> NullIfEmpty(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return text;
}

void EventRows::Add(int64_t batch, const std::string& game_id, int64_t sequence,
                    const NewEvent& event, const std::string& hash, bool keep_json) {
  batches.push_back(batch);
  sequences.push_back(sequence);
  ids.push_back(event.event_id == DerivedEventId(game_id, sequence) ? std::string()
                                                                     : event.event_id);
  types.push_back(event.type);
  hashes += hash;
  payload_offsets.push_back(static_cast<int64_t>(payloads.size()) + 1);
  payload_lengths.push_back(static_cast<int64_t>(event.payload.size()));
  payloads += event.payload;
  json_offsets.push_back(static_cast<int64_t>(jsons.size()) + 1);
  const bool json = keep_json && !event.json.empty();
  json_lengths.push_back(json ? static_cast<int64_t>(event.json.size()) : -1);
  if (json) jsons += event.json;
}

std::optional<absl::Status> TakenEventId(pqxx::connection_base& conn,
                                         const std::vector<NewEvent>& events) {
  pqxx::read_transaction txn(conn);
  std::vector<std::string> ids;
  ids.reserve(events.size());
  for (const NewEvent& event : events) ids.push_back(event.event_id);
  pqxx::result taken = txn.exec_params(
      absl::StrCat("SELECT ", EventColumns("true"), kEventsWithTheirBatch,
                   "WHERE e.event_id = ANY($1::text[]) ORDER BY 1 LIMIT 1"),
      TextArray(ids));
  if (taken.empty()) return std::nullopt;
  const StoredEvent existing = EventFromRow(taken[0]);
  for (const NewEvent& event : events) {
    if (event.event_id == existing.event_id) {
      return EventIdTaken(event.event_id, existing, event);
    }
  }
  return std::nullopt;
}

}  // namespace arbiter::store::internal
