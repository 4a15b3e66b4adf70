#include "services/games/chained_game.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/seed_derivation.h"
#include "engine/core/status_macros.h"
#include "services/games/game_events.h"

namespace arbiter::games {
namespace {

constexpr int kTailBatch = 100;

std::string SeedText(const store::GameRecord& record) {
  if (record.seed.has_value()) return absl::StrCat("seed ", *record.seed);
  return absl::StrCat("commitment \"", record.seed_commitment, "\"");
}

}  // namespace

bool IsSealed(const v1::GameCreated& created) {
  return !created.seed_commitment().empty() && !created.server_random().empty();
}

absl::StatusOr<std::string> ExpectedCommitment(const std::string& game_id,
                                               const v1::GameCreated& created, uint64_t seed,
                                               const std::string& nonce) {
  absl::StatusOr<std::string> v1_commitment = SeedCommitment(seed, nonce);  // checks the nonce
  if (!v1_commitment.ok() || !IsSealed(created)) return v1_commitment;
  return engine::SealedSeedCommitment(game_id, seed, nonce);
}

std::optional<uint64_t> EngineSeed(const std::string& game_id, const v1::GameCreated& created,
                                   const std::optional<v1::SeedRevealed>& revealed) {
  if (created.seed_commitment().empty()) return created.header().seed();
  if (!revealed.has_value()) return std::nullopt;
  if (!IsSealed(created)) return revealed->seed();
  return engine::DeriveSealedSeed(game_id, revealed->seed(), created.server_random());
}

absl::Status CheckReveal(const std::string& game_id, const v1::GameCreated& created,
                         const v1::SeedRevealed& revealed, int64_t sequence) {
  if (created.seed_commitment().empty()) {
    return absl::DataLossError(absl::StrCat("event ", sequence, " of game \"", game_id,
                                            "\" reveals a seed, but event 1 commits to none"));
  }
  absl::StatusOr<std::string> commitment =
      ExpectedCommitment(game_id, created, revealed.seed(), revealed.nonce());
  if (!commitment.ok() || *commitment != created.seed_commitment()) {
    return absl::DataLossError(absl::StrCat(
        "event ", sequence, " of game \"", game_id,
        "\" reveals a seed that does not open the commitment of event 1 (",
        IsSealed(created) ? "arbiter-seed-v2" : "arbiter-seed-v1", ")"));
  }
  return absl::OkStatus();
}

store::GameStatus StatusOfLastEvent(const std::string& type) {
  if (type == store::kGameFinishedType) return store::GameStatus::kFinished;
  if (type == store::kGameVoidedType) return store::GameStatus::kVoided;
  return store::GameStatus::kActive;
}

store::GameRecord RecordFromChain(const store::GameRecord& row, const v1::GameCreated& created,
                                  const store::StoredEvent& first, const store::StoredEvent& last) {
  store::GameRecord out = row;
  const v1::LogHeader& header = created.header();
  out.game_id = first.game_id;
  out.game = header.game();
  out.ruleset_id = header.ruleset_id();
  out.ruleset_hash = header.ruleset_hash();
  if (created.seed_commitment().empty()) {
    out.seed = header.seed();
    out.seed_commitment.clear();
  } else {
    out.seed.reset();
    out.seed_commitment = created.seed_commitment();
  }
  out.players.clear();
  for (const v1::Player& player : header.players()) out.players.push_back(player.id());
  out.created_by = first.recorded_by;
  out.league_id = created.league();
  out.tournament_id = created.tournament();
  out.spectators = created.spectators();
  out.creator_token_id = created.creator_token_id();
  out.status = StatusOfLastEvent(last.type);
  out.last_sequence = last.sequence;
  out.last_hash = last.hash;
  return out;
}

absl::StatusOr<store::GameRecord> ChainedRecord(store::EventStore& store,
                                                const std::string& game_id) {
  // The row, event 1 and the last event in one statement (one snapshot).
  ARBITER_ASSIGN_OR_RETURN(const store::GameHead head, store.ReadGameHead(game_id, 1));
  if (head.first_events.empty()) return head.row;
  const store::StoredEvent& first = head.first_events.front();
  ARBITER_ASSIGN_OR_RETURN(const v1::Event created, DecodeEvent(first));
  if (!created.has_game_created()) {
    return absl::DataLossError(
        absl::StrCat("event 1 of game \"", game_id, "\" is not the game's creation"));
  }
  return RecordFromChain(head.row, created.game_created(), first,
                         head.last_event.has_value() ? *head.last_event : first);
}

absl::StatusOr<store::GameRecord> ConfirmedChainedRecord(store::EventStore& store,
                                                         const std::string& game_id) {
  absl::StatusOr<store::GameRecord> record = ChainedRecord(store, game_id);
  if (!absl::IsNotFound(record.status())) return record;
  const absl::Status absent = store.ConfirmGameAbsent(game_id);
  if (absl::IsNotFound(absent)) return record;
  ARBITER_RETURN_IF_ERROR(absent);
  record = ChainedRecord(store, game_id);
  if (!absl::IsNotFound(record.status())) return record;
  // Said before any permission check: the words must not tell whether the
  // game exists.
  return absl::UnavailableError(absl::StrCat(
      "game \"", game_id, "\" could not be read as the primary has it (this server may be "
      "catching up after a failover): retry"));
}

absl::StatusOr<std::optional<store::StoredEvent>> LastStoredEvent(store::EventStore& store,
                                                                  const store::GameRecord& row) {
  std::optional<store::StoredEvent> last;
  int64_t after = std::max<int64_t>(0, row.last_sequence - 1);
  while (true) {
    ARBITER_ASSIGN_OR_RETURN(const std::vector<store::StoredEvent> tail,
                             store.ReadGameEvents(row.game_id, after, kTailBatch));
    if (!tail.empty()) last = tail.back();
    if (static_cast<int>(tail.size()) < kTailBatch) break;
    after = last->sequence;
  }
  if (!last.has_value() && after > 0) {
    // The row claims more events than are stored: read from the start.
    store::GameRecord from_start;
    from_start.game_id = row.game_id;
    return LastStoredEvent(store, from_start);
  }
  return last;
}

std::optional<RowMismatch> CompareRow(const store::GameRecord& row,
                                      const store::GameRecord& chained) {
  auto differs = [](const char* column, const std::string& in_row, const std::string& in_chain) {
    return RowMismatch{column, absl::StrCat("the games row says ", column, " is ", in_row,
                                            " but the chained events say ", in_chain)};
  };
  auto quoted = [](const std::string& text) { return absl::StrCat("\"", text, "\""); };
  if (row.game != chained.game) return differs("game", quoted(row.game), quoted(chained.game));
  if (row.ruleset_id != chained.ruleset_id) {
    return differs("ruleset_id", quoted(row.ruleset_id), quoted(chained.ruleset_id));
  }
  if (row.ruleset_hash != chained.ruleset_hash) {
    return differs("ruleset_hash", quoted(row.ruleset_hash), quoted(chained.ruleset_hash));
  }
  if (row.seed != chained.seed) {
    return differs("seed", SeedText(row), SeedText(chained));
  }
  if (row.seed_commitment != chained.seed_commitment) {
    return differs("seed_commitment", SeedText(row), SeedText(chained));
  }
  if (row.players != chained.players) {
    return differs("players", absl::StrCat("[", absl::StrJoin(row.players, ", "), "]"),
                   absl::StrCat("[", absl::StrJoin(chained.players, ", "), "]"));
  }
  if (row.created_by != chained.created_by) {
    return differs("created_by", quoted(row.created_by), quoted(chained.created_by));
  }
  if (row.league_id != chained.league_id) {
    return differs("league_id", quoted(row.league_id), quoted(chained.league_id));
  }
  if (row.tournament_id != chained.tournament_id) {
    return differs("tournament_id", quoted(row.tournament_id), quoted(chained.tournament_id));
  }
  if (row.status != chained.status) {
    return differs("status", std::string(store::GameStatusName(row.status)),
                   std::string(store::GameStatusName(chained.status)));
  }
  return std::nullopt;
}

void VerifyRowAgainstChain(const store::GameRecord& row, const store::GameRecord& chained,
                           v1::VerifyGameResponse& out) {
  std::optional<RowMismatch> mismatch = CompareRow(row, chained);
  if (!mismatch.has_value()) return;
  out.set_intact(false);
  out.set_first_bad_event(mismatch->column == "status" ? chained.last_sequence : 1);
  out.set_bad_column(mismatch->column);
  out.set_problem(mismatch->problem);
}

}  // namespace arbiter::games
