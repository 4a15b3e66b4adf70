// GameWriter's creation flows: CreateGame (Create) and a tournament round's
// tables at once (CreateMany), both through PrepareCreate.
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "engine/core/dealer_seed.h"
#include "engine/core/game.h"
#include "engine/core/sha256.h"
#include "engine/core/status_macros.h"
#include "services/common/status_details.h"
#include "services/games/chained_game.h"
#include "services/games/dealt_game.h"
#include "services/games/game_events.h"
#include "services/games/game_views.h"
#include "services/games/game_writer.h"
#include "services/games/sealed_seed.h"
#include "services/games/write_checks.h"

namespace arbiter::games {
namespace {

// The header of the game `game` asks for, with the ruleset filled in from
// the registry when the request names none (the game type's default) or
// names one by id alone.
v1::LogHeader HeaderAskedFor(const engine::RulesetRegistry& registry, const v1::Game& game) {
  v1::LogHeader header;
  header.set_game(game.game_type());
  header.set_ruleset_id(game.ruleset_id());
  header.set_ruleset_hash(game.ruleset_hash());
  if (engine::FindGame(game.game_type()) != nullptr) {
    const engine::RegisteredRuleset* ruleset = nullptr;
    if (game.ruleset_id().empty() && game.ruleset_hash().empty()) {
      ruleset = registry.DefaultFor(game.game_type());
    } else if (game.ruleset_hash().empty()) {
      ruleset = registry.FindById(game.ruleset_id());
    }
    if (ruleset != nullptr) {
      header.set_ruleset_id(ruleset->ruleset.id());
      header.set_ruleset_hash(ruleset->hash);
    }
  }
  *header.mutable_players() = game.players();
  header.mutable_options()->insert(game.options().begin(), game.options().end());
  return header;
}

// Event 1's seed: the request's seed in the header, or its commitment with
// the server's seal (sealed_seed.h). InvalidArgument naming the field for a
// malformed commitment, a commitment without a game_id, a bad reveal_within,
// or neither seed nor commitment.
absl::Status SetSeedSource(const v1::CreateGameRequest& request,
                           const std::string& dealer_commitment, v1::GameCreated& created) {
  const v1::Game& game = request.game();
  if (game.deal()) {
    if (game.seed_source_case() != v1::Game::SEED_SOURCE_NOT_SET || request.has_reveal_within()) {
      return common::FieldError("game.deal",
                                "a dealt game takes no seed, seed_commitment or reveal_within: "
                                "the server deals (docs/chance.md, \"Dealt games\")");
    }
    created.set_seed_commitment(dealer_commitment);
    created.set_dealt(true);
    return absl::OkStatus();
  }
  switch (game.seed_source_case()) {
    case v1::Game::kSeed:
      created.mutable_header()->set_seed(game.seed());
      break;
    case v1::Game::kSeedCommitment:
      if (!engine::IsSha256Hex(game.seed_commitment())) {
        return common::FieldError("game.seed_commitment",
                                  "seed_commitment must be a SHA-256 as 64 lowercase hex digits");
      }
      if (request.game_id().empty()) {
        return common::FieldError("game_id",
                                  "a game created with a seed_commitment is sealed: give its game_id, "
                                  "to which the commitment is bound (SHA-256 of "
                                  "\"arbiter-seed-v2:<game_id>:<seed>:<nonce>\")");
      }
      created.set_seed_commitment(game.seed_commitment());
      ARBITER_RETURN_IF_ERROR(Seal(request, created));
      break;
    case v1::Game::SEED_SOURCE_NOT_SET:
      return common::FieldError("game.seed",
                                "give the game's seed or a seed_commitment to it, or set deal "
                                "for the server to deal (arbiter deal create)");
  }
  if (request.has_reveal_within() && !game.has_seed_commitment()) {
    return common::FieldError("reveal_within",
                              "reveal_within applies only to games created with a seed_commitment");
  }
  return absl::OkStatus();
}

// Event 1 of the game `request` creates for `caller`: the header asked for,
// the seed source, league, tournament, the creating token and whether
// spectators may follow it.
// InvalidArgument naming the field if the seed source is wrong or the
// header does not start a game.
absl::StatusOr<v1::GameCreated> CreationOf(const engine::RulesetRegistry& registry,
                                           const access::Caller& caller,
                                           const v1::CreateGameRequest& request,
                                           const std::string& dealer_commitment) {
  const v1::Game& game = request.game();
  v1::GameCreated created;
  *created.mutable_header() = HeaderAskedFor(registry, game);
  ARBITER_RETURN_IF_ERROR(SetSeedSource(request, dealer_commitment, created));
  absl::StatusOr<replay::Referee> referee = replay::Referee::Start(created.header(), registry);
  if (!referee.ok()) return HeaderError(referee.status(), "game", false);
  created.set_league(game.league());
  created.set_tournament(game.tournament());
  created.set_creator_token_id(caller.token_id);
  created.set_spectators(game.spectators());
  return created;
}

// The game a retried sealed creation stored the first time, answered as
// then; nullopt unless event 1 of `game_id` was recorded by `principal` and
// is `created` but for the server's draw and the deadline. A retry draws
// other server bytes, so the store sees another request.
absl::StatusOr<std::optional<v1::Game>> SealedCreationAgain(store::EventStore& store,
                                                            const std::string& principal,
                                                            const std::string& game_id,
                                                            const v1::GameCreated& created) {
  absl::StatusOr<std::vector<store::StoredEvent>> first = store.ReadGameEvents(game_id, 0, 1);
  v1::GameCreated earlier;
  if (!first.ok() || first->empty() || first->front().recorded_by != principal ||
      !earlier.ParseFromString(first->front().payload) ||
      !SameSealedCreation(earlier, created)) {
    return std::optional<v1::Game>();
  }
  ARBITER_ASSIGN_OR_RETURN(const store::GameRecord record, ChainedRecord(store, game_id));
  return std::optional<v1::Game>(ToGame(record, &earlier, true));
}

}  // namespace

absl::StatusOr<v1::Game> GameWriter::Create(const access::Caller& caller,
                                            const v1::CreateGameRequest& request) {
  ARBITER_ASSIGN_OR_RETURN(const PreparedGame prepared, PrepareCreate(caller, request, nullptr));
  absl::StatusOr<store::GameRecord> stored = store_.CreateGame(prepared.create);
  if (!stored.ok() && IsSealed(prepared.created) &&
      (absl::IsInvalidArgument(stored.status()) || absl::IsAlreadyExists(stored.status()))) {
    ARBITER_ASSIGN_OR_RETURN(
        std::optional<v1::Game> again,
        SealedCreationAgain(store_, caller.principal, prepared.create.game.game_id, prepared.created));
    if (again.has_value()) return *std::move(again);
  }
  ARBITER_RETURN_IF_ERROR(stored.status());
  v1::Game out = ToGame(*stored, &prepared.created, true);
  DescribeDeal(prepared.created, Deal{}, out);  // a new deal: every seat's value awaited
  return out;
}

std::vector<absl::StatusOr<v1::Game>> GameWriter::CreateMany(
    const access::Caller& caller, const std::vector<v1::CreateGameRequest>& requests) {
  std::vector<absl::StatusOr<v1::Game>> out;
  out.reserve(requests.size());
  std::vector<PreparedGame> prepared;
  std::vector<size_t> index;  // prepared[i] answers requests[index[i]]
  CreateMemo memo;
  KeepDealtSecrets(caller, requests, memo);
  for (size_t i = 0; i < requests.size(); ++i) {
    absl::StatusOr<PreparedGame> one = PrepareCreate(caller, requests[i], &memo);
    if (!one.ok()) {
      out.push_back(one.status());
      continue;
    }
    out.push_back(absl::UnknownError("not written"));
    prepared.push_back(*std::move(one));
    index.push_back(i);
  }
  std::vector<store::CreateGameRequest> creates;
  creates.reserve(prepared.size());
  for (PreparedGame& one : prepared) creates.push_back(std::move(one.create));
  std::vector<absl::StatusOr<store::GameRecord>> stored = store_.CreateGames(creates);
  for (size_t i = 0; i < prepared.size(); ++i) {
    if (!stored[i].ok()) {
      out[index[i]] = stored[i].status();
    } else {
      v1::Game game = ToGame(*stored[i], &prepared[i].created, true);
      DescribeDeal(prepared[i].created, Deal{}, game);
      out[index[i]] = std::move(game);
    }
  }
  return out;
}

absl::StatusOr<std::string> GameWriter::DealerCommitmentFor(const std::string& game_id) {
  ARBITER_ASSIGN_OR_RETURN(const std::string secret, DrawDealerSecret());
  ARBITER_ASSIGN_OR_RETURN(const std::string kept, store_.KeepDealerSecret(game_id, secret));
  return engine::DealerCommitment(game_id, kept);
}

void GameWriter::KeepDealtSecrets(const access::Caller& caller,
                                  const std::vector<v1::CreateGameRequest>& requests,
                                  CreateMemo& memo) {
  std::vector<std::pair<std::string, std::string>> secrets;
  for (const v1::CreateGameRequest& request : requests) {
    if (!request.game().deal()) continue;
    absl::StatusOr<std::string> game_id =
        GameIdToCreate(request.game_id(), caller.principal, request.request_id());
    if (!game_id.ok() ||
        !RequireCreate(caller, request.game().league(), request.game().tournament(), &memo).ok()) {
      continue;
    }
    absl::StatusOr<std::string> secret = DrawDealerSecret();
    if (!secret.ok()) return;
    secrets.emplace_back(*std::move(game_id), *std::move(secret));
  }
  if (secrets.empty()) return;
  absl::StatusOr<std::vector<std::string>> kept = store_.KeepDealerSecrets(secrets);
  if (!kept.ok()) return;
  for (size_t i = 0; i < secrets.size(); ++i) {
    memo.dealer_commitments[secrets[i].first] =
        engine::DealerCommitment(secrets[i].first, (*kept)[i]);
  }
}

absl::Status GameWriter::RequireCreate(const access::Caller& caller, const std::string& league,
                                       const std::string& tournament, CreateMemo* memo) {
  const absl::Status named = access::RequireCreate(caller, league, tournament);
  // Only a token of the game's league that does not name its tournament
  // asks which league the tournament is in.
  if (named.ok() || tournaments_ == nullptr || tournament.empty() || league.empty() ||
      !access::RequireCreate(caller, league, "").ok()) {
    return named;
  }
  std::string tournament_league;
  if (memo != nullptr && memo->tournament_leagues.contains(tournament)) {
    tournament_league = memo->tournament_leagues.at(tournament);
  } else {
    absl::StatusOr<std::string> found = tournaments_->LeagueOf(tournament);
    if (!found.ok() && !absl::IsNotFound(found.status())) return found.status();
    if (found.ok()) tournament_league = *std::move(found);
    if (memo != nullptr) memo->tournament_leagues[tournament] = tournament_league;
  }
  return access::RequireCreate(caller, league, tournament, tournament_league);
}

absl::StatusOr<GameWriter::PreparedGame> GameWriter::PrepareCreate(
    const access::Caller& caller, const v1::CreateGameRequest& request, CreateMemo* memo) {
  ARBITER_RETURN_IF_ERROR(CheckRequestId(request.request_id()));
  ARBITER_ASSIGN_OR_RETURN(
      const std::string game_id,
      GameIdToCreate(request.game_id(), caller.principal, request.request_id()));
  const v1::Game& game = request.game();
  ARBITER_RETURN_IF_ERROR(CheckScopeId(game.league(), "game.league"));
  ARBITER_RETURN_IF_ERROR(CheckScopeId(game.tournament(), "game.tournament"));
  ARBITER_RETURN_IF_ERROR(RequireCreate(caller, game.league(), game.tournament(), memo));
  const std::pair<std::string, std::string> league_and_type(game.league(), game.game_type());
  if (memo == nullptr || !memo->leagues_checked.contains(league_and_type)) {
    ARBITER_RETURN_IF_ERROR(CheckLeague(game.league(), game.game_type(), "game.league"));
    if (memo != nullptr) memo->leagues_checked.insert(league_and_type);
  }

  std::string dealer_commitment;
  if (game.deal() && memo != nullptr) {
    if (auto kept = memo->dealer_commitments.find(game_id); kept != memo->dealer_commitments.end()) {
      dealer_commitment = kept->second;
    }
  }
  if (game.deal() && dealer_commitment.empty()) {
    ARBITER_ASSIGN_OR_RETURN(dealer_commitment, DealerCommitmentFor(game_id));
  }
  PreparedGame prepared;
  ARBITER_ASSIGN_OR_RETURN(prepared.created,
                           CreationOf(registry_, caller, request, dealer_commitment));
  ARBITER_ASSIGN_OR_RETURN(store::NewEvent event, EncodeCreated(game_id, prepared.created));
  prepared.create.request_id =
      StoreRequestId("create", game_id, caller.principal, request.request_id());
  prepared.create.game = NewGameRecord(game_id, prepared.created, caller.principal);
  prepared.create.events.push_back(std::move(event));
  return prepared;
}

}  // namespace arbiter::games
