// PostgresEventStore::CreateGame and CreateGames: games, with their first
// events, written several to a statement.
//
// Concurrent CreateGame calls meet in a GroupCommit queue: whoever reaches
// its front writes every game queued by then in one statement, in
// autocommit, so a busy server pays one round trip, one lock on store_head
// and one WAL flush for a group of games instead of for each. A game the
// group could not write (its id or request id taken, or a statement that
// failed as a whole) is written again on its own, which gives it its own
// answer.
#include <pqxx/pqxx>

#include <algorithm>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "services/store/event_hash.h"
#include "services/store/internal/back_off.h"
#include "services/store/internal/postgres_rows.h"
#include "services/store/internal/store_rules.h"
#include "services/store/pg/arrays.h"
#include "services/store/pg/commit.h"
#include "services/store/pg/status.h"
#include "services/store/postgres_event_store.h"

namespace arbiter::store {
namespace {

using pg::IntArray;
using internal::kGameColumns;
using pg::TextArray;

// Creates games and writes their first events in one statement. Each game
// row is inserted already advanced (count, last_hash). A game whose id or
// request id (or played key) is taken is left out (ON CONFLICT DO NOTHING), and so are its
// events; `written` pairs each inserted row with its input by request id,
// game id and digest. The events are inserted first; only then does the
// statement lock store_head (the UPDATE's count comes from an uncorrelated
// subquery over `ins`, evaluated before the row is locked) to take the
// positions of all the events at once, and gives each game's batch its
// share, in input order, in append_requests. The lock lasts until commit,
// which orders commits by position (docs/event-store.md).
//
// Games (one array element each): $1 game_id, $2 game, $3 ruleset_id,
// $4 ruleset_hash, $5 seed ('': none), $6 seed_commitment ('': none),
// $7 players (each an array literal), $8 created_by (also the recorder of
// its events), $9 league_id, $10 tournament_id ('': none), $11 request id,
// $12 digest, $13 status, $14 number of events, $15 last hash ('': none).
// Events, of all games in input order: $16 the game's index in the arrays
// above (from 1), $17 sequence, $18 event ids ('': the derived id, stored
// as NULL), $19 types, $20 their hashes (64 hex digits each, concatenated;
// stored as 32 bytes), $21 payload blob, $22 payload offsets, $23 payload
// lengths, $24 json blob, $25 json offsets, $26 json lengths (-1: none);
// $27 each game's played key ('': none), whose unique index leaves out a
// game that repeats a stored one.
constexpr char kCreateGames[] = R"sql(
WITH input AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                       $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[],
                       $13::text[], $14::bigint[], $15::text[], $27::text[])
       WITH ORDINALITY AS i(game_id, game, ruleset_id, ruleset_hash, seed, seed_commitment,
                            players, created_by, league_id, tournament_id, request_id, digest,
                            status, count, last_hash, played_key, n)),
g AS (
  INSERT INTO games (game_id, game, ruleset_id, ruleset_hash, seed, seed_commitment, players,
                     created_by, league_id, tournament_id, create_request_id, create_digest,
                     status, last_sequence, last_hash, played_key)
  SELECT game_id, game, ruleset_id, ruleset_hash, NULLIF(seed, '')::numeric,
         NULLIF(seed_commitment, ''), players::text[], created_by, NULLIF(league_id, ''),
         NULLIF(tournament_id, ''), request_id, digest, status, count, NULLIF(last_hash, ''),
         NULLIF(played_key, '')
  FROM input ORDER BY n
  ON CONFLICT DO NOTHING
  RETURNING *),
written AS (
  SELECT i.n, i.game_id, i.request_id, i.digest, i.created_by, i.count, i.last_hash
  FROM input i
  JOIN g ON g.create_request_id = i.request_id AND g.game_id = i.game_id
        AND g.create_digest = i.digest),
ins AS (
  INSERT INTO events (game_id, sequence, event_id, type, payload, payload_json, hash)
  SELECT w.game_id, e.seq, NULLIF(e.event_id, ''), e.type,
         substring($21::bytea FROM e.poff FOR e.plen),
         CASE WHEN e.jlen < 0 THEN NULL
              ELSE convert_from(substring($24::bytea FROM e.joff FOR e.jlen), 'UTF8')::json END,
         decode(convert_from(substring($20::bytea FROM ((e.k - 1) * 64 + 1)::int FOR 64), 'UTF8'),
                'hex')
  FROM unnest($16::int[], $17::bigint[], $18::text[], $19::text[], $22::int[], $23::int[],
              $25::int[], $26::int[])
       WITH ORDINALITY AS e(gi, seq, event_id, type, poff, plen, joff, jlen, k)
  JOIN written w ON w.n = e.gi
  RETURNING 1),
