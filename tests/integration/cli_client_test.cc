// The `arbiter` binary's client commands (submit, games, adjudicate, state,
// verify, token create) against a running server on a real PostgreSQL: exit
// codes, what they print, and what they store.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <pqxx/pqxx>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "tests/integration/server_fixture.h"

namespace arbiter::server::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

struct CliRun {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

class CliClientTest : public ServerTest {
 protected:
  void SetUp() override {
    ServerTest::SetUp();
    std::string pattern = ::testing::TempDir() + "/cli_client_test.XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    admin_file_ = Write("admin.token", admin_ + "\n");
  }
  void TearDown() override {
    std::filesystem::remove_all(dir_);
    ServerTest::TearDown();
  }

  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }

  // Runs `arbiter ARGS --server ... --token-file TOKEN_FILE`.
  CliRun Arbiter(const std::string& args, const std::string& token_file = "") {
    return Offline(absl::StrCat(args, " --server 127.0.0.1:", server_->port(), " --token-file ",
                                token_file.empty() ? admin_file_ : token_file));
  }

  // Runs `arbiter ARGS` (a command that needs no server).
  CliRun Offline(const std::string& args) {
    const std::string err_path = dir_ + "/stderr";
    const std::string command = absl::StrCat(ARBITER_BIN_DIR, "/arbiter ", args, " 2>", err_path);
    CliRun run;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) return run;
    std::array<char, 4096> buffer{};
    while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) run.out += buffer.data();
    const int status = pclose(pipe);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream in(err_path);
    run.err.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return run;
  }

  // Submits a log through the command line; expects the given exit code.
  void SubmitFile(const log::GameLog& log, const std::string& game_id, int expected_exit) {
    const std::string path = Write(game_id + ".jsonl", log::FormatLog(log));
    const CliRun run = Arbiter(absl::StrCat("submit ", path, " --game-id ", game_id));
    EXPECT_EQ(run.exit_code, expected_exit) << run.out << run.err;
  }

  std::string dir_;
  std::string admin_file_;
};

TEST_F(CliClientTest, SubmitStoresALegalGameAndExitsZero) {
  const log::GameLog log = Simulated(11, 2);
  const std::string path = Write("legal.jsonl", log::FormatLog(log));
  const CliRun run = Arbiter("submit " + path + " --game-id legal-1");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  // The header, the actions and the result (game_finished).
  EXPECT_THAT(run.out, StartsWith(absl::StrCat("stored as games/legal-1 (finished, ",
                                               log.actions.size() + 2, " events)\n")));
  const v1::Game stored = Get("legal-1");
  EXPECT_EQ(stored.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(stored.last_event(), static_cast<int64_t>(log.actions.size()) + 2);
  EXPECT_EQ(StoredGames(), 1);
  // The same file again is a retry: the same game, nothing new stored.
  const CliRun again = Arbiter("submit " + path + " --game-id legal-1");
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(StoredGames(), 1);
}

TEST_F(CliClientTest, SubmitOfAnIllegalLogStoresItAndExitsFour) {
  const log::GameLog log = WithActionOutOfTurn(Simulated(12, 2), 4);
  const std::string path = Write("illegal.jsonl", log::FormatLog(log));
  const CliRun run = Arbiter("submit " + path + " --game-id illegal-1");
  EXPECT_EQ(run.exit_code, 4) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("line 6 ("));
  EXPECT_THAT(run.out, HasSubstr("breaks rule not_your_turn"));
  EXPECT_EQ(Get("illegal-1").name(), "games/illegal-1");
}

