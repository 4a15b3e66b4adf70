// Game log files: JSON Lines, the format organisers submit and the CLI reads.
//
// Grammar (docs/log-format.md has an example; stored: never renumber fields):
//   file   = header-line *( action-line )
//   header-line = JSON of arbiter.v1.LogHeader, protobuf JSON mapping, "\n"
//   action-line = JSON of arbiter.v1.Action (with `player` set), "\n"
// Lines are UTF-8, end in "\n" (a "\r" before it is tolerated, as is a
// missing "\n" after the last line). Empty lines are refused: every line after
// the header is one event, and events are numbered by their line (the first
// action is line 2). Unknown fields are refused.
//
// This file checks syntax only: that each line is a well-formed message. Which
// game, ruleset and players the header names, and whether the actions are
// legal, is the referee's job (services/replay/referee.h).
#ifndef ARBITER_SERVICES_LOG_LOG_FILE_H_
#define ARBITER_SERVICES_LOG_LOG_FILE_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/action.pb.h"
#include "arbiter/v1/log.pb.h"

namespace arbiter::log {

struct GameLog {
  v1::LogHeader header;
  // actions[i] is on line i + 2.
  std::vector<v1::Action> actions;
};

// Line number of actions[index].
inline int64_t LineOfAction(std::size_t index) { return static_cast<int64_t>(index) + 2; }

struct LogLimits {
  std::size_t max_line_bytes = std::size_t{1} << 20;     // 1 MiB
  std::size_t max_actions = 1'000'000;
  std::size_t max_file_bytes = std::size_t{512} << 20;  // 512 MiB
};

// Parses a whole log. InvalidArgument whose message starts "line N: " and
// says what is wrong (not UTF-8, too long, malformed JSON, unknown field,
// empty file or line, ...).
absl::StatusOr<GameLog> ParseLog(std::string_view content, const LogLimits& limits = {});

// Reads and parses a log file. NotFound / PermissionDenied if it cannot be
// opened; otherwise as ParseLog. Stops reading at the first line over the
// limit, so a huge line costs no more than the limit in memory.
absl::StatusOr<GameLog> ReadLogFile(const std::string& path, const LogLimits& limits = {});

// One line, without its "\n". `line` is used in messages only.
absl::StatusOr<v1::LogHeader> ParseHeaderLine(std::string_view text, int64_t line);
absl::StatusOr<v1::Action> ParseActionLine(std::string_view text, int64_t line);

// The log as JSON Lines, each line compact and ending in "\n". Writing what
// ParseLog read gives the same messages back.
std::string FormatLog(const GameLog& log);
std::string FormatHeaderLine(const v1::LogHeader& header);
std::string FormatActionLine(const v1::Action& action);

}  // namespace arbiter::log

#endif  // ARBITER_SERVICES_LOG_LOG_FILE_H_