head AS (
  UPDATE store_head SET last_position = last_position + (SELECT count(*) FROM ins)
  WHERE (SELECT count(*) FROM ins) > 0
  RETURNING last_position - (SELECT count(*) FROM ins) AS base),
req AS (
  INSERT INTO append_requests (request_id, game_id, digest, first_sequence, last_sequence,
                               first_position, last_position, last_hash, recorded_by)
  SELECT o.request_id, o.game_id, o.digest, 1, o.count, head.base + o.before + 1,
         head.base + o.before + o.count, o.last_hash, o.created_by
  FROM head,
       (SELECT w.*, (sum(w.count) OVER (ORDER BY w.n) - w.count)::bigint AS before
        FROM written w WHERE w.count > 0) o
  RETURNING 1)
SELECT )sql";

// The game columns of the rows `g` inserted, then their request id and
// digest (columns 14 and 15), which pair them with their requests.
constexpr char kCreatedColumns[] =
    "g.game_id, g.game, g.ruleset_id, g.ruleset_hash, g.seed::text, g.seed_commitment, "
    "g.players, g.status, g.created_by, (extract(epoch FROM g.created_at) * 1000000)::bigint, "
    "g.league_id, g.tournament_id, g.last_sequence, g.last_hash, g.create_request_id, "
    "g.create_digest FROM g";

// The parameters of kCreateGames for a group of games.
struct GroupArrays {
  std::vector<std::string> game_ids, games, ruleset_ids, ruleset_hashes, seeds, commitments,
      players, creators, leagues, tournaments, request_ids, digests, statuses, last_hashes,
      played_keys;
  std::vector<int64_t> counts;
  internal::EventRows events;
};

}  // namespace

// A validated request with what writing it needs, and its answer.
struct PostgresEventStore::PreparedCreate {
  const CreateGameRequest* request = nullptr;
  std::string digest;
  GameStatus status = GameStatus::kActive;
  std::vector<std::string> hashes;  // the chain of request->events
  bool valid = false;  // passed the store's checks; otherwise `result` says why not
  absl::StatusOr<GameRecord> result = absl::UnknownError("the game was not written");

  // About how many bytes the statement carries for this game.
  std::size_t Bytes() const {
    std::size_t bytes = 512 + hashes.size() * 64;
    for (const NewEvent& event : request->events) {
      bytes += event.payload.size() + event.json.size() + event.event_id.size() + 32;
    }
    return bytes;
  }
};

void PostgresEventStore::PrepareCreateStatements(pqxx::connection_base& conn) {
  conn.prepare("create_games", absl::StrCat(kCreateGames, kCreatedColumns));
}

PostgresEventStore::PreparedCreate PostgresEventStore::Prepare(const CreateGameRequest& request) {
  PreparedCreate prepared;
  prepared.request = &request;
  if (absl::Status status = internal::ValidateCreateGame(request); !status.ok()) {
    prepared.result = status;
    return prepared;
  }
  prepared.valid = true;
  prepared.digest = internal::CreateDigest(request);
  prepared.status = request.game.status == GameStatus::kFinished ? GameStatus::kFinished
                                                                  : GameStatus::kActive;
  prepared.hashes = internal::ChainHashes(request.game.game_id, GenesisHash(), 1, request.events);
  return prepared;
}

absl::StatusOr<GameRecord> PostgresEventStore::CreateGame(const CreateGameRequest& request) {
  PreparedCreate prepared = Prepare(request);
  if (!prepared.valid) return prepared.result;
  create_queue_.Write(prepared, prepared.Bytes(),
                      [this](const std::vector<PreparedCreate*>& group) { WriteGroup(group); });
  return std::move(prepared.result);
}

std::vector<absl::StatusOr<GameRecord>> PostgresEventStore::CreateGames(
    const std::vector<CreateGameRequest>& requests) {
  std::vector<PreparedCreate> prepared;
  prepared.reserve(requests.size());
  for (const CreateGameRequest& request : requests) prepared.push_back(Prepare(request));
  std::vector<PreparedCreate*> valid;
  for (PreparedCreate& one : prepared) {
    if (one.valid) valid.push_back(&one);
  }
  internal::WriteInGroups(valid, options_.max_games_per_commit, kMaxGroupBytes,
                          [this](const std::vector<PreparedCreate*>& group) { WriteGroup(group); });
  std::vector<absl::StatusOr<GameRecord>> results;
  results.reserve(prepared.size());
  for (PreparedCreate& one : prepared) results.push_back(std::move(one.result));
  return results;
}