TEST_F(CliClientTest, GamesListsStoredGamesAndFiltersByStatus) {
  SubmitFile(Simulated(13, 2), "listed-a", 0);
  log::GameLog unfinished = Simulated(14, 2);
  unfinished.actions.resize(3);
  SubmitFile(unfinished, "listed-b", 3);

  const CliRun all = Arbiter("games");
  EXPECT_EQ(all.exit_code, 0) << all.err;
  const std::vector<std::string> lines = absl::StrSplit(all.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 3u) << all.out;
  EXPECT_THAT(lines[0], StartsWith("GAME"));
  EXPECT_THAT(lines[1], StartsWith("games/listed-a"));
  EXPECT_THAT(lines[1], HasSubstr("atlantis"));
  EXPECT_THAT(lines[1], HasSubstr("finished"));
  EXPECT_THAT(lines[2], StartsWith("games/listed-b"));
  EXPECT_THAT(lines[2], HasSubstr("active"));
  EXPECT_THAT(lines[2], HasSubstr("      4  p1,p2"));

  const CliRun active = Arbiter("games --status active --json");
  EXPECT_EQ(active.exit_code, 0) << active.err;
  EXPECT_THAT(active.out, HasSubstr("\"name\":\"games/listed-b\""));
  EXPECT_THAT(active.out, Not(HasSubstr("listed-a")));
}

TEST_F(CliClientTest, AdjudicateGivesTheVerdictAsTheExitCode) {
  SubmitFile(Simulated(15, 3), "adj-legal", 0);
  SubmitFile(WithActionOutOfTurn(Simulated(16, 2), 2), "adj-illegal", 4);

  const CliRun legal = Arbiter("adjudicate adj-legal");
  EXPECT_EQ(legal.exit_code, 0) << legal.err;
  EXPECT_THAT(legal.out, StartsWith("games/adj-legal (finished)\n"));
  const CliRun illegal = Arbiter("adjudicate games/adj-illegal --json");
  EXPECT_EQ(illegal.exit_code, 4) << illegal.err;
  EXPECT_THAT(illegal.out, HasSubstr("\"rule\":\"not_your_turn\""));
  EXPECT_THAT(illegal.out, HasSubstr("\"event\":\"4\""));
  // The report for people quotes the offending action in words.
  const std::vector<std::string> words = ActionWords(WithActionOutOfTurn(Simulated(16, 2), 2));
  ASSERT_EQ(words.size(), 3u);
  const CliRun said = Arbiter("adjudicate adj-illegal");
  EXPECT_EQ(said.exit_code, 4) << said.err;
  EXPECT_THAT(said.out, HasSubstr("breaks rule not_your_turn: "));
  EXPECT_THAT(said.out, HasSubstr("\n    the action: " + words.back() + "\n"));

  const CliRun unknown = Arbiter("adjudicate nobody");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_THAT(unknown.err, StartsWith("arbiter: NOT_FOUND: "));
}

TEST_F(CliClientTest, StateShowsThePositionAfterAnEvent) {
  const log::GameLog log = Simulated(17, 2);
  SubmitFile(log, "state-1", 0);
  const CliRun start = Arbiter("state state-1 --at 1");
  EXPECT_EQ(start.exit_code, 0) << start.err;
  EXPECT_THAT(start.out, StartsWith("games/state-1 after event 1 (verdict unfinished)\nto act: "));
  const CliRun json = Arbiter("state state-1 --at 3 --json");
  EXPECT_EQ(json.exit_code, 0) << json.err;
  EXPECT_THAT(json.out, HasSubstr("\"event\":\"3\""));
  // Event actions + 2 is the result; nothing follows it.
  const CliRun beyond = Arbiter(absl::StrCat("state state-1 --at ", log.actions.size() + 3));
  EXPECT_EQ(beyond.exit_code, 2) << beyond.out;
}

TEST_F(CliClientTest, VerifyReportsAnIntactChainAndFindsAnEditedEvent) {
  SubmitFile(Simulated(18, 2), "verify-1", 0);
  const v1::Game game = Get("verify-1");
  const CliRun intact = Arbiter("verify verify-1");
  EXPECT_EQ(intact.exit_code, 0) << intact.err;
  EXPECT_EQ(intact.out, absl::StrCat("games/verify-1: intact, ", game.last_event(),
                                     " events, last hash ", game.last_event_hash(),
                                     ", verdict legal\n"));
  {
    // An intruder with the superuser password edits event 3 behind the store.
    pqxx::connection conn(conninfo_);
    pqxx::work edit(conn);
    edit.exec("SET session_replication_role = replica");
    edit.exec("UPDATE events SET payload = payload || '\\x00'::bytea "
              "WHERE game_id = 'verify-1' AND sequence = 3");
    edit.commit();
  }
  const CliRun broken = Arbiter("verify verify-1");
  EXPECT_EQ(broken.exit_code, 4) << broken.err;
  EXPECT_THAT(broken.out, StartsWith("games/verify-1: BROKEN at event 3: "));
}

