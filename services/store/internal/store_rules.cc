#include "services/store/internal/store_rules.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "engine/core/sha256.h"
#include "services/common/status_details.h"
#include "services/store/internal/json_check.h"
#include "services/store/event_hash.h"

namespace arbiter::store {

const char* GameStatusName(GameStatus status) {
  switch (status) {
    case GameStatus::kActive: return "active";
    case GameStatus::kFinished: return "finished";
    case GameStatus::kVoided: return "voided";
    case GameStatus::kUnspecified: break;
  }
  return "unspecified";
}

std::optional<GameStatus> ParseGameStatus(const std::string& name) {
  if (name == "active") return GameStatus::kActive;
  if (name == "finished") return GameStatus::kFinished;
  if (name == "voided") return GameStatus::kVoided;
  return std::nullopt;
}

namespace internal {

absl::Status CheckId(const std::string& field, const std::string& value) {
  if (value.empty()) return absl::InvalidArgumentError(absl::StrCat(field, " is empty"));
  if (value.size() > static_cast<size_t>(kMaxIdBytes)) {
    return absl::InvalidArgumentError(absl::StrCat(field, " is ", value.size(),
                                                   " bytes; the limit is ", kMaxIdBytes));
  }
  for (char c : value) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return absl::InvalidArgumentError(absl::StrCat(field, " contains a control character"));
    }
  }
  return absl::OkStatus();
}

namespace {

absl::Status CheckOptionalId(const std::string& field, const std::string& value) {
  return value.empty() ? absl::OkStatus() : CheckId(field, value);
}

// Length-prefixed fields, so that no two different field lists collide.
void Field(std::string& out, const std::string& value) {
  absl::StrAppend(&out, value.size(), ":", value, ";");
}

}  // namespace

absl::Status ValidateCreateGame(const CreateGameRequest& request) {
  const GameRecord& game = request.game;
  for (const auto& [field, value] :
       {std::pair<const char*, const std::string*>{"request_id", &request.request_id},
        {"game_id", &game.game_id},
        {"game", &game.game},
        {"ruleset_id", &game.ruleset_id},
        {"created_by", &game.created_by}}) {
    if (absl::Status status = CheckId(field, *value); !status.ok()) return status;
  }
  if (absl::Status status = CheckOptionalId("league_id", game.league_id); !status.ok()) return status;
  if (absl::Status status = CheckOptionalId("tournament_id", game.tournament_id); !status.ok()) {
    return status;
  }
  if (!engine::IsSha256Hex(game.ruleset_hash)) {
    return absl::InvalidArgumentError("ruleset_hash is not 64 lowercase hex digits");
  }
  if (game.seed.has_value() == !game.seed_commitment.empty()) {
    return absl::InvalidArgumentError("give exactly one of seed and seed_commitment");
  }
  if (!game.seed_commitment.empty()) {
    if (absl::Status status = CheckId("seed_commitment", game.seed_commitment); !status.ok()) {
      return status;
    }
  }
  if (game.players.empty()) return absl::InvalidArgumentError("players is empty");
  if (game.players.size() > static_cast<size_t>(kMaxPlayers)) {
    return absl::InvalidArgumentError(
        absl::StrCat("players has ", game.players.size(), " entries; the limit is ", kMaxPlayers));
  }
  for (size_t i = 0; i < game.players.size(); ++i) {
    if (absl::Status status = CheckId(absl::StrCat("players[", i, "]"), game.players[i]);
        !status.ok()) {
      return status;
    }
  }
  switch (game.status) {
    case GameStatus::kUnspecified:
    case GameStatus::kActive:
      break;
    case GameStatus::kFinished:
      if (request.events.empty()) {
        return absl::InvalidArgumentError("a game created finished needs its events");
      }
      break;
    case GameStatus::kVoided:
      return absl::InvalidArgumentError("a game cannot be created voided");
  }
  if (!request.played_key.empty()) {
    if (!engine::IsSha256Hex(request.played_key)) {
      return absl::InvalidArgumentError("played_key is not 64 lowercase hex digits");
    }
    if (request.events.empty()) {
      return absl::InvalidArgumentError("played_key needs the game's events");
    }
  }
  if (request.events.empty()) return absl::OkStatus();
  return ValidateBatch(request.request_id, game.game_id, game.created_by, 0, request.events, kCreateLimits);
}