void PostgresEventStore::WriteGroup(const std::vector<PreparedCreate*>& group) {
  std::vector<PreparedCreate*> alone;  // to write again, each on its own
  {
    absl::StatusOr<Lease> lease = pool_.Take();
    if (!lease.ok()) {
      for (PreparedCreate* one : group) one->result = lease.status();
      return;
    }
    if (group.size() == 1) {
      WriteAlone(*lease, *group[0]);
      return;
    }
    try {
      const std::vector<PreparedCreate*> unwritten = WriteTogether(*lease, group);
      for (PreparedCreate* one : unwritten) WriteAlone(*lease, *one);
      return;
    } catch (const std::exception& e) {
      // The statement failed as a whole (an event id taken, say) and wrote
      // nothing; each game is written again on its own to get its answer.
      // The connection goes back to the pool first (or is dropped if lost).
      (void)lease->Fail(e, "creating games");
      alone = group;
    }
  }
  for (PreparedCreate* one : alone) {
    absl::StatusOr<Lease> lease = pool_.Take();
    if (!lease.ok()) {
      one->result = lease.status();
      continue;
    }
    WriteAlone(*lease, *one);
  }
}

std::vector<PostgresEventStore::PreparedCreate*> PostgresEventStore::WriteTogether(
    Lease& lease, const std::vector<PreparedCreate*>& group) {
  GroupArrays a;
  for (size_t n = 0; n < group.size(); ++n) {
    const PreparedCreate& one = *group[n];
    const GameRecord& game = one.request->game;
    a.game_ids.push_back(game.game_id);
    a.games.push_back(game.game);
    a.ruleset_ids.push_back(game.ruleset_id);
    a.ruleset_hashes.push_back(game.ruleset_hash);
    a.seeds.push_back(game.seed.has_value() ? absl::StrCat(*game.seed) : "");
    a.commitments.push_back(game.seed_commitment);
    a.players.push_back(TextArray(game.players));
    a.creators.push_back(game.created_by);
    a.leagues.push_back(game.league_id);
    a.tournaments.push_back(game.tournament_id);
    a.request_ids.push_back(one.request->request_id);
    a.digests.push_back(one.digest);
    a.statuses.push_back(std::string(GameStatusName(one.status)));
    a.counts.push_back(static_cast<int64_t>(one.request->events.size()));
    a.last_hashes.push_back(one.hashes.empty() ? "" : one.hashes.back());
    a.played_keys.push_back(one.request->played_key);
    for (size_t i = 0; i < one.request->events.size(); ++i) {
      a.events.Add(static_cast<int64_t>(n) + 1, game.game_id, static_cast<int64_t>(i) + 1,
                   one.request->events[i], one.hashes[i], options_.keep_json_copies);
    }
  }
  const internal::EventRows& e = a.events;
  // One statement in autocommit: one round trip, one transaction. A notice
  // meanwhile is the commit's warning (pg/commit.h): the caller looks the
  // games up again.
  pg::NoticeWatch watch(lease.conn());
  pqxx::nontransaction txn(lease.conn());
  const pqxx::result created = txn.exec_prepared(
      "create_games", TextArray(a.game_ids), TextArray(a.games), TextArray(a.ruleset_ids),
      TextArray(a.ruleset_hashes), TextArray(a.seeds), TextArray(a.commitments),
      TextArray(a.players), TextArray(a.creators), TextArray(a.leagues), TextArray(a.tournaments),
      TextArray(a.request_ids), TextArray(a.digests), TextArray(a.statuses), IntArray(a.counts),
      TextArray(a.last_hashes), IntArray(e.batches), IntArray(e.sequences), TextArray(e.ids),
      TextArray(e.types), pqxx::binarystring(e.hashes), pqxx::binarystring(e.payloads),
      IntArray(e.payload_offsets), IntArray(e.payload_lengths), pqxx::binarystring(e.jsons),
      IntArray(e.json_offsets), IntArray(e.json_lengths), TextArray(a.played_keys));
  if (watch.noticed()) throw pg::CommitOutcomeUnknown(watch.heard());
  std::vector<PreparedCreate*> unwritten;
  for (PreparedCreate* one : group) {
    bool found = false;
    for (const pqxx::row& row : created) {
      if (row[14].as<std::string>() == one->request->request_id &&
          row[0].as<std::string>() == one->request->game.game_id &&
          row[15].as<std::string>() == one->digest) {
        one->result = internal::GameFromRow(row);
        found = true;
        break;
      }
    }
    if (!found) unwritten.push_back(one);
  }
  return unwritten;
}