TEST_F(CliClientTest, AdjudicateAndVerifySayAVoidIsTheOfficialResult) {
  SubmitFile(Simulated(19, 2), "void-1", 0);
  const CliRun before = Arbiter("adjudicate void-1");
  EXPECT_THAT(before.out, HasSubstr("\nofficial result: the verdict above (no ruling changed it)\n"));
  const CliRun voided = Arbiter("void void-1 --reason \"the players swapped seats\"");
  ASSERT_EQ(voided.exit_code, 0) << voided.err;
  const int64_t void_event = Get("void-1").last_event();
  const CliRun after = Arbiter("adjudicate void-1");
  EXPECT_EQ(after.exit_code, 0) << after.err;
  EXPECT_THAT(after.out, HasSubstr(absl::StrCat("\nofficial result: voided at event ", void_event,
                                                " by root: the players swapped seats\n")));
  const CliRun verified = Arbiter("verify void-1");
  EXPECT_EQ(verified.exit_code, 0) << verified.err;
  EXPECT_THAT(verified.out, HasSubstr(absl::StrCat(", verdict legal; official result voided at event ",
                                                   void_event, " by root: the players swapped seats\n")));
}

// A server's errors reach a person with the flag or command to use, never
// an RPC's name, and exit 2 when the caller can fix them.
TEST_F(CliClientTest, ErrorsNameTheFlagToUseAndExitTwoForWhatTheCallerCanFix) {
  const CliRun no_token = Arbiter("games", Write("empty.token", "\n"));
  EXPECT_EQ(no_token.exit_code, 2) << no_token.err;
  EXPECT_EQ(no_token.out, "");
  EXPECT_EQ(no_token.err,
            "arbiter: no token: give one with --token-file FILE (or the environment variable "
            "ARBITER_TOKEN); an admin mints one with `arbiter token create`\n");
  const CliRun unknown = Arbiter("games", Write("unknown.token", "arb_0000\n"));
  EXPECT_EQ(unknown.exit_code, 2) << unknown.err;
  EXPECT_THAT(unknown.err, HasSubstr("\nhint: the server refused the token of --token-file, --token or "
                                     "ARBITER_TOKEN; an admin mints a new one with `arbiter token "
                                     "create`\n"));

  // A request over its size limit: its size in words, exit 2.
  const CliRun big = Arbiter("adjudicate " + std::string(70'000, 'g'));
  EXPECT_EQ(big.exit_code, 2) << big.err;
  EXPECT_THAT(big.err, StartsWith("arbiter: RESOURCE_EXHAUSTED: the request is 70,0"));
  EXPECT_THAT(big.err, HasSubstr(" bytes (68.4 KiB); this call takes at most 65,536 bytes (64 KiB): "
                                 "send less in one request\n"));
  EXPECT_THAT(big.err, HasSubstr("\nhint: shorten the text given"));

  // A reason is counted in characters: 1000 of "ë" (2000 bytes) fit, 1001 do not.
  SubmitFile(Simulated(22, 2), "void-2", 0);
  std::string umlauts;
  for (int i = 0; i < 1001; ++i) umlauts += "\xc3\xab";
  const CliRun long_reason = Arbiter("void void-2 --reason " + umlauts);
  EXPECT_EQ(long_reason.exit_code, 2) << long_reason.err;
  EXPECT_THAT(long_reason.err,
              StartsWith("arbiter: INVALID_ARGUMENT: reason is 1001 characters; at most 1000\n"));
  const CliRun no_reason = Arbiter("void void-2 --reason ''");
  EXPECT_EQ(no_reason.exit_code, 2) << no_reason.err;
  EXPECT_THAT(no_reason.err, StartsWith("arbiter: INVALID_ARGUMENT: reason is required: 1-1000 "
                                        "characters saying why the game is voided\n"));
  const CliRun voided = Arbiter("void void-2 --reason " + umlauts.substr(2));
  EXPECT_EQ(voided.exit_code, 0) << voided.err;

  for (const CliRun* run : {&no_token, &unknown, &big, &long_reason, &no_reason}) {
    EXPECT_THAT(run->err, Not(::testing::ContainsRegex(
                              "(Create|Get|List|Start|Confirm|Open|Rule|Submit|Append|Void|Adjudicate|"
                              "Verify|Watch|Register|Reveal)[A-Z][a-z]+")))
        << run->err;
  }
}

// Standings line up by display width, whatever the players' names.
TEST_F(CliClientTest, AdjudicateAlignsStandingsOfUnicodeNames) {
  log::GameLog log = Simulated(23, 3);
  log.header.mutable_players(0)->set_name("Zo\xc3\xab");                        // 3 columns, 4 bytes
  log.header.mutable_players(1)->set_name("\xe6\x9d\x8e\xe5\xb0\x8f\xe9\xbe\x8d");  // 6 columns, 9 bytes
  SubmitFile(log, "names-1", 0);
  const CliRun run = Arbiter("adjudicate names-1");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // "  1. ID (NAME)<padding to 24 columns> SCORE": every line 35 columns.
  int lines = 0;
  std::istringstream out(run.out.substr(run.out.find("standings:\n")));
  for (std::string line; std::getline(out, line);) {
    if (line.size() < 5 || line.substr(0, 2) != "  " || line[3] != '.') continue;
    const size_t extra_bytes = line.find("Zo\xc3\xab") != std::string::npos ? 1
                               : line.find("\xe6\x9d\x8e") != std::string::npos ? 3
                                                                              : 0;
    EXPECT_EQ(line.size() - extra_bytes, 35u) << line;
    ++lines;
  }
  EXPECT_EQ(lines, 3) << run.out;
}

TEST_F(CliClientTest, AdjudicateSaysHiddenForASeedTheCallerMayNotSee) {
  log::GameLog log = Simulated(21, 2);
  log.actions.resize(4);
  SubmitFile(log, "live-1", 3);
  const std::string organiser = Write("organiser.token", MakeToken(store::Role::kOrganiser, "olga"));
  const CliRun hidden = Arbiter("adjudicate live-1", organiser);
  EXPECT_EQ(hidden.exit_code, 3) << hidden.err;
  EXPECT_THAT(hidden.out, HasSubstr(", seed (hidden))\n"));
  const CliRun shown = Arbiter("adjudicate live-1");
  EXPECT_THAT(shown.out, HasSubstr(absl::StrCat(", seed ", log.header.seed(), ")\n")));
}

TEST_F(CliClientTest, LogWritesAStoredGameBackAsTheLogItWasSubmittedAs) {
  log::GameLog log = Simulated(23, 3);
  log.header.mutable_players(0)->set_name("Zoë Müller");
  SubmitFile(log, "logged", 0);
  const std::string path = dir_ + "/logged-back.jsonl";
  const CliRun run = Arbiter("log logged -o " + path);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::ifstream in(path);
  const std::string back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(back, log::FormatLog(log));
  EXPECT_EQ(Arbiter("log logged").out, back) << "standard output by default";

  // A live game's seed is not the organiser's to see: no log, no stdout.
  log::GameLog live = Simulated(24, 2);
  live.actions.resize(3);
  SubmitFile(live, "logged-live", 3);
  const std::string organiser = Write("organiser.token", MakeToken(store::Role::kOrganiser, "olga"));
  const CliRun refused = Arbiter("log logged-live", organiser);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(refused.out, "");
  EXPECT_THAT(refused.err, HasSubstr("this token may not see the seed of games/logged-live while "
                                     "the game is live (admins and auditors may)"));
  EXPECT_EQ(Arbiter("log nobody").exit_code, 2);
}

TEST_F(CliClientTest, SubmitRefusesTheSameGameTwiceUnlessAllowedAndSaysWhichFlag) {
  const log::GameLog log = Simulated(20, 2);
  SubmitFile(log, "dup-original", 0);
  log::GameLog renamed = log;
  renamed.header.mutable_players(1)->set_name("Zoë Müller");
  const std::string path = Write("renamed.jsonl", log::FormatLog(renamed));
  const CliRun refused = Arbiter("submit " + path);
  EXPECT_EQ(refused.exit_code, 2) << refused.out;
  EXPECT_EQ(refused.out, "") << "nothing on stdout before an error";
  EXPECT_THAT(refused.err, HasSubstr("as the stored game \"dup-original\"; to store it again, "
                                     "marked as a duplicate and never rated, submit it with "
                                     "--allow-duplicate"));
  const CliRun allowed = Arbiter("submit " + path + " --allow-duplicate");
  EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
  EXPECT_THAT(allowed.out,
              HasSubstr("\na duplicate of games/dup-original: kept for the record, never rated\n"));
}

TEST_F(CliClientTest, TokenCreatePrintsATokenThatCarriesItsRole) {
  const CliRun created = Arbiter("token create --role auditor --principal carol");
  EXPECT_EQ(created.exit_code, 0) << created.err;
  ASSERT_FALSE(created.out.empty());
  ASSERT_EQ(created.out.back(), '\n');
  const std::string auditor_file = Write("auditor.token", created.out);
  SubmitFile(Simulated(19, 2), "token-1", 0);

  const CliRun reads = Arbiter("games", auditor_file);
  EXPECT_EQ(reads.exit_code, 0) << reads.err;
  EXPECT_THAT(reads.out, HasSubstr("games/token-1"));
  const CliRun writes = Arbiter("submit " + dir_ + "/token-1.jsonl --game-id token-2", auditor_file);
  EXPECT_EQ(writes.exit_code, 2);
  EXPECT_THAT(writes.err, StartsWith("arbiter: PERMISSION_DENIED: "));
  const CliRun mints = Arbiter("token create --role admin --principal mallory", auditor_file);
  EXPECT_EQ(mints.exit_code, 2);
  EXPECT_THAT(mints.err, StartsWith("arbiter: PERMISSION_DENIED: "));
  const CliRun bogus = Arbiter("games", Write("bogus.token", "not-a-token\n"));
  EXPECT_EQ(bogus.exit_code, 2);
  EXPECT_THAT(bogus.err, StartsWith("arbiter: UNAUTHENTICATED: "));
}

// A player at a terminal: its token, minted with token create --role
// player, lists its seat's moves in words and plays one by number; the seat
// not to act is told who is; a number past the list is refused.
TEST_F(CliClientTest, APlayerListsItsMovesAndPlaysOneByNumber) {
  const log::GameLog log = Simulated(19, 2);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "table", &game).ok());
  const std::string first = log.actions[0].player();
  std::string second;
  for (const v1::Player& p : log.header.players()) {
    if (p.id() != first) second = p.id();
  }
  const CliRun minted =
      Arbiter(absl::StrCat("token create --role player --principal ", first, " --game table"));
  ASSERT_EQ(minted.exit_code, 0) << minted.err;
  const std::string mine = Write("first.token", minted.out);
  const std::string theirs = Write(
      "second.token",
      Arbiter(absl::StrCat("token create --role player --principal ", second, " --game table")).out);

  const CliRun moves = Arbiter("moves table", mine);
  EXPECT_EQ(moves.exit_code, 0) << moves.err;
  EXPECT_THAT(moves.out, StartsWith(absl::StrCat("games/table after event 1, ", first, " to act")));
  EXPECT_THAT(moves.out, HasSubstr("    1. "));
  const CliRun waiting = Arbiter("moves table", theirs);
  EXPECT_EQ(waiting.exit_code, 0) << waiting.err;
  EXPECT_EQ(waiting.out, absl::StrCat("games/table after event 1, ", second,
                                      " is not to act; to act: ", first, "\n"));
  const CliRun too_far = Arbiter("move table 100000", mine);
  EXPECT_EQ(too_far.exit_code, 2);
  EXPECT_THAT(too_far.err, HasSubstr("there is no move 100000"));
  const CliRun played = Arbiter("move table 1", mine);
  EXPECT_EQ(played.exit_code, 0) << played.err;
  EXPECT_THAT(played.out, StartsWith("event 2: "));
  EXPECT_EQ(Get("table").last_event(), 2);
  // Another seat's moves are not a player's to see.
  const CliRun peek = Arbiter(absl::StrCat("moves table --player ", second), mine);
  EXPECT_EQ(peek.exit_code, 2);
  EXPECT_THAT(peek.err, StartsWith("arbiter: PERMISSION_DENIED: "));
}