bool IsStatusEventType(const std::string& type) {
  return type == kGameFinishedType || type == kGameVoidedType;
}

GameStatus StatusAfterBatch(GameStatus current, const std::vector<NewEvent>& events) {
  if (events.empty()) return current;
  if (events.back().type == kGameFinishedType) return GameStatus::kFinished;
  if (events.back().type == kGameVoidedType) return GameStatus::kVoided;
  return current;
}

absl::Status CheckAppendAllowed(const GameRecord& game, const std::vector<NewEvent>& events) {
  if (game.status == GameStatus::kActive) return absl::OkStatus();
  // A finished game may still be voided, or given a corrected result (a
  // further "game_finished" event, which replaces the earlier one).
  if (game.status == GameStatus::kFinished && events.size() == 1 &&
      (events[0].type == kGameVoidedType || events[0].type == kGameFinishedType)) {
    return absl::OkStatus();
  }
  return GameNotActive(game);
}

AppendRequest FirstBatch(const CreateGameRequest& request) {
  AppendRequest batch;
  batch.game_id = request.game.game_id;
  batch.expected_sequence = 0;
  batch.request_id = request.request_id;
  batch.recorded_by = request.game.created_by;
  batch.events = request.events;
  return batch;
}

namespace {

// An id of a derived id's form must be the derived id of its own event: the
// PostgreSQL store keeps derived ids as NULL, so another event holding one
// would escape the store's uniqueness check.
absl::Status CheckDerivedForm(const std::string& where, const std::string& game_id,
                              int64_t sequence, const std::string& event_id) {
  if (!HasDerivedEventIdForm(event_id)) return absl::OkStatus();
  const std::string derived = DerivedEventId(game_id, sequence);
  if (event_id == derived) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      where, ".event_id \"", event_id, "\" has the form of a derived event id (32 hex digits, '-', "
      "a sequence) but is not that of event ", sequence, " of game \"", game_id, "\" (\"", derived,
      "\"); send that id, or an id of another form"));
}

}  // namespace

absl::Status ValidateAppend(const AppendRequest& request) {
  return ValidateBatch(request.request_id, request.game_id, request.recorded_by,
                       request.expected_sequence, request.events);
}

absl::Status ValidateBatch(const std::string& request_id, const std::string& game_id,
                           const std::string& recorded_by, int64_t expected_sequence,
                           const std::vector<NewEvent>& events, BatchLimits limits) {
  if (absl::Status status = CheckId("request_id", request_id); !status.ok()) return status;
  if (absl::Status status = CheckId("game_id", game_id); !status.ok()) return status;
  if (absl::Status status = CheckId("recorded_by", recorded_by); !status.ok()) return status;
  if (expected_sequence < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected_sequence is ", expected_sequence, "; it cannot be negative"));
  }
  if (events.empty()) return absl::InvalidArgumentError("the batch has no events");
  if (events.size() > static_cast<size_t>(limits.max_events)) {
    return absl::InvalidArgumentError(absl::StrCat("the batch has ", events.size(),
                                                   " events; the limit is ", limits.max_events));
  }
  int64_t total = 0;
  std::set<std::string> ids;
  for (size_t i = 0; i < events.size(); ++i) {
    const NewEvent& event = events[i];
    const std::string where = absl::StrCat("events[", i, "]");
    if (absl::Status status = CheckId(where + ".event_id", event.event_id); !status.ok()) {
      return status;
    }
    if (absl::Status status = CheckId(where + ".type", event.type); !status.ok()) return status;
    if (absl::Status status = CheckDerivedForm(where, game_id, expected_sequence + 1 +
                                                                static_cast<int64_t>(i), event.event_id);
        !status.ok()) {
      return status;
    }
    if (IsStatusEventType(event.type) && i + 1 != events.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ".type is \"", event.type, "\", which ends the game; it must be the batch's last event"));
    }
    if (static_cast<int64_t>(event.payload.size()) > kMaxPayloadBytes) {
      return absl::InvalidArgumentError(absl::StrCat(where, ".payload is ", event.payload.size(),
                                                     " bytes; the limit is ", kMaxPayloadBytes));
    }
    if (!event.json.empty()) {
      if (std::string problem = JsonProblem(event.json); !problem.empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, ".json is not valid JSON: ", problem));
      }
    }
    total += static_cast<int64_t>(event.payload.size() + event.json.size());
    if (!ids.insert(event.event_id).second) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ".event_id \"", event.event_id, "\" appears twice in the batch"));
    }
  }
  if (total > limits.max_bytes) {
    return absl::InvalidArgumentError(absl::StrCat("the batch holds ", total,
                                                   " bytes of payload and JSON; the limit is ",
                                                   limits.max_bytes));
  }
  return absl::OkStatus();
}

