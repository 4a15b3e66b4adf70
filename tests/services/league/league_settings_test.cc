// A league's display name is 0-200 characters of valid UTF-8, counted in
// characters, not bytes (league_settings.h).
#include "services/league/league_settings.h"

#include <gtest/gtest.h>

#include <string>

namespace arbiter::league {
namespace {

v1::LeagueSettings Named(const std::string& name) {
  v1::LeagueSettings settings;
  settings.set_display_name(name);
  settings.add_game_types("atlantis");
  settings.set_rating_system("plackett-luce");
  return settings;
}

TEST(ConfigFromSettings, CountsADisplayNameInCharacters) {
  std::string name;
  for (int i = 0; i < 200; ++i) name += "\xc3\xab";  // 200 characters, 400 bytes
  EXPECT_TRUE(ConfigFromSettings(Named(name)).ok()) << ConfigFromSettings(Named(name)).status();
  const absl::Status long_one = ConfigFromSettings(Named(name + "x")).status();
  EXPECT_EQ(long_one.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(long_one.message(), "settings.display_name: 201 characters; at most 200");
  const absl::Status invalid = ConfigFromSettings(Named("Zo\xff")).status();
  EXPECT_EQ(invalid.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(invalid.message(), "settings.display_name: not valid UTF-8");
}

}  // namespace
}  // namespace arbiter::league