// arbiter deal: an organiser creates a dealt game, each player adds its
// value with its own token, the last value closes the deal, and the moves
// are then listed; an early move, a second value and a value from the
// organiser are refused with what to do instead.
TEST_F(CliClientTest, ADealtGameIsCreatedGivenItsValuesAndThenPlayed) {
  const CliRun created = Arbiter("deal create atlantis --player ann=Ann --player bob --game-id t1");
  ASSERT_EQ(created.exit_code, 0) << created.err;
  EXPECT_THAT(created.out, StartsWith("games/t1: atlantis, dealt by the server\n"
                                      "  commitment to the dealer's secret: "));
  EXPECT_THAT(created.out, HasSubstr("deal open, waiting for a value from: ann, bob\n"));
  EXPECT_THAT(created.out, HasSubstr("arbiter deal add games/t1 VALUE"));
  const std::string ann = Write(
      "ann.token", Arbiter("token create --role player --principal ann --game t1").out);
  const std::string bob = Write(
      "bob.token", Arbiter("token create --role player --principal bob --game t1").out);

  const CliRun early = Arbiter("moves t1", ann);
  EXPECT_EQ(early.exit_code, 2);
  EXPECT_THAT(early.err, HasSubstr("the deal of game \"t1\" is still open"));
  const CliRun organiser = Arbiter("deal add t1 mine");
  EXPECT_EQ(organiser.exit_code, 2);
  EXPECT_THAT(organiser.err, HasSubstr("only a player adds a value to a deal"));

  const CliRun first = Arbiter("deal add t1 \"four words of mine\"", ann);
  EXPECT_EQ(first.exit_code, 0) << first.err;
  EXPECT_THAT(first.out, HasSubstr("waiting for a value from: bob\n"));
  const CliRun again = Arbiter("deal add t1 \"four words of mine\"", ann);
  EXPECT_EQ(again.exit_code, 0) << again.err;  // the same value: a retry
  const CliRun other = Arbiter("deal add t1 another", ann);
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_THAT(other.err, HasSubstr("a seat adds one value"));
  const CliRun last = Arbiter("deal add t1 c0ffee", bob);
  EXPECT_EQ(last.exit_code, 0) << last.err;
  EXPECT_THAT(last.out, HasSubstr("deal closed: the game takes moves (arbiter moves games/t1)\n"));
  const CliRun moves = Arbiter("moves t1", ann);
  EXPECT_EQ(moves.exit_code, 0) << moves.err;
  EXPECT_THAT(moves.out, StartsWith("games/t1 after event 4, ann to act"));
  const CliRun closed = Arbiter("deal close t1");
  EXPECT_EQ(closed.exit_code, 2);
  EXPECT_THAT(closed.err, HasSubstr("is closed and takes no more values"));
  const CliRun live_log = Arbiter("log t1");
  EXPECT_EQ(live_log.exit_code, 2);
  EXPECT_THAT(live_log.err, HasSubstr("its secret is recorded only when the game ends"));

  // Played to its end (by the admin, for whoever is to act), the game's
  // log carries the seed derived from the revealed secret and the values,
  // and replays offline to the verdict the server recorded.
  ASSERT_TRUE(PlayToEndAsAdmin("t1"));
  const CliRun watched = Arbiter("watch t1");
  EXPECT_EQ(watched.exit_code, 0) << watched.err;
  EXPECT_THAT(watched.out, HasSubstr("\nevent 2: ann added a value to the deal\n"));
  EXPECT_THAT(watched.out, HasSubstr("\nevent 4: the deal is closed; to act: ann\n"));
  EXPECT_THAT(watched.out, HasSubstr(": the dealer's secret is revealed (arbiter log re-derives "
                                     "the deal)\n"));
  ASSERT_EQ(Get("t1").status(), v1::GAME_STATUS_FINISHED);
  const CliRun written = Arbiter(absl::StrCat("log t1 -o ", dir_, "/t1.jsonl"));
  EXPECT_EQ(written.exit_code, 0) << written.err;
  const CliRun replayed = Offline(absl::StrCat("replay ", dir_, "/t1.jsonl"));
  EXPECT_EQ(replayed.exit_code, 0) << replayed.out << replayed.err;
  EXPECT_THAT(replayed.out, HasSubstr("legal"));
}

