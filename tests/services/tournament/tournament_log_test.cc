// A tournament's stream folded: settings as published, rounds with their
// derived game names, single and batch confirmations, rulings, and events
// that cannot be folded.
#include "services/common/resource_names.h"
#include "services/tournament/tournament_log.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace arbiter::tournament {
namespace {

v1::TournamentSettings Settings() {
  v1::TournamentSettings s;
  s.set_game_type("atlantis");
  s.set_seed(3);
  s.set_rounds(2);
  s.add_table_sizes(4);
  s.set_preferred_table_size(4);
  s.add_place_points(4);
  s.add_tie_breaks("wins");
  return s;
}

class Stream {
 public:
  Stream& Add(const char* type, const google::protobuf::Message& body) {
    store::StreamEvent& e = events_.emplace_back();
    e.stream_id = "tournaments/cup";
    e.sequence = static_cast<int64_t>(events_.size());
    e.type = type;
    body.SerializeToString(&e.payload);
    e.recorded_at = absl::FromUnixSeconds(1000 + e.sequence);
    return *this;
  }
  absl::StatusOr<TournamentLog> Fold() const {
    store::StreamRecord record;
    record.stream_id = "tournaments/cup";
    record.kind = kTournamentKind;
    record.last_sequence = static_cast<int64_t>(events_.size());
    return FoldTournament("cup", record, events_);
  }