absl::Status ValidateLimit(int limit) {
  if (limit < 1 || limit > 10000) {
    return absl::InvalidArgumentError(absl::StrCat("limit is ", limit, "; it must be 1..10000"));
  }
  return absl::OkStatus();
}

std::string CreateDigest(const CreateGameRequest& request) {
  const GameRecord& game = request.game;
  std::string out;
  for (const std::string* value : {&game.game_id, &game.game, &game.ruleset_id, &game.ruleset_hash,
                                   &game.seed_commitment, &game.created_by, &game.league_id,
                                   &game.tournament_id}) {
    Field(out, *value);
  }
  Field(out, game.seed.has_value() ? absl::StrCat(*game.seed) : "-");
  for (const std::string& player : game.players) Field(out, player);
  // A game created with events: they and the status are part of the request
  // (a game without events keeps the digest it always had).
  if (!request.events.empty()) {
    Field(out, game.status == GameStatus::kFinished ? "finished" : "active");
    for (const NewEvent& event : request.events) {
      Field(out, event.event_id);
      Field(out, event.type);
      Field(out, event.payload);
      Field(out, event.json);
    }
  }
  return engine::Sha256Hex(out);
}

std::string AppendDigest(const AppendRequest& request) {
  std::string out;
  Field(out, request.game_id);
  Field(out, absl::StrCat(request.expected_sequence));
  Field(out, request.recorded_by);
  for (const NewEvent& event : request.events) {
    Field(out, event.event_id);
    Field(out, event.type);
    Field(out, event.payload);
    Field(out, event.json);
  }
  return engine::Sha256Hex(out);
}

absl::Status GameNotFound(const std::string& game_id) {
  return absl::NotFoundError(absl::StrCat("game \"", game_id, "\" does not exist"));
}

absl::Status SequenceMismatch(const std::string& game_id, int64_t expected, int64_t current) {
  return absl::AbortedError(absl::StrCat("expected sequence ", expected, ", game \"", game_id,
                                         "\" is at ", current));
}

absl::Status GameNotActive(const GameRecord& game) {
  return absl::FailedPreconditionError(absl::StrCat("game \"", game.game_id, "\" is ",
                                                    GameStatusName(game.status),
                                                    "; no more events may be appended"));
}

absl::Status SamePlayedGame(const std::string& game_id) {
  return common::WithErrorInfo(
      absl::AlreadyExistsError(absl::StrCat("the same game (header and actions) is stored as game \"",
                                            game_id, "\"")),
      "DUPLICATE_GAME", {{"game", game_id}});
}

absl::Status CreationOutcomeUnknown(const std::string& request_id, absl::string_view why) {
  return absl::UnavailableError(absl::StrCat(
      "the outcome of the creation with request id \"", request_id,
      "\" is unknown: its commit was cut off (", why,
      "); retry with the same request id, which answers it exactly once"));
}

absl::Status AppendNotStored(const std::string& request_id, absl::string_view how) {
  return absl::UnavailableError(absl::StrCat(
      "the append with request id \"", request_id,
      "\" was not stored: the connection to PostgreSQL was lost while it was being committed, "
      "and looking it up again after reconnecting found ", how, "; nothing was written, retry"));
}

absl::Status AppendOutcomeUnknown(const std::string& request_id, absl::string_view why) {
  return absl::UnavailableError(absl::StrCat(
      "the outcome of the append with request id \"", request_id,
      "\" is unknown: its commit was cut off and it could not be looked up again (", why,
      "); retry with the same request id, which answers it exactly once"));
}