namespace {

// Why a game that is no retry was not written: its id is taken, or a game
// stored with its played key holds it.
absl::Status TakenIdOrKey(pqxx::transaction_base& txn, const CreateGameRequest& request) {
  const pqxx::result holder = txn.exec_params(
      "SELECT (SELECT game_id FROM games WHERE game_id = $1), "
      "(SELECT game_id FROM games WHERE played_key = NULLIF($2, ''))",
      request.game.game_id, request.played_key);
  if (holder[0][0].is_null() && !holder[0][1].is_null()) {
    return internal::SamePlayedGame(holder[0][1].as<std::string>());
  }
  return absl::AlreadyExistsError(absl::StrCat("game id \"", request.game.game_id, "\" is taken"));
}

}  // namespace

void PostgresEventStore::WriteAlone(Lease& lease, PreparedCreate& one) {
  const CreateGameRequest& request = *one.request;
  try {
    std::vector<PreparedCreate*> unwritten = WriteTogether(lease, {&one});
    if (unwritten.empty()) return;
    // The game id, the request id or the played key was taken: a retry, or
    // another game. A retry's answer is given once a later commit is
    // durable.
    pqxx::work txn(lease.conn());
    pqxx::result previous = txn.exec_params(
        absl::StrCat("SELECT ", kGameColumns, ", create_digest FROM games "
                     "WHERE create_request_id = $1"),
        request.request_id);
    if (previous.empty()) {
      one.result = TakenIdOrKey(txn, request);
      return;
    }
    if (pg::ConfirmDurable(txn) != pg::CommitOutcome::kCommitted) {
      lease.Drop();
      ResolveUnknownCreation(one);
      return;
    }
    one.result = previous[0][14].as<std::string>() != one.digest
                     ? absl::StatusOr<GameRecord>(internal::RequestIdReused(request.request_id))
                     : internal::GameFromRow(previous[0]);
  } catch (const pqxx::unique_violation& e) {
    // An event id already stored, or the request id taken by an append.
    try {
      if (std::optional<absl::Status> taken = internal::TakenEventId(lease.conn(), request.events)) {
        one.result = *taken;
        return;
      }
    } catch (const std::exception& inner) {
      one.result = lease.Fail(inner, "creating a game");
      return;
    }
    one.result = internal::RequestIdReused(request.request_id);
  } catch (const pg::CommitOutcomeUnknown&) {
    lease.Drop();
    ResolveUnknownCreation(one);
  } catch (const std::exception& e) {
    one.result = lease.Fail(e, "creating a game");
    // The connection was lost: perhaps while the statement committed.
    if (pg::IsConnectionLoss(e)) ResolveUnknownCreation(one);
  }
}

void PostgresEventStore::ResolveUnknownCreation(PreparedCreate& one) {
  const CreateGameRequest& request = *one.request;
  absl::Status looked;
  const bool settled = internal::AttemptUntil(absl::Now() + options_.resolve_unknown_for, [&] {
    looked = pool_.Run(
        "looking up a game whose creation was cut off",
        [&](pqxx::connection_base& conn) -> absl::Status {
          pqxx::work txn(conn);
          const pqxx::result previous = txn.exec_params(
              absl::StrCat("SELECT ", kGameColumns, ", create_digest FROM games "
                           "WHERE create_request_id = $1"),
              request.request_id);
          std::string notice;
          if (pg::ConfirmDurable(txn, &notice) != pg::CommitOutcome::kCommitted) {
            return absl::UnavailableError(absl::StrCat("the look-up's own commit: ", notice));
          }
          if (previous.empty()) {
            // Perhaps not stored, perhaps still committing: not known.
            one.result = internal::CreationOutcomeUnknown(request.request_id, "it was not found yet");
          } else if (previous[0][14].as<std::string>() != one.digest) {
            one.result = internal::RequestIdReused(request.request_id);
          } else {
            one.result = internal::GameFromRow(previous[0]);
          }
          return absl::OkStatus();
        });
    return looked.ok();
  });
  if (!settled) one.result = internal::CreationOutcomeUnknown(request.request_id, looked.message());
}

}  // namespace arbiter::store
