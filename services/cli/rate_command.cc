// `arbiter rate --system SYSTEM [--param NAME=VALUE ...] FILE`: rates a JSON
// Lines file of match results kept elsewhere (docs/ratings.md).
//
// Input, one match per line (proto/arbiter/v1/rating_input.proto in
// protobuf's JSON mapping; blank lines are skipped):
//   {"teams": [{"players": [{"id": "ann"}, {"id": "bob", "mu": 27.1, "sigma": 5.2}], "rank": 1},
//              {"players": [{"id": "cy"}], "rank": 2}], "period": 3}
// Output, one line per updated rating, numbers in the shortest form that
// reads back to the same double:
//   {"line":1,"player":"ann","mu":...,"sigma":...,"display":...,"games":1,"provisional":true}
// ("volatility" too for Glicko-2). Players carry their rating from line to
// line; unknown ones start at the initial rating. Glicko-2 lines with the same
// "period" as the line before are one rating period, printed when it ends.
// The first malformed line stops the run with exit 2 and a message naming
// the line and the field; nothing is printed for it (nor for an unfinished
// Glicko-2 period).
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>

#include "engine/core/status_macros.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "arbiter/v1/rating_input.pb.h"
#include "engine/rating/rating.h"
#include "services/cli/commands.h"
#include "services/log/json_lines.h"

namespace arbiter::cli {
namespace {

constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;  // 1 MiB

struct RateOpts {
  std::string system = "plackett-luce";
  std::vector<std::string> params;
  std::string file;
};

struct PlayerState {
  engine::rating::Rating rating;
  int64_t games = 0;
};

// A player of the current match or period, with where it was read.
struct Seat {
  std::string id;
  int64_t line = 0;
};

std::string Number(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

std::string JsonString(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escape[8];
          std::snprintf(escape, sizeof(escape), "\\u%04x", static_cast<unsigned>(c));
          out += escape;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

absl::Status LineError(int64_t line, std::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("line ", line, ": ", std::string(what)));
}

// Reads the file line by line, refusing lines over kMaxLineBytes without
// holding them in memory.
class LineReader {
 public:
  explicit LineReader(std::istream& in) : in_(in) {}
  // False at the end of the input. `oversized` is set for a line too long.
  bool Next(std::string& line, bool& oversized) {
    line.clear();
    oversized = false;
    std::streambuf* buffer = in_.rdbuf();
    int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) return false;
    while (c != std::char_traits<char>::eof() && c != '\n') {
      if (line.size() < kMaxLineBytes + 1) {
        line.push_back(static_cast<char>(c));
      } else {
        oversized = true;
      }
      c = buffer->sbumpc();
    }
    if (line.size() > kMaxLineBytes) oversized = true;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
  }

 private:
  std::istream& in_;
};

class Rater {
 public:
  explicit Rater(engine::rating::RatingConfig config) : config_(std::move(config)) {}

  // Rates one parsed line (or adds it to the open Glicko-2 period) and
  // prints what it settles.
  absl::Status Add(const v1::RatingMatchLine& match, int64_t line) {
    const bool glicko = config_.system == engine::rating::System::kGlicko2;
    if (glicko && (!match.has_period() || !period_ || *period_ != match.period())) {
      ARBITER_RETURN_IF_ERROR(FlushPeriod());
    }
    std::vector<engine::rating::Team> teams;
    std::vector<std::vector<std::string>> ids;
    ARBITER_RETURN_IF_ERROR(ReadTeams(match, line, teams, ids));
    if (!glicko) {
      auto rated = engine::rating::RateMatch(config_, teams);
      if (!rated.ok()) return LineError(line, std::string(rated.status().message()));
      for (std::size_t t = 0; t < teams.size(); ++t) {
        for (std::size_t p = 0; p < teams[t].players.size(); ++p) {
          PlayerState& state = players_[ids[t][p]];
          state.rating = (*rated)[t][p];
          ++state.games;
          Print(line, ids[t][p], state);
        }
      }
      return absl::OkStatus();
    }
    // Glicko-2: collect this game's results; rate when the period ends.
    const auto results = engine::rating::GlickoResults(teams);
    for (std::size_t t = 0; t < teams.size(); ++t) {
      for (std::size_t p = 0; p < teams[t].players.size(); ++p) {
        const std::string& id = ids[t][p];
        auto [it, inserted] = period_players_.try_emplace(id);
        if (inserted) {
          period_order_.push_back(id);
          it->second.start = teams[t].players[p];
        }
        it->second.line = line;
        ++it->second.games;
        it->second.results.insert(it->second.results.end(), results[t][p].begin(), results[t][p].end());
      }
    }
    if (match.has_period()) {
      period_ = match.period();
      return absl::OkStatus();
    }
    return FlushPeriod();  // a line without a period is a period of one game

  }

