// The `arbiter` binary end to end: exit codes, --json output, error messages.
#include <sys/wait.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

CommandResult Arbiter(const std::string& args) {
  const std::string command = std::string(ARBITER_BIN_DIR) + "/arbiter " + args + " 2>&1";
  CommandResult run;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) run.output += buffer.data();
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

class ArbiterCliTest : public ::testing::Test {
 protected:
  // Each test writes into a private directory of its own, removed afterwards,
  // so runs by different users or in parallel never meet.
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "/arbiter_cli_test.XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

  std::string dir_;
  std::string Simulated(const std::string& game, int players, int seed) {
    const std::string path = Path(game + ".jsonl");
    const CommandResult run = Arbiter("simulate " + game + " --players " + std::to_string(players) + " --seed " +
                            std::to_string(seed) + " -o " + path);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    return path;
  }
  static std::string Read(const std::string& path) {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  static void Write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }
  static std::vector<std::string> Lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
      const std::size_t end = text.find('\n', start);
      lines.push_back(text.substr(start, end - start));
      start = end == std::string::npos ? text.size() : end + 1;
    }
    return lines;
  }
  static std::string Join(const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& line : lines) text += line + "\n";
    return text;
  }
};

TEST_F(ArbiterCliTest, ASimulatedGameReplaysAsLegalWithExitZero) {
  const std::string log = Simulated("atlantis", 3, 42);
  const CommandResult run = Arbiter("replay " + log);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr("verdict: legal"));
  EXPECT_THAT(run.output, HasSubstr("standings:"));
}

// `arbiter sealed-seed`: the commitment of docs/chance.md's first vector for
// given values, and fresh values (which differ from run to run) otherwise.
TEST_F(ArbiterCliTest, SealedSeedPrintsTheGameBoundCommitment) {
  CommandResult run =
      Arbiter("sealed-seed --game g1 --seed 42 --nonce 00000000000000000000000000000000");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output,
              HasSubstr("seed_commitment: "
                        "997a0afd96463e9fe7577b76a50b724c840e4b5e93f8924dde041855e9fd5f15"));
  const CommandResult first = Arbiter("sealed-seed --game g1");
  const CommandResult second = Arbiter("sealed-seed --game g1");
  EXPECT_EQ(first.exit_code, 0) << first.output;
  EXPECT_THAT(first.output, HasSubstr("nonce: "));
  EXPECT_NE(first.output, second.output);
  run = Arbiter("sealed-seed --game 'bad id'");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_THAT(run.output, HasSubstr("--game must be"));
  run = Arbiter("sealed-seed --game g1 --nonce abc");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_THAT(run.output, HasSubstr("--nonce: nonce must be 32-128 lowercase hex digits"));
}

TEST_F(ArbiterCliTest, SimulateIsDeterministicForASeed) {
  const std::string a = Simulated("atlantis", 2, 5);
  const std::string text_a = Read(a);
  const std::string b = Simulated("atlantis", 2, 5);
  EXPECT_EQ(text_a, Read(b));
  EXPECT_NE(text_a, Read(Simulated("atlantis", 2, 6)));
}

TEST_F(ArbiterCliTest, JsonOutputHasVerdictAndStandings) {
  const CommandResult run = Arbiter("replay --json " + Simulated("atlantis", 4, 1));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr(R"("verdict":"legal")"));
  EXPECT_THAT(run.output, HasSubstr(R"("standings":[)"));
  EXPECT_THAT(run.output, HasSubstr(R"("player":"p1")"));
  EXPECT_THAT(run.output, HasSubstr(R"("place":)"));
  EXPECT_THAT(run.output, HasSubstr(R"("breakdown":[)"));
}

TEST_F(ArbiterCliTest, AnUnfinishedLogExitsThree) {
  std::vector<std::string> lines = Lines(Read(Simulated("atlantis", 3, 9)));
  lines.resize(6);
  const std::string path = Path("short.jsonl");
  Write(path, Join(lines));
  const CommandResult run = Arbiter("replay --json " + path);
  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_THAT(run.output, HasSubstr(R"("verdict":"unfinished")"));
}

