// Where the CLI takes its bearer token from, and the warning for a token on
// the command line (readable by other users in the process list).
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "services/cli/client_common.h"

namespace arbiter::cli {
namespace {

TEST(ClientToken, ATokenInArgvWorksButIsWarnedAbout) {
  ClientOptions options;
  options.token = "arb_x_y";
  std::ostringstream warnings;
  EXPECT_EQ(TokenFrom(options, warnings), "arb_x_y");
  EXPECT_NE(warnings.str().find("--token-file"), std::string::npos);
  EXPECT_NE(warnings.str().find("ARBITER_TOKEN"), std::string::npos);
}

TEST(ClientToken, TheEnvironmentIsUsedWithoutAWarning) {
  ::setenv("ARBITER_TOKEN", "arb_from_env", 1);
  ClientOptions options;
  std::ostringstream warnings;
  EXPECT_EQ(TokenFrom(options, warnings), "arb_from_env");
  EXPECT_TRUE(warnings.str().empty());
  ::unsetenv("ARBITER_TOKEN");
}

TEST(ClientToken, ATokenFileWinsAndIsNotWarnedAbout) {
  ClientOptions options;
  options.token_file = "/some/file";
  std::ostringstream warnings;
  EXPECT_EQ(TokenFrom(options, warnings), "");
  EXPECT_TRUE(warnings.str().empty());
}

}  // namespace
}  // namespace arbiter::cli
