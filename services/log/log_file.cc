#include "services/log/log_file.h"

#include <cerrno>
#include <fstream>

#include "engine/core/status_macros.h"
#include "absl/strings/str_cat.h"
#include "services/log/file_status.h"
#include "services/log/json_lines.h"

namespace arbiter::log {
namespace {

// Builds a GameLog from lines fed one at a time (without their "\n").
class LineParser {
 public:
  explicit LineParser(const LogLimits& limits) : limits_(limits) {}

  absl::Status Add(std::string_view text) {
    ++line_;
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (text.size() > limits_.max_line_bytes) return TooLong(line_);
    if (text.find_first_not_of(" \t") == std::string_view::npos) {
      if (line_ == 1) {
        return absl::InvalidArgumentError("line 1 is empty; line 1 must be the header");
      }
      // Blank lines may end the file; one before another line is refused
      // there, naming the first of them.
      if (first_blank_ == 0) first_blank_ = line_;
      return absl::OkStatus();
    }
    if (first_blank_ != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("line ", first_blank_,
                       " is empty; every line after the header is one action (blank lines may "
                       "only end the file)"));
    }
    if (line_ == 1) {
      auto header = ParseHeaderLine(text, line_);
      if (!header.ok()) return header.status();
      log_.header = *std::move(header);
      return absl::OkStatus();
    }
    if (log_.actions.size() >= limits_.max_actions) {
      return absl::InvalidArgumentError(absl::StrCat("line ", line_, ": the log has more than ",
                                                     limits_.max_actions, " actions, the limit"));
    }
    auto action = ParseActionLine(text, line_);
    if (!action.ok()) return action.status();
    log_.actions.push_back(*std::move(action));
    return absl::OkStatus();
  }

  absl::StatusOr<GameLog> Finish() && {
    if (line_ == 0) return absl::InvalidArgumentError("line 1: the log is empty; it needs a header line");
    return std::move(log_);
  }

  int64_t next_line() const { return line_ + 1; }
  absl::Status TooLong(int64_t line) const {
    return absl::InvalidArgumentError(absl::StrCat("line ", line, " is longer than the limit of ",
                                                   limits_.max_line_bytes, " bytes"));
  }

 private:
  const LogLimits& limits_;
  int64_t line_ = 0;
  int64_t first_blank_ = 0;  // the first of the blank lines just read; 0: none
  GameLog log_;
};

absl::Status FileTooLarge(const LogLimits& limits) {
  return absl::InvalidArgumentError(
      absl::StrCat("the log is larger than the limit of ", limits.max_file_bytes, " bytes"));
}

}  // namespace

absl::StatusOr<v1::LogHeader> ParseHeaderLine(std::string_view text, int64_t line) {
  v1::LogHeader header;
  ARBITER_RETURN_IF_ERROR(ParseJsonLine(text, line, header));
  return header;
}

absl::StatusOr<v1::Action> ParseActionLine(std::string_view text, int64_t line) {
  v1::Action action;
  ARBITER_RETURN_IF_ERROR(ParseJsonLine(text, line, action));
  return action;
}

absl::StatusOr<GameLog> ParseLog(std::string_view content, const LogLimits& limits) {
  if (content.size() > limits.max_file_bytes) return FileTooLarge(limits);
  LineParser parser(limits);
  while (!content.empty()) {
    const std::size_t end = content.find('\n');
    const std::string_view text = content.substr(0, end);
    ARBITER_RETURN_IF_ERROR(parser.Add(text));
    if (end == std::string_view::npos) break;
    content.remove_prefix(end + 1);
  }
  return std::move(parser).Finish();
}

absl::StatusOr<GameLog> ReadLogFile(const std::string& path, const LogLimits& limits) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return FileOpenError(path, errno);
  LineParser parser(limits);
  std::string current;
  std::size_t total = 0;
  std::vector<char> buffer(std::size_t{1} << 16);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const std::size_t got = static_cast<std::size_t>(in.gcount());
    if (got == 0) break;
    total += got;
    if (total > limits.max_file_bytes) return FileTooLarge(limits);
    std::string_view chunk(buffer.data(), got);
    while (!chunk.empty()) {
      const std::size_t end = chunk.find('\n');
      current.append(chunk.substr(0, end));
      // One byte of slack for a "\r" that Add() strips.
      if (current.size() > limits.max_line_bytes + 1) return parser.TooLong(parser.next_line());
      if (end == std::string_view::npos) break;
      ARBITER_RETURN_IF_ERROR(parser.Add(current));
      current.clear();
      chunk.remove_prefix(end + 1);
    }
  }
  if (in.bad()) return absl::InvalidArgumentError(absl::StrCat(path, ": read error"));
  if (!current.empty()) {
    ARBITER_RETURN_IF_ERROR(parser.Add(current));
  }
  return std::move(parser).Finish();
}

std::string FormatHeaderLine(const v1::LogHeader& header) { return ToJsonLine(header) + "\n"; }
std::string FormatActionLine(const v1::Action& action) { return ToJsonLine(action) + "\n"; }

std::string FormatLog(const GameLog& log) {
  std::string text = FormatHeaderLine(log.header);
  for (const v1::Action& action : log.actions) text += FormatActionLine(action);
  return text;
}

}  // namespace arbiter::log