TEST_F(ArbiterCliTest, AnIllegalActionExitsFourAndNamesLineAndRule) {
  std::vector<std::string> lines = Lines(Read(Simulated("atlantis", 3, 9)));
  // Line 3 is seat 2's or seat 1's; give line 2 to the wrong player.
  const std::size_t at = lines[1].find("\"p1\"");
  ASSERT_NE(at, std::string::npos);
  lines[1].replace(at, 4, "\"p3\"");
  const std::string path = Path("illegal.jsonl");
  Write(path, Join(lines));
  const CommandResult run = Arbiter("replay --json " + path);
  EXPECT_EQ(run.exit_code, 4) << run.output;
  EXPECT_THAT(run.output, HasSubstr(R"("verdict":"illegal")"));
  EXPECT_THAT(run.output, HasSubstr(R"("event":"2")"));
  EXPECT_THAT(run.output, HasSubstr(R"("rule":"not_your_turn")"));
  EXPECT_THAT(run.output, HasSubstr(R"("detail":")"));
}

TEST_F(ArbiterCliTest, MalformedInputExitsTwoWithTheLine) {
  std::vector<std::string> lines = Lines(Read(Simulated("atlantis", 2, 3)));
  lines[3] = "{\"player\": \"p2\", \"atlantis\": ";
  const std::string path = Path("broken.jsonl");
  Write(path, Join(lines));
  const CommandResult run = Arbiter("replay " + path);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr("line 4: not a valid Action"));
}

TEST_F(ArbiterCliTest, BinaryJunkExitsTwo) {
  const std::string path = Path("junk.bin");
  Write(path, std::string("\x7f" "ELF\x02\x01\x01\x00\xff\xfe", 10));
  const CommandResult run = Arbiter("replay " + path);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr("line 1:"));
}

TEST_F(ArbiterCliTest, AMissingFileExitsTwo) {
  const CommandResult run = Arbiter("replay /nonexistent/game.jsonl");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr("/nonexistent/game.jsonl"));
}

TEST_F(ArbiterCliTest, AWrongPlayerCountForSimulateExitsTwo) {
  const CommandResult run = Arbiter("simulate atlantis --players 9 --seed 1");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr("2-4 players"));
}

TEST_F(ArbiterCliTest, SimulateSeatsTheNamedPlayersInOrder) {
  const std::string path = Path("named.jsonl");
  const CommandResult run =
      Arbiter("simulate atlantis --player ann --player 'zoe=Zoë Müller' --seed 7 -o " + path);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::vector<std::string> lines = Lines(Read(path));
  EXPECT_THAT(lines[0], HasSubstr(R"("players":[{"id":"ann","name":"ann"},{"id":"zoe","name":"Zoë Müller"}])"));
  for (std::size_t i = 1; i < lines.size(); ++i) {
    EXPECT_THAT(lines[i], ::testing::AnyOf(HasSubstr(R"("player":"ann")"), HasSubstr(R"("player":"zoe")")))
        << "line " << i + 1;
  }
  const CommandResult replayed = Arbiter("replay " + path);
  EXPECT_EQ(replayed.exit_code, 0) << replayed.output;
  // The same seed without names plays the same game.
  const CommandResult unnamed = Arbiter("simulate atlantis --players 2 --seed 7");
  EXPECT_EQ(Lines(unnamed.output).size(), lines.size());

  const CommandResult both = Arbiter("simulate atlantis --players 3 --player ann --player bob --seed 7");
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_THAT(both.output, HasSubstr("--players 3 but 2 --player given: give one for each seat"));
  const CommandResult twice = Arbiter("simulate atlantis --player ann --player ann --seed 7");
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_THAT(twice.output, HasSubstr("--player: "));
  EXPECT_THAT(twice.output, HasSubstr("appears twice"));
  EXPECT_EQ(Arbiter("simulate atlantis --seed 7").exit_code, 2);
}

TEST_F(ArbiterCliTest, AnUnknownGameExitsTwo) {
  const CommandResult run = Arbiter("simulate chess --players 2 --seed 1");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr("unknown game 'chess'"));
}

TEST_F(ArbiterCliTest, BadUsageExitsTwo) {
  EXPECT_EQ(Arbiter("").exit_code, 2);
  EXPECT_EQ(Arbiter("replay").exit_code, 2);
  EXPECT_EQ(Arbiter("simulate atlantis --players three --seed 1").exit_code, 2);
  EXPECT_EQ(Arbiter("--help").exit_code, 0);
}

TEST_F(ArbiterCliTest, ShowPrintsThePositionAfterALine) {
  const std::string log = Simulated("atlantis", 2, 11);
  const CommandResult start = Arbiter("show " + log + " --at 1");
  EXPECT_EQ(start.exit_code, 0) << start.output;
  EXPECT_THAT(start.output, HasSubstr("position after line 1"));
  const CommandResult later = Arbiter("show " + log + " --at 5");
  EXPECT_EQ(later.exit_code, 0) << later.output;
  EXPECT_NE(start.output, later.output);
  EXPECT_EQ(Arbiter("show " + log + " --at 100000").exit_code, 2);
  EXPECT_EQ(Arbiter("show " + log + " --at 0").exit_code, 2);
}

// samples/illegal-atlantis.jsonl: p3 lays a bridge on line 4; p2 moves on
// line 6 while it is p1's turn (not_your_turn).
const std::string kIllegalSample = std::string(ARBITER_SAMPLES_DIR) + "/illegal-atlantis.jsonl";