  // Rates and prints the open Glicko-2 period, if any. InvalidArgument if
  // a new rating would not be finite (ratings too far apart); then nothing
  // of the period is printed.
  absl::Status FlushPeriod() {
    std::vector<engine::rating::Rating> rated;
    for (const std::string& id : period_order_) {
      const PeriodPlayer& entry = period_players_[id];
      const engine::rating::Rating r = engine::rating::Glicko2Period(config_, entry.start, entry.results);
      if (!std::isfinite(r.mu) || !std::isfinite(r.sigma) || !std::isfinite(r.volatility)) {
        return LineError(entry.line, absl::StrCat("player ", JsonString(id),
                                                  ": the ratings of this period are too far apart to rate"));
      }
      rated.push_back(r);
    }
    for (std::size_t i = 0; i < period_order_.size(); ++i) {
      const PeriodPlayer& entry = period_players_[period_order_[i]];
      PlayerState& state = players_[period_order_[i]];
      state.rating = rated[i];
      state.games += entry.games;
      Print(entry.line, period_order_[i], state);
    }
    period_order_.clear();
    period_players_.clear();
    period_.reset();
    return absl::OkStatus();
  }

 private:
  struct PeriodPlayer {
    engine::rating::Rating start;  // the rating at the start of the period
    std::vector<engine::rating::GlickoResult> results;
    int64_t games = 0;
    int64_t line = 0;      // the last line the player played in the period
  };

  // The teams of `match` with every player's current rating (or the prior
  // given on the line). InvalidArgument naming the line and field.
  absl::Status ReadTeams(const v1::RatingMatchLine& match, int64_t line, std::vector<engine::rating::Team>& teams,
                         std::vector<std::vector<std::string>>& ids) {
    if (match.teams_size() < 2) {
      return LineError(line, absl::StrCat("teams: a match needs at least 2 teams; this line has ",
                                          match.teams_size()));
    }
    std::map<std::string, std::string> seen;  // id -> its field path
    for (int t = 0; t < match.teams_size(); ++t) {
      const v1::RatingTeam& team = match.teams(t);
      const std::string team_path = absl::StrCat("teams[", t, "]");
      if (!team.has_rank()) return LineError(line, absl::StrCat(team_path, ".rank is missing"));
      if (team.players_size() == 0) return LineError(line, absl::StrCat(team_path, ".players is empty"));
      engine::rating::Team& out = teams.emplace_back();
      out.rank = team.rank();
      std::vector<std::string>& team_ids = ids.emplace_back();
      for (int p = 0; p < team.players_size(); ++p) {
        const v1::RatingPlayer& player = team.players(p);
        const std::string path = absl::StrCat(team_path, ".players[", p, "]");
        if (player.id().empty()) return LineError(line, absl::StrCat(path, ".id is missing"));
        const auto [previous, fresh] = seen.emplace(player.id(), path);
        if (!fresh) {
          return LineError(line, absl::StrCat(path, ".id: player ", JsonString(player.id()),
                                              " is listed twice in one match (also ", previous->second, ")"));
        }
        ARBITER_ASSIGN_OR_RETURN(engine::rating::Rating current, CurrentRating(player, line, path));
        out.players.push_back(current);
        team_ids.push_back(player.id());
      }
    }
    return absl::OkStatus();
  }

  absl::StatusOr<engine::rating::Rating> CurrentRating(const v1::RatingPlayer& player, int64_t line,
                                               const std::string& path) {
    const bool has_prior = player.has_mu() || player.has_sigma() || player.has_volatility();
    const auto in_period = period_players_.find(player.id());
    engine::rating::Rating r;
    if (in_period != period_players_.end()) {
      if (has_prior) {
        return LineError(line, absl::StrCat(path, ": a prior rating for ", JsonString(player.id()),
                                            ", who already played in this rating period"));
      }
      r = in_period->second.start;
    } else if (const auto known = players_.find(player.id()); known != players_.end()) {
      r = known->second.rating;
    } else {
      r = engine::rating::InitialRating(config_);
    }
    if (player.has_mu()) r.mu = player.mu();
    if (player.has_sigma()) r.sigma = player.sigma();
    if (player.has_volatility()) r.volatility = player.volatility();
    if (absl::Status s = engine::rating::CheckRating(config_, r); !s.ok()) {
      return LineError(line, absl::StrCat(path, " (", JsonString(player.id()), "): ", std::string(s.message())));
    }
    return r;
  }