// arbiter watch prints one line per event (an action in words), who acts
// next, and stops at the end of the game; a start past the end is refused
// with the count.
TEST_F(CliClientTest, WatchPrintsEachEventToTheEndOfTheGame) {
  const log::GameLog log = Simulated(20, 2);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "watched", &game).ok());
  v1::AppendActionsResponse response;
  ASSERT_TRUE(Append(admin_, "watched", 1, log.actions, "all", &response).ok());
  const int64_t last = Get("watched").last_event();
  const CliRun tail = Arbiter(absl::StrCat("watch watched --from ", last - 2));
  EXPECT_EQ(tail.exit_code, 0) << tail.err;
  // The last action in words, as the engine says it before it.
  EXPECT_THAT(tail.out, StartsWith(absl::StrCat("event ", last - 1, ": ", ActionWords(log).back(), "\n")));
  EXPECT_THAT(tail.out, Not(HasSubstr("{")));
  EXPECT_THAT(tail.out, HasSubstr(absl::StrCat("\nevent ", last, ": game_finished; the game is over\n")));
  const CliRun whole = Arbiter("watch watched");
  EXPECT_EQ(whole.exit_code, 0) << whole.err;
  EXPECT_THAT(whole.out, StartsWith("event 1: game created (atlantis, 2 players); to act: "));
  const CliRun past = Arbiter(absl::StrCat("watch watched --from ", last + 1));
  EXPECT_EQ(past.exit_code, 2);
  EXPECT_THAT(past.err, HasSubstr(absl::StrCat("has ", last, " events")));
}

