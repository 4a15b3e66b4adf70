// The array literals the stores send lists as (services/store/pg/arrays.h):
// their exact text, and that PostgreSQL reads them back as the same values,
// quotes, backslashes, commas, braces and NULLs included.
#include "services/store/pg/arrays.h"

#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include <optional>
#include <string>
#include <vector>

#include "tests/services/store/postgres_test_env.h"

namespace arbiter::store::pg {
namespace {

TEST(PgArrays, TextIsQuotedAndEscaped) {
  EXPECT_EQ(TextArray(std::vector<std::string>{}), "{}");
  EXPECT_EQ(TextArray(std::vector<std::string>{"a", "b\"c", "d\\e", ""}),
            R"({"a","b\"c","d\\e",""})");
  EXPECT_EQ(TextArray(std::vector<std::optional<std::string>>{"x", std::nullopt, "NULL"}),
            R"({"x",NULL,"NULL"})");
}

TEST(PgArrays, IntegersAreListedWithNulls) {
  EXPECT_EQ(IntArray(std::vector<int64_t>{}), "{}");
  EXPECT_EQ(IntArray(std::vector<int64_t>{1, -2, 9'000'000'000}), "{1,-2,9000000000}");
  EXPECT_EQ(IntArray(std::vector<uint64_t>{18'446'744'073'709'551'615u}),
            "{18446744073709551615}");
  EXPECT_EQ(IntArray(std::vector<int>{3}), "{3}");
  EXPECT_EQ(IntArray(std::vector<std::optional<int64_t>>{7, std::nullopt}), "{7,NULL}");
}

TEST(PgArrays, PostgresReadsBackTheSameValues) {
  pqxx::connection conn(testing::FreshDatabase());
  pqxx::nontransaction txn(conn);
  const std::vector<std::string> texts = {"plain", "with \"quotes\"", "back\\slash", "a,b",
                                          "{braces}", " spaced ", "", "NULL", "tab\there",
                                          "é ünïcode"};
  pqxx::result rows = txn.exec_params(
      "SELECT t, t IS NULL FROM unnest($1::text[]) WITH ORDINALITY AS u(t, n) ORDER BY n",
      TextArray(texts));
  ASSERT_EQ(rows.size(), texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    EXPECT_FALSE(rows[i][1].as<bool>()) << i;
    EXPECT_EQ(rows[i][0].as<std::string>(), texts[i]) << i;
  }
  pqxx::result nullable = txn.exec_params(
      "SELECT t IS NULL, coalesce(t, ''), i IS NULL, coalesce(i, 0) "
      "FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS u(t, i, n) ORDER BY n",
      TextArray(std::vector<std::optional<std::string>>{"x", std::nullopt}),
      IntArray(std::vector<std::optional<int64_t>>{std::nullopt, -5}));
  ASSERT_EQ(nullable.size(), 2u);
  EXPECT_FALSE(nullable[0][0].as<bool>());
  EXPECT_EQ(nullable[0][1].as<std::string>(), "x");
  EXPECT_TRUE(nullable[0][2].as<bool>());
  EXPECT_TRUE(nullable[1][0].as<bool>());
  EXPECT_FALSE(nullable[1][2].as<bool>());
  EXPECT_EQ(nullable[1][3].as<int64_t>(), -5);
}

}  // namespace
}  // namespace arbiter::store::pg