  void Print(int64_t line, const std::string& id, const PlayerState& state) {
    const engine::rating::Rating& r = state.rating;
    std::string out = absl::StrCat("{\"line\":", line, ",\"player\":", JsonString(id), ",\"mu\":", Number(r.mu),
                                   ",\"sigma\":", Number(r.sigma));
    if (config_.system == engine::rating::System::kGlicko2) absl::StrAppend(&out, ",\"volatility\":", Number(r.volatility));
    absl::StrAppend(&out, ",\"display\":", Number(engine::rating::DisplayRating(config_, r)), ",\"games\":", state.games,
                    ",\"provisional\":", engine::rating::IsProvisional(config_, r, state.games) ? "true" : "false", "}\n");
    std::cout << out;
  }

  engine::rating::RatingConfig config_;
  std::map<std::string, PlayerState> players_;
  std::optional<int64_t> period_;
  std::map<std::string, PeriodPlayer> period_players_;
  std::vector<std::string> period_order_;
};

absl::StatusOr<engine::rating::RatingConfig> ConfigFrom(const RateOpts& opts) {
  ARBITER_ASSIGN_OR_RETURN(engine::rating::System system, engine::rating::ParseSystem(opts.system));
  std::vector<std::pair<std::string, std::string>> params;
  for (const std::string& param : opts.params) {
    const std::size_t eq = param.find('=');
    if (eq == std::string::npos) {
      return absl::InvalidArgumentError(absl::StrCat("--param ", param, ": expected NAME=VALUE"));
    }
    params.emplace_back(param.substr(0, eq), param.substr(eq + 1));
  }
  return engine::rating::MakeConfig(system, params);
}

int RunRate(const RateOpts& opts) {
  absl::StatusOr<engine::rating::RatingConfig> config = ConfigFrom(opts);
  if (!config.ok()) return ReportError(config.status());
  std::ifstream file;
  if (opts.file != "-") {
    file.open(opts.file, std::ios::binary);
    if (!file) return ReportError(absl::NotFoundError(absl::StrCat("cannot open ", opts.file)));
  }
  std::istream& in = opts.file == "-" ? std::cin : file;
  LineReader reader(in);
  Rater rater(*config);
  std::string text;
  bool oversized = false;
  for (int64_t line = 1; reader.Next(text, oversized); ++line) {
    if (oversized) {
      return ReportError(LineError(line, absl::StrCat("the line is longer than ", kMaxLineBytes, " bytes")));
    }
    if (text.find_first_not_of(" \t") == std::string::npos) continue;
    v1::RatingMatchLine match;
    if (absl::Status s = log::ParseJsonLineWithProtobuf(text, line, match); !s.ok()) return ReportError(s);
    if (absl::Status s = rater.Add(match, line); !s.ok()) return ReportError(s);
  }
  if (in.bad()) return ReportError(absl::DataLossError(absl::StrCat("reading ", opts.file, " failed")));
  if (absl::Status s = rater.FlushPeriod(); !s.ok()) return ReportError(s);
  std::cout.flush();
  return std::cout ? kExitOk : kExitFailure;
}

std::string ParameterHelp() {
  std::string help = "Systems and their parameters (--param NAME=VALUE; default in brackets):\n";
  const std::pair<std::string, engine::rating::System> groups[] = {
      {"plackett-luce, thurstone-mosteller-full, bradley-terry-full (OpenSkill)", engine::rating::System::kPlackettLuce},
      {"glicko2", engine::rating::System::kGlicko2},
      {"elo", engine::rating::System::kElo}};
  for (const auto& [title, system] : groups) {
    absl::StrAppend(&help, "  ", title, "\n");
    for (const engine::rating::ParameterInfo& p : engine::rating::Parameters(system)) {
      absl::StrAppend(&help, "    ", p.name, " [", p.default_value, "]: ", p.meaning, "\n");
    }
  }
  return help + "Input and output formats: docs/ratings.md";
}

}  // namespace

void AddRateCommand(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<RateOpts>();
  CLI::App* cmd = app.add_subcommand(
      "rate", "Rate a JSON Lines file of match results; print every updated rating (exit 2 on malformed input)");
  cmd->add_option("--system", opts->system,
                  "plackett-luce (default), thurstone-mosteller-full, bradley-terry-full, glicko2 or elo");
  cmd->add_option("--param", opts->params, "NAME=VALUE: a parameter of the system (repeatable)");
  cmd->add_option("file", opts->file, "Results file (JSON Lines), or - for standard input")->required();
  cmd->footer(ParameterHelp());
  cmd->callback([opts, &exit_code] { exit_code = RunRate(*opts); });
}

}  // namespace arbiter::cli