absl::Status RequestIdReused(const std::string& request_id) {
  return absl::InvalidArgumentError(absl::StrCat(
      "request id \"", request_id, "\" was already used for a different request"));
}

absl::Status EventIdTaken(const std::string& event_id, const StoredEvent& existing,
                          const NewEvent& offered) {
  const bool same = existing.type == offered.type && existing.payload == offered.payload;
  return absl::AlreadyExistsError(absl::StrCat(
      "event id \"", event_id, "\" is already stored as sequence ", existing.sequence,
      " of game \"", existing.game_id, "\"",
      same ? " with the same content (retry with the original request id)"
           : " with different content"));
}

std::vector<std::string> ChainHashes(const std::string& game_id, const std::string& prev_hash,
                                     int64_t first_sequence, const std::vector<NewEvent>& events) {
  std::vector<std::string> hashes;
  hashes.reserve(events.size());
  std::string prev = prev_hash;
  for (size_t i = 0; i < events.size(); ++i) {
    const NewEvent& event = events[i];
    prev = EventHash(prev, first_sequence + static_cast<int64_t>(i), game_id, event.event_id,
                     event.type, event.payload);
    hashes.push_back(prev);
  }
  return hashes;
}

absl::Status ChainCheck::Add(const std::vector<StoredEvent>& events) {
  for (const StoredEvent& event : events) {
    const std::string where = absl::StrCat("event ", event.sequence, " (\"", event.event_id,
                                           "\") of game \"", game_.game_id, "\"");
    if (event.sequence != expected_sequence_) {
      return absl::DataLossError(absl::StrCat(where, " should have sequence ", expected_sequence_));
    }
    if (event.prev_hash != prev_) {
      return absl::DataLossError(
          absl::StrCat(where, ": its prev_hash does not match the hash of the event before"));
    }
    std::string hash =
        EventHash(prev_, event.sequence, game_.game_id, event.event_id, event.type, event.payload);
    if (event.hash != hash) {
      return absl::DataLossError(
          absl::StrCat(where, ": its stored hash does not match its contents"));
    }
    prev_ = std::move(hash);
    ++expected_sequence_;
  }
  return absl::OkStatus();
}

absl::StatusOr<VerifyReport> ChainCheck::Finish() const {
  const int64_t count = expected_sequence_ - 1;
  if (count != game_.last_sequence) {
    return absl::DataLossError(absl::StrCat("game \"", game_.game_id, "\" records ",
                                            game_.last_sequence, " events but ", count,
                                            " are stored"));
  }
  const std::string last = count == 0 ? std::string() : prev_;
  if (last != game_.last_hash) {
    return absl::DataLossError(absl::StrCat(
        "game \"", game_.game_id, "\": the recorded last hash does not match the last event"));
  }
  return VerifyReport{count, last};
}

absl::StatusOr<VerifyReport> VerifyChain(const GameRecord& game,
                                         const std::vector<StoredEvent>& events) {
  ChainCheck check(game);
  if (absl::Status status = check.Add(events); !status.ok()) return status;
  return check.Finish();
}

std::string EncodePageToken(const std::string& last_game_id) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : last_game_id) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 0xf]);
  }
  return out;
}

absl::StatusOr<std::string> DecodePageToken(const std::string& token) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  if (token.size() % 2 != 0 || token.size() > 2 * static_cast<size_t>(kMaxIdBytes)) {
    return absl::InvalidArgumentError("page_token is not one this store issued");
  }
  std::string out;
  for (size_t i = 0; i < token.size(); i += 2) {
    const int hi = nibble(token[i]);
    const int lo = nibble(token[i + 1]);
    if (hi < 0 || lo < 0) return absl::InvalidArgumentError("page_token is not one this store issued");
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

absl::StatusOr<int> NormalisePageSize(int page_size) {
  if (page_size == 0) return 100;
  if (page_size < 0 || page_size > 1000) {
    return absl::InvalidArgumentError(
        absl::StrCat("page_size is ", page_size, "; it must be 1..1000 (0 for 100)"));
  }
  return page_size;
}

}  // namespace internal
}  // namespace arbiter::store
