#include "services/tournament/tournament_log.h"

#include "services/common/resource_names.h"

#include <algorithm>

#include <string_view>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/core/sha256.h"

namespace arbiter::tournament {
namespace {

absl::Status Corrupt(const std::string& id, int64_t sequence, const std::string& why) {
  return absl::DataLossError(
      absl::StrCat("tournament \"", id, "\" event ", sequence, ": ", why));
}

// The table an event names; DataLoss if there is no such round or table.
absl::StatusOr<TableState*> TableOf(TournamentLog& log, int round_number, int table_number,
                                    const std::string& id, int64_t sequence) {
  if (round_number < 1 || round_number > static_cast<int>(log.rounds.size())) {
    return Corrupt(id, sequence, "no such round");
  }
  RoundState& round = log.rounds[static_cast<size_t>(round_number - 1)];
  if (table_number < 1 || table_number > static_cast<int>(round.tables.size())) {
    return Corrupt(id, sequence, "no such table");
  }
  return &round.tables[static_cast<size_t>(table_number - 1)];
}

// Appends a round event's tables to `round`: numbered on from the tables
// already there, never more than the round has.
absl::Status AddTables(const std::string& id, int64_t sequence, const v1::RoundStarted& event,
                       RoundState& round) {
  for (const v1::TournamentTable& table : event.tables()) {
    if (table.number() != static_cast<int>(round.tables.size()) + 1) {
      return Corrupt(id, sequence, absl::StrCat("table ", table.number(), " out of order"));
    }
    if (static_cast<int>(round.tables.size()) == round.table_count) {
      return Corrupt(id, sequence, "more tables than the round has");
    }
    v1::TournamentTable& t = round.tables.emplace_back().table;
    t = table;
    t.set_game(absl::StrCat("games/", TableGameId(id, round.number, table.number())));
  }
  return absl::OkStatus();
}

}  // namespace

std::string TableGameId(const std::string& tournament_id, int round, int table) {
  return absl::StrCat(tournament_id, "-r", round, "-t", table);
}

std::string StreamRequestId(const std::string& kind, const std::string& stream_id,
                            const std::string& principal, const std::string& request_id) {
  return absl::StrCat(kind, "-",
                      engine::Sha256Hex(absl::StrCat(stream_id.size(), ":", stream_id,
                                                     principal.size(), ":", principal,
                                                     request_id)));
}

absl::StatusOr<engine::tournament::TournamentSettings> ModelSettings(const v1::TournamentSettings& in) {
  engine::tournament::TournamentSettings out;
  out.game_type = in.game_type();
  out.seed = in.seed();
  out.rounds = in.rounds();
  out.table_sizes.assign(in.table_sizes().begin(), in.table_sizes().end());
  out.preferred_size = in.preferred_table_size();
  switch (in.leftover()) {
    case v1::LEFTOVER_UNSPECIFIED:
    case v1::LEFTOVER_MIXED_SIZES:
      out.leftover = engine::tournament::Leftover::kMixedSizes;
      break;
    case v1::LEFTOVER_BYES:
      out.leftover = engine::tournament::Leftover::kByes;
      break;
    default:
      return absl::InvalidArgumentError(absl::StrCat("leftover: unknown value ", in.leftover()));
  }
  switch (in.scoring()) {
    case v1::TOURNAMENT_SCORING_UNSPECIFIED:
    case v1::TOURNAMENT_SCORING_PLACES:
      out.scoring = engine::tournament::Scoring::kPlaces;
      break;
    case v1::TOURNAMENT_SCORING_TABLE_SHARE:
      out.scoring = engine::tournament::Scoring::kTableShare;
      break;
    default:
      return absl::InvalidArgumentError(absl::StrCat("scoring: unknown value ", in.scoring()));
  }
  out.place_points.assign(in.place_points().begin(), in.place_points().end());
  out.share_points = in.share_points() == 0 ? 100 : in.share_points();
  out.bye_points = in.bye_points();
  for (const std::string& name : in.tie_breaks()) {
    absl::StatusOr<engine::tournament::TieBreak> criterion = engine::tournament::ParseTieBreak(name);
    if (!criterion.ok()) return criterion.status();
    out.tie_breaks.push_back(*criterion);
  }
  if (in.dispute_window_seconds() < 0) {
    return absl::InvalidArgumentError("dispute_window_seconds: must not be negative");
  }
  if (!in.league().empty() && !common::IsValidId(common::IdKind::kLeague, in.league())) {
    return absl::InvalidArgumentError("league: not a league id");
  }
  if (absl::Status s = engine::tournament::ValidateSettings(out); !s.ok()) return s;
  return out;
}

absl::StatusOr<TournamentLog> FoldTournament(const std::string& id,
                                             const store::StreamRecord& stream,
                                             const std::vector<store::StreamEvent>& events) {
  TournamentLog log;
  log.id = id;
  log.stream = stream;
  for (const store::StreamEvent& event : events) {
    if (event.type == kTypeTournamentCreated) {
      v1::TournamentCreated created;
      if (!created.ParseFromString(event.payload)) return Corrupt(id, event.sequence, "undecodable");
      log.settings = created.settings();
      absl::StatusOr<engine::tournament::TournamentSettings> model = ModelSettings(log.settings);
      if (!model.ok()) return Corrupt(id, event.sequence, std::string(model.status().message()));
      log.model = *std::move(model);
      log.players.assign(created.players().begin(), created.players().end());
    } else if (event.type == kTypePlayersRegistered) {
      v1::PlayersRegistered added;
      if (!added.ParseFromString(event.payload)) return Corrupt(id, event.sequence, "undecodable");
      log.players.insert(log.players.end(), added.players().begin(), added.players().end());
    } else if (event.type == kTypeRoundStarted) {
      v1::RoundStarted started;
      if (!started.ParseFromString(event.payload)) return Corrupt(id, event.sequence, "undecodable");
      if (log.starting.has_value()) {
        return Corrupt(id, event.sequence, "a round started before the last one's tables were all recorded");
      }
      if (started.round() != static_cast<int>(log.rounds.size()) + 1) {
        return Corrupt(id, event.sequence, "round out of order");
      }
      RoundState round;
      round.number = started.round();
      round.request_id = event.request_id;
      round.table_count =
          started.table_count() == 0 ? started.tables_size() : started.table_count();
      round.byes.assign(started.byes().begin(), started.byes().end());
      if (absl::Status s = AddTables(id, event.sequence, started, round); !s.ok()) return s;
      if (static_cast<int>(round.tables.size()) == round.table_count) {
        log.rounds.push_back(std::move(round));
      } else {
        log.starting = std::move(round);
      }
    } else if (event.type == kTypeRoundTables) {
      v1::RoundStarted more;
      if (!more.ParseFromString(event.payload)) return Corrupt(id, event.sequence, "undecodable");
      if (!log.starting.has_value() || log.starting->number != more.round()) {
        return Corrupt(id, event.sequence, "tables of a round that is not being started");
      }
      if (absl::Status s = AddTables(id, event.sequence, more, *log.starting); !s.ok()) return s;
      std::vector<std::string>& finishers = log.starting->finished_by;
      if (!more.finished_by().empty() &&
          std::find(finishers.begin(), finishers.end(), more.finished_by()) == finishers.end()) {
        finishers.push_back(more.finished_by());
      }
      if (static_cast<int>(log.starting->tables.size()) == log.starting->table_count) {
        log.rounds.push_back(*std::move(log.starting));
        log.starting.reset();
      }
    } else if (event.type == kTypeResultConfirmed || event.type == kTypeResultsConfirmed) {
      v1::ResultsConfirmed batch;
      if (event.type == kTypeResultConfirmed) {
        if (!batch.add_results()->ParseFromString(event.payload)) {
          return Corrupt(id, event.sequence, "undecodable");
        }
      } else if (!batch.ParseFromString(event.payload)) {
        return Corrupt(id, event.sequence, "undecodable");
      }
      for (const v1::ResultConfirmed& confirmed : batch.results()) {
        absl::StatusOr<TableState*> table =
            TableOf(log, confirmed.round(), confirmed.table(), id, event.sequence);
        if (!table.ok()) return table.status();
        (*table)->confirmed = confirmed;
        (*table)->confirmed_at = event.recorded_at;
      }
    } else if (event.type == kTypeRulingRecorded) {
      v1::RulingRecorded ruling;
      if (!ruling.ParseFromString(event.payload)) return Corrupt(id, event.sequence, "undecodable");
      absl::StatusOr<TableState*> table =
          TableOf(log, ruling.round(), ruling.table(), id, event.sequence);
      if (!table.ok()) return table.status();
      (*table)->ruling = ruling;
    } else {
      return Corrupt(id, event.sequence, absl::StrCat("unknown type \"", event.type, "\""));
    }
  }
  if (events.empty() || events.front().type != kTypeTournamentCreated) {
    return absl::DataLossError(absl::StrCat("tournament \"", id, "\" has no creation event"));
  }
  return log;
}

absl::StatusOr<TournamentLog> ReadTournament(store::StreamStore& streams, const std::string& id) {
  absl::StatusOr<store::StreamRecord> stream = streams.GetStream(common::NameOf(common::IdKind::kTournament, id));
  if (!stream.ok()) {
    if (absl::IsNotFound(stream.status())) {
      return absl::NotFoundError(absl::StrCat("tournament \"", id, "\" does not exist"));
    }
    return stream.status();
  }
  if (stream->kind != kTournamentKind) {
    return absl::NotFoundError(absl::StrCat("tournament \"", id, "\" does not exist"));
  }
  std::vector<store::StreamEvent> events;
  int64_t after = 0;
  while (true) {
    absl::StatusOr<std::vector<store::StreamEvent>> page =
        streams.ReadStream(stream->stream_id, after, 10'000);
    if (!page.ok()) return page.status();
    if (page->empty()) break;
    after = page->back().sequence;
    for (store::StreamEvent& e : *page) events.push_back(std::move(e));
    if (page->size() < 10'000) break;
  }
  return FoldTournament(id, *stream, events);
}

}  // namespace arbiter::tournament