TEST_F(CliClientTest, EachTokenCreateMintsANewTokenUnlessARequestIdRepeats) {
  // A second token for the same person is the usual case: no --request-id
  // needed, and no collision with the first.
  const CliRun first = Arbiter("token create --role organiser --principal olga --league north");
  const CliRun second = Arbiter("token create --role organiser --principal olga --league north");
  EXPECT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(second.exit_code, 0) << second.err;
  EXPECT_NE(first.out, second.out);
  // "organizer" is the same role.
  const CliRun spelled = Arbiter("token create --role organizer --principal olga --league north");
  EXPECT_EQ(spelled.exit_code, 0) << spelled.err;
  // An explicit request id makes a retry mint nothing more; its secret was
  // printed once, so the retry says which token it was and how to replace it.
  const CliRun retried = Arbiter("token create --role auditor --principal ida --request-id ida-1");
  const CliRun again = Arbiter("token create --role auditor --principal ida --request-id ida-1");
  EXPECT_EQ(retried.exit_code, 0) << retried.err;
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_EQ(again.out, "");
  EXPECT_THAT(again.err, HasSubstr("already created for request_id \"ida-1\""));
  EXPECT_THAT(again.err, HasSubstr("leave out --request-id to mint another token"));

  // token list names each token's scopes.
  const CliRun listed = Arbiter("token list");
  EXPECT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_THAT(listed.out, HasSubstr("scopes"));
  int olga_lines = 0;
  const std::vector<std::string> lines = absl::StrSplit(listed.out, '\n', absl::SkipEmpty());
  for (const std::string& line : lines) {
    if (line.find(" olga ") == std::string::npos) continue;
    ++olga_lines;
    EXPECT_THAT(line, HasSubstr("organiser"));
    EXPECT_THAT(line, HasSubstr("leagues/north"));
  }
  EXPECT_EQ(olga_lines, 3) << listed.out;
}

}  // namespace
}  // namespace arbiter::server::testing