 private:
  std::vector<store::StreamEvent> events_;
};

Stream Started() {
  v1::TournamentCreated created;
  *created.mutable_settings() = Settings();
  for (const char* p : {"a", "b", "c", "d", "e", "f", "g", "h"}) created.add_players(p);
  v1::RoundStarted round;
  round.set_round(1);
  for (int t = 1; t <= 2; ++t) {
    v1::TournamentTable* table = round.add_tables();
    table->set_number(t);
    table->set_seed(static_cast<uint64_t>(t));
  }
  Stream stream;
  stream.Add(kTypeTournamentCreated, created).Add(kTypeRoundStarted, round);
  return stream;
}

v1::ResultConfirmed Confirmed(int round, int table) {
  v1::ResultConfirmed c;
  c.set_round(round);
  c.set_table(table);
  return c;
}

TEST(TournamentLog, FoldsRoundsWithDerivedGameNamesAndConfirmations) {
  Stream stream = Started();
  v1::ResultsConfirmed batch;
  *batch.add_results() = Confirmed(1, 2);
  stream.Add(kTypeResultConfirmed, Confirmed(1, 1)).Add(kTypeResultsConfirmed, batch);
  absl::StatusOr<TournamentLog> log = stream.Fold();
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_EQ(log->players.size(), 8u);
  ASSERT_EQ(log->rounds.size(), 1u);
  EXPECT_EQ(log->rounds[0].tables[1].table.game(), "games/cup-r1-t2");
  EXPECT_TRUE(log->rounds[0].tables[0].confirmed.has_value());
  EXPECT_EQ(log->rounds[0].tables[0].confirmed_at, absl::FromUnixSeconds(1003));
  EXPECT_TRUE(log->rounds[0].tables[1].confirmed.has_value());
  EXPECT_EQ(log->model.tie_breaks.size(), 1u);
}

TEST(TournamentLog, AnEventNamingATableThatDoesNotExistIsDataLoss) {
  Stream stream = Started();
  stream.Add(kTypeResultConfirmed, Confirmed(1, 3));
  EXPECT_EQ(stream.Fold().status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(stream.Fold().status().message(), "tournament \"cup\" event 3: no such table");
  Stream later = Started();
  v1::RulingRecorded ruling;
  ruling.set_round(2);
  ruling.set_table(1);
  later.Add(kTypeRulingRecorded, ruling);
  EXPECT_EQ(later.Fold().status().message(), "tournament \"cup\" event 3: no such round");
}

TEST(TournamentLog, AnUnknownEventTypeIsDataLoss) {
  Stream stream = Started();
  stream.Add("round_restarted", v1::RoundStarted());
  EXPECT_EQ(stream.Fold().status().message(),
            "tournament \"cup\" event 3: unknown type \"round_restarted\"");
}

// A round of 3 tables recorded as round_started (table 1) + round_tables.
Stream InParts(bool finished) {
  v1::TournamentCreated created;
  *created.mutable_settings() = Settings();
  for (const char* p : {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}) {
    created.add_players(p);
  }
  v1::RoundStarted first;
  first.set_round(1);
  first.set_table_count(3);
  first.add_tables()->set_number(1);
  v1::RoundStarted second;
  second.set_round(1);
  second.add_tables()->set_number(2);
  Stream stream;
  stream.Add(kTypeTournamentCreated, created).Add(kTypeRoundStarted, first);
  stream.Add(kTypeRoundTables, second);
  if (finished) {
    v1::RoundStarted third;
    third.set_round(1);
    third.add_tables()->set_number(3);
    stream.Add(kTypeRoundTables, third);
  }
  return stream;
}

TEST(TournamentLog, ARoundRecordedInPartsStartsWithItsLastTable) {
  absl::StatusOr<TournamentLog> log = InParts(false).Fold();
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_TRUE(log->rounds.empty());
  ASSERT_TRUE(log->starting.has_value());
  EXPECT_EQ(log->starting->tables.size(), 2u);
  EXPECT_EQ(log->starting->table_count, 3);
  log = InParts(true).Fold();
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_FALSE(log->starting.has_value());
  ASSERT_EQ(log->rounds.size(), 1u);
  ASSERT_EQ(log->rounds[0].tables.size(), 3u);
  EXPECT_EQ(log->rounds[0].tables[2].table.game(), "games/cup-r1-t3");
  // Tables that skip a number, go beyond the count, or belong to no round
  // being started are DataLoss.
  Stream skipped = InParts(false);
  v1::RoundStarted wrong;
  wrong.set_round(1);
  wrong.add_tables()->set_number(5);
  skipped.Add(kTypeRoundTables, wrong);
  EXPECT_EQ(skipped.Fold().status().message(), "tournament \"cup\" event 4: table 5 out of order");
  Stream beyond = InParts(true);
  wrong.mutable_tables(0)->set_number(4);
  beyond.Add(kTypeRoundTables, wrong);
  EXPECT_EQ(beyond.Fold().status().message(),
            "tournament \"cup\" event 5: tables of a round that is not being started");
  Stream next = InParts(false);
  v1::RoundStarted round2;
  round2.set_round(2);
  next.Add(kTypeRoundStarted, round2);
  EXPECT_EQ(next.Fold().status().message(),
            "tournament \"cup\" event 4: a round started before the last one's tables were all "
            "recorded");
}

TEST(TournamentLog, ARoundFinishedByAnotherRequestRemembersIt) {
  // Table 3 written by a StartRound that finished the round another began.
  Stream stream = InParts(false);
  v1::RoundStarted third;
  third.set_round(1);
  third.add_tables()->set_number(3);
  third.set_finished_by("tournament-round-second");
  stream.Add(kTypeRoundTables, third);
  absl::StatusOr<TournamentLog> log = stream.Fold();
  ASSERT_TRUE(log.ok()) << log.status();
  ASSERT_EQ(log->rounds.size(), 1u);
  EXPECT_EQ(log->rounds[0].finished_by, std::vector<std::string>{"tournament-round-second"});
  // A round recorded by one request names no other.
  log = InParts(true).Fold();
  ASSERT_TRUE(log.ok()) << log.status();
  EXPECT_TRUE(log->rounds[0].finished_by.empty());
}

TEST(TournamentNames, StreamRequestIdsAreBoundedAndDistinct) {
  const std::string id = StreamRequestId("tournament-round", "tournaments/cup", "olga",
                                         std::string(200, 'x'));
  EXPECT_EQ(id.size(), std::string("tournament-round-").size() + 64);
  EXPECT_NE(id, StreamRequestId("tournament-round", "tournaments/cap", "olga",
                                std::string(200, 'x')));
  // The lengths are part of the hashed text: moving a character from the
  // principal to the request id names another request.
  EXPECT_NE(StreamRequestId("k", "s", "ab", "c"), StreamRequestId("k", "s", "a", "bc"));
}

TEST(TournamentSettingsFromTheApi, UnknownCriteriaAndDefaults) {
  v1::TournamentSettings s = Settings();
  s.add_tie_breaks("rating");
  EXPECT_EQ(ModelSettings(s).status().message(),
            "tie_breaks: unknown criterion \"rating\"; known: game_points, wins, "
            "strength_of_schedule, head_to_head");
  s = Settings();
  s.set_scoring(v1::TOURNAMENT_SCORING_TABLE_SHARE);
  absl::StatusOr<engine::tournament::TournamentSettings> model = ModelSettings(s);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(model->share_points, 100);
  EXPECT_EQ(model->leftover, engine::tournament::Leftover::kMixedSizes);
}

TEST(TournamentNames, ParseAndDerive) {
  EXPECT_EQ(*common::ParseName(common::IdKind::kTournament, "tournaments/cup", "name"), "cup");
  EXPECT_EQ(common::ParseName(common::IdKind::kTournament, "leagues/cup", "name").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(common::IsValidId(common::IdKind::kTournament, std::string(41, 'a')));
  EXPECT_EQ(TableGameId("cup", 3, 12), "cup-r3-t12");
  EXPECT_EQ(*common::ParseName(common::IdKind::kDispute, "disputes/d1", "name"), "d1");
}

}  // namespace
}  // namespace arbiter::tournament