TEST_F(ArbiterCliTest, ShowSaysTheLinesActionInWords) {
  const CommandResult bridge = Arbiter("show " + kIllegalSample + " --at 4");
  EXPECT_EQ(bridge.exit_code, 0) << bridge.output;
  EXPECT_THAT(bridge.output, HasSubstr("line 4: Player 3 (p3) lays the bridge at 15\nposition after line 4:\n"));
  const CommandResult first = Arbiter("show " + kIllegalSample + " --at 2");
  EXPECT_THAT(first.output, HasSubstr("line 2: Player 1 (p1) moves figure 1 from Atlantis to "));
  EXPECT_THAT(first.output, HasSubstr(" with HELMET\n"));
  // Line 1 is the header: no action, the starting position.
  EXPECT_THAT(Arbiter("show " + kIllegalSample + " --at 1").output, StartsWith("position after line 1:\n"));
}

TEST_F(ArbiterCliTest, ShowAndReplayQuoteTheBrokenRulesActionInWords) {
  const std::string words = "Player 2 (p2) moves figure 1 with STATUE, AMPHORA, paying the OLIVE 1 tile";
  const CommandResult shown = Arbiter("show " + kIllegalSample + " --at 9");
  EXPECT_EQ(shown.exit_code, 0) << shown.output;
  EXPECT_THAT(shown.output, HasSubstr("line 6: " + words + "\nline 6 (p2) breaks rule not_your_turn: "));
  EXPECT_THAT(shown.output, HasSubstr("position after line 5:\n"));
  const CommandResult replayed = Arbiter("replay " + kIllegalSample);
  EXPECT_EQ(replayed.exit_code, 4) << replayed.output;
  EXPECT_THAT(replayed.output, HasSubstr("breaks rule not_your_turn: "));
  EXPECT_THAT(replayed.output, HasSubstr("\n    the action: " + words + "\n"));
  const CommandResult json = Arbiter("replay --json " + kIllegalSample);
  EXPECT_THAT(json.output, HasSubstr(R"("actionText":")" + words + "\""));
}

TEST_F(ArbiterCliTest, RulesetsListsEveryGameWithItsHash) {
  const CommandResult run = Arbiter("rulesets");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_THAT(run.output, HasSubstr("atlantis\tatlantis-amigo-2009\t"));
}

// The bytes behind each hash are checked with hashlib in ruleset_hashes_test.
TEST_F(ArbiterCliTest, PrintingAnUnknownRulesetExitsTwoNamingTheKnownIds) {
  const CommandResult run = Arbiter("rulesets --print atlantis-2010");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr("no ruleset 'atlantis-2010' is registered; known ids: atlantis-amigo-2009, "
                                    "atlantica-piatnik-2018, atlantis-rising-elf-creek-2019"));
}

TEST_F(ArbiterCliTest, RulesetsWritesAFileOnlyWithPrint) {
  const std::string path = Path("ruleset.textproto");
  const CommandResult run = Arbiter("rulesets -o " + path);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr("use it with --print ID"));
}

TEST_F(ArbiterCliTest, OptionsListsEveryOptionWithItsMeaningAndDefault) {
  const CommandResult atlantis = Arbiter("options atlantis");
  EXPECT_EQ(atlantis.exit_code, 0) << atlantis.output;
  EXPECT_THAT(atlantis.output, HasSubstr("toll_payment: "));
  EXPECT_THAT(atlantis.output, HasSubstr("  tiles_and_cards (default): "));
  EXPECT_THAT(atlantis.output, HasSubstr("  tiles_or_cards: "));
  EXPECT_THAT(atlantis.output, HasSubstr("toll_overpay: "));
  EXPECT_THAT(atlantis.output, HasSubstr("  only_without_exact: "));
  EXPECT_THAT(atlantis.output, HasSubstr("bought_cards_pay_tolls: "));
  const CommandResult rising = Arbiter("options atlantis-rising");
  EXPECT_EQ(rising.exit_code, 0) << rising.output;
  EXPECT_THAT(rising.output, HasSubstr("  introductory (default): 9 Calm Seas, 3 Controlled Floods"));
  const CommandResult atlantica = Arbiter("options atlantica");
  EXPECT_EQ(atlantica.exit_code, 0) << atlantica.output;
  EXPECT_THAT(atlantica.output, HasSubstr("none."));
  EXPECT_EQ(Arbiter("options chess").exit_code, 2);
}

TEST_F(ArbiterCliTest, ACorruptRulesetFileExitsTwoNamingTheFile) {
  const std::string path = Path("ruleset.textproto");
  Write(path, "id: \"x\"\ngame: \"atlantis\"\natlantis { cards_per_item: \n");
  const CommandResult run = Arbiter("--ruleset " + path + " rulesets");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr(path));
  EXPECT_THAT(run.output, HasSubstr("line"));
}

}  // namespace
