// Text in columns for a terminal: the width a string takes on screen
// (display width), padding to a width, and rows aligned column by column.
// Player names and principals may be any Unicode ("Zoë Müller", "李小龍"),
// so columns are measured in display columns, never in bytes: a code point
// is one column, an East Asian wide or fullwidth one two, a combining mark
// or zero-width character none. Pure functions; thread-safe.
#ifndef ARBITER_SERVICES_CLI_TEXT_COLUMNS_H_
#define ARBITER_SERVICES_CLI_TEXT_COLUMNS_H_

#include <string>
#include <vector>

namespace arbiter::cli {

// The columns `text` takes on a terminal. Bytes that are not valid UTF-8
// count one column each.
int DisplayWidth(const std::string& text);

// `text` followed (PadRight) or preceded (PadLeft) by spaces up to `width`
// display columns; `text` unchanged if it is as wide or wider.
std::string PadRight(const std::string& text, int width);
std::string PadLeft(const std::string& text, int width);

// The rows as lines, each cell padded to its column's widest cell plus
// `gap` spaces (the last column unpadded); every line ends in "\n".
std::string AlignedRows(const std::vector<std::vector<std::string>>& rows, int gap = 2);

}  // namespace arbiter::cli

#endif  // ARBITER_SERVICES_CLI_TEXT_COLUMNS_H_
