// Reading PostgreSQL's COPY ... TO STDOUT text format, for the scans of the
// PostgreSQL event store and result index (postgres_scans.cc,
// postgres_result_index.cc): a row is a line of tab-separated fields with
// backslash escapes, a bytea field is "\\x" and hex digits. Inline: these
// run once a field of every row a scan reads. Pure functions and a template;
// thread-safe. Not part of the store's interface.
#ifndef ARBITER_SERVICES_STORE_INTERNAL_COPY_TEXT_H_
#define ARBITER_SERVICES_STORE_INTERNAL_COPY_TEXT_H_

#include <pqxx/pqxx>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace arbiter::store::internal {

// The text of one field of a COPY text line (backslash escapes undone),
// into `out` (its storage reused: most fields have no escape at all).
inline void UnescapeInto(std::string_view field, std::string& out) {
  if (field.find('\\') == std::string_view::npos) {
    out.assign(field.data(), field.size());
    return;
  }
  out.clear();
  for (size_t i = 0; i < field.size(); ++i) {
    if (field[i] != '\\' || i + 1 == field.size()) {
      out.push_back(field[i]);
      continue;
    }
    const char c = field[++i];
    switch (c) {
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'n': out.push_back('\n'); break;
      case 'r': out.push_back('\r'); break;
      case 't': out.push_back('\t'); break;
      case 'v': out.push_back('\v'); break;
      default:
        if (c >= '0' && c <= '7') {  // up to three octal digits
          int value = c - '0';
          for (int k = 0; k < 2 && i + 1 < field.size() && field[i + 1] >= '0' &&
                          field[i + 1] <= '7';
               ++k) {
            value = value * 8 + (field[++i] - '0');
          }
          out.push_back(static_cast<char>(value));
        } else {
          out.push_back(c);
        }
    }
  }
}

constexpr std::array<int8_t, 256> HexValues() {
  std::array<int8_t, 256> table{};
  for (int c = 0; c < 256; ++c) {
    table[c] = static_cast<int8_t>(c >= '0' && c <= '9'   ? c - '0'
                                   : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                   : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                          : -1);
  }
  return table;
}

// The value of each hex digit, -1 for any other byte.
inline constexpr std::array<int8_t, 256> kHexValue = HexValues();

// A bytea field in hex output ("\x..." written by COPY as "\\x...").
inline bool DecodeBytea(std::string_view field, std::string& out) {
  if (field.size() < 3 || field.substr(0, 3) != "\\\\x" || field.size() % 2 == 0) return false;
  field.remove_prefix(3);
  out.resize(field.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) {
    const int high = kHexValue[static_cast<unsigned char>(field[2 * i])];
    const int low = kHexValue[static_cast<unsigned char>(field[2 * i + 1])];
    if ((high | low) < 0) return false;
    out[i] = static_cast<char>(high * 16 + low);
  }
  return true;
}

inline bool ToInt(std::string_view field, int64_t* out) {
  return absl::SimpleAtoi(absl::string_view(field.data(), field.size()), out);
}

// Splits `line` at tabs into exactly `n` fields.
inline bool Split(std::string_view line, std::string_view* fields, int n) {
  for (int i = 0; i < n; ++i) {
    const size_t tab = line.find('\t');
    if ((tab == std::string_view::npos) != (i == n - 1)) return false;
    fields[i] = line.substr(0, tab);
    if (tab != std::string_view::npos) line.remove_prefix(tab + 1);
  }
  return true;
}

// Streams the rows of `query` (a parenthesised SELECT: libpqxx 6 puts the
// "table" of a stream_from straight after COPY) as COPY text lines. Each
// line goes to `parse`; a line it refuses is DataLoss naming `what`, and
// `deliver` hands over a parsed one. The first failure ends the handing
// over; the COPY is drained and the failure returned.
template <typename Parse, typename Deliver>
absl::Status StreamRows(pqxx::transaction_base& txn, const std::string& query,
                        const std::string& what, Parse parse, Deliver deliver) {
  pqxx::stream_from stream(txn, query);
  absl::Status failed;
  std::string line;
  while (stream.get_raw_line(line)) {
    if (!failed.ok()) continue;
    if (!line.empty() && line.back() == '\n') line.pop_back();  // get_raw_line keeps it
    if (!parse(std::string_view(line))) {
      failed = absl::DataLossError(
          absl::StrCat(what, " reads back malformed: ", line.substr(0, 200)));
      continue;
    }
    failed = deliver();
  }
  stream.complete();
  return failed;
}

}  // namespace arbiter::store::internal

#endif  // ARBITER_SERVICES_STORE_INTERNAL_COPY_TEXT_H_
