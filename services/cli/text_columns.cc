#include "services/cli/text_columns.h"

#include <algorithm>
#include <cstdint>

namespace arbiter::cli {
namespace {

struct Range {
  uint32_t first;
  uint32_t last;
};

// Combining marks (general categories Mn and Me) of the common scripts,
// Hangul medial vowels and final consonants, and zero-width characters.
constexpr Range kZeroWidth[] = {
    {0x0300, 0x036F},   {0x0483, 0x0489},   {0x0591, 0x05BD},   {0x05BF, 0x05BF},
    {0x05C1, 0x05C2},   {0x05C4, 0x05C5},   {0x05C7, 0x05C7},   {0x0610, 0x061A},
    {0x064B, 0x065F},   {0x0670, 0x0670},   {0x06D6, 0x06DC},   {0x06DF, 0x06E4},
    {0x06E7, 0x06E8},   {0x06EA, 0x06ED},   {0x0900, 0x0902},   {0x093A, 0x093A},
    {0x093C, 0x093C},   {0x0941, 0x0948},   {0x094D, 0x094D},   {0x0951, 0x0957},
    {0x0962, 0x0963},   {0x0E31, 0x0E31},   {0x0E34, 0x0E3A},   {0x0E47, 0x0E4E},
    {0x1160, 0x11FF},   {0x1AB0, 0x1AFF},   {0x1DC0, 0x1DFF},   {0x200B, 0x200F},
    {0x202A, 0x202E},   {0x2060, 0x2064},   {0x20D0, 0x20FF},   {0x302A, 0x302D},
    {0x3099, 0x309A},   {0xFE00, 0xFE0F},   {0xFE20, 0xFE2F},   {0xFEFF, 0xFEFF},
    {0xE0100, 0xE01EF},
};

// East Asian Wide and Fullwidth: Hangul Jamo initials, CJK (radicals to Yi),
// Hangul syllables, CJK compatibility, vertical and small forms, fullwidth
// forms, emoji and the supplementary ideographic planes.
constexpr Range kWide[] = {
    {0x1100, 0x115F},   {0x2329, 0x232A},   {0x2E80, 0x303E},   {0x3040, 0xA4CF},
    {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},
    {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF},
    {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

template <size_t N>
bool In(const Range (&ranges)[N], uint32_t code) {
  return std::any_of(std::begin(ranges), std::end(ranges),
                     [code](const Range& r) { return code >= r.first && code <= r.last; });
}

int CodePointWidth(uint32_t code) {
  if (code < 0x20 || (code >= 0x7F && code < 0xA0)) return 0;
  if (In(kZeroWidth, code)) return 0;
  return In(kWide, code) ? 2 : 1;
}

// Decodes the code point at `text[*i]` and advances `*i`; a byte that does
// not start a valid sequence is returned as itself (one column).
uint32_t NextCodePoint(const std::string& text, size_t* i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(*i);
  size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3
                                  : (lead >> 3) == 0x1E ? 4 : 0;
  if (length == 0 || *i + length > text.size()) {
    ++*i;
    return 0x41;  // one column
  }
  uint32_t code = length == 1 ? lead : lead & (0xFFu >> (length + 1));
  for (size_t k = 1; k < length; ++k) {
    if ((byte(*i + k) & 0xC0u) != 0x80u) {
      ++*i;
      return 0x41;
    }
    code = (code << 6) | (byte(*i + k) & 0x3Fu);
  }
  *i += length;
  return code;
}

}  // namespace

int DisplayWidth(const std::string& text) {
  int width = 0;
  for (size_t i = 0; i < text.size();) width += CodePointWidth(NextCodePoint(text, &i));
  return width;
}

std::string PadRight(const std::string& text, int width) {
  const int missing = width - DisplayWidth(text);
  return missing > 0 ? text + std::string(static_cast<size_t>(missing), ' ') : text;
}

std::string PadLeft(const std::string& text, int width) {
  const int missing = width - DisplayWidth(text);
  return missing > 0 ? std::string(static_cast<size_t>(missing), ' ') + text : text;
}

std::string AlignedRows(const std::vector<std::vector<std::string>>& rows, int gap) {
  std::vector<int> widths;
  for (const auto& row : rows) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], DisplayWidth(row[c]));
  }
  std::string out;
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) {
      out += c + 1 < row.size() ? PadRight(row[c], widths[c] + gap) : row[c];
    }
    out += "\n";
  }
  return out;
}

}  // namespace arbiter::cli
