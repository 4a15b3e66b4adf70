// What the tests of the tournament and dispute writers share: the domain of
// one server (GameWriter, TournamentWriter, DisputeWriter) on the in-memory
// stores or on a private PostgreSQL, a stream store that loses one write on
// demand, and the steps of a tournament (create, start, play, confirm,
// dispute, rule) driven without gRPC.
#ifndef ARBITER_TESTS_SERVICES_TOURNAMENT_WRITERS_FIXTURE_H_
#define ARBITER_TESTS_SERVICES_TOURNAMENT_WRITERS_FIXTURE_H_

#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "services/access/caller.h"
#include "services/games/game_writer.h"
#include "services/store/event_store.h"
#include "services/store/result_index.h"
#include "services/store/stream_store.h"
#include "services/tournament/dispute_writer.h"
#include "services/tournament/score_sheet.h"
#include "services/tournament/tournament_editor.h"
#include "services/tournament/tournament_writer.h"

namespace arbiter::tournament::testing {

// A StreamStore that passes every call on to another one, except one chosen
// Append, which fails once with UNAVAILABLE: before it is passed on (nothing
// is written: a crash before the write) or after (the event is stored and
// its answer lost: a crash or a dropped connection after the write).
class FlakyStreamStore final : public store::StreamStore {
 public:
  enum class Loss { kBeforeWrite, kAfterWrite };

  explicit FlakyStreamStore(store::StreamStore& inner) : inner_(inner) {}

  // The next Append to a stream whose id starts with `prefix` ("disputes/")
  // after `skip` such appends fails once, as `loss` says.
  void FailNextAppend(const std::string& prefix, Loss loss, int skip = 0);
  // Whether the planned failure has happened.
  bool Failed();

  absl::StatusOr<store::StreamEvent> Append(const store::StreamAppendRequest& request) override;
  absl::StatusOr<store::StreamRecord> GetStream(const std::string& stream_id) override {
    return inner_.GetStream(stream_id);
  }
  absl::StatusOr<std::vector<store::StreamRecord>> ListStreams(const std::string& kind,
                                                               const std::string& after_id,
                                                               int limit) override {
    return inner_.ListStreams(kind, after_id, limit);
  }
  absl::StatusOr<std::vector<store::StreamEvent>> ReadStream(const std::string& stream_id,
                                                             int64_t after_sequence,
                                                             int limit) override {
    return inner_.ReadStream(stream_id, after_sequence, limit);
  }

 private:
  store::StreamStore& inner_;
  absl::Mutex mu_;
  std::string prefix_ ABSL_GUARDED_BY(mu_);
  Loss loss_ ABSL_GUARDED_BY(mu_) = Loss::kBeforeWrite;
  int skip_ ABSL_GUARDED_BY(mu_) = 0;
  bool armed_ ABSL_GUARDED_BY(mu_) = false;
  bool failed_ ABSL_GUARDED_BY(mu_) = false;
};

enum class Backend { kMemory, kPostgres };
// "Memory" or "Postgres", in test names and in messages.
std::string BackendName(const ::testing::TestParamInfo<Backend>& info);
void PrintTo(Backend backend, std::ostream* os);

access::Caller Admin();
// An organiser of the tournaments named.
access::Caller Organiser(const std::string& principal, std::vector<std::string> tournaments);
// A public token of `player`.
access::Caller Player(const std::string& player);

// "p1" ... "p{n}".
std::vector<std::string> Names(int n);

// Settings of an Atlantis tournament: `rounds` rounds at tables of 3 or 4
// (4 preferred), places scoring 4-2-1-0, four tie-breaks.
v1::TournamentSettings Settings(int rounds);

// The domain of one server on fresh stores of `backend`, with the steps of
// a tournament. The steps expect success (a failed step fails the test).
class Arena {
 public:
  explicit Arena(Backend backend);

  store::EventStore& events() { return *events_; }
  FlakyStreamStore& streams() { return *flaky_; }
  store::ResultIndex& results() { return *results_; }
  games::GameWriter& games() { return *games_; }
  TournamentWriter& tournaments() { return *tournaments_; }
  TournamentEditor& editor() { return *editor_; }
  ScoreSheetWriter& score_sheets() { return *score_sheets_; }
  DisputeWriter& disputes() { return *disputes_; }

  v1::Tournament Create(const std::string& id, const v1::TournamentSettings& settings,
                        const std::vector<std::string>& players, const access::Caller& caller);
  v1::TournamentRound Start(const std::string& id, int round, const access::Caller& caller);
  // Plays the table's game to the end: a legal simulated game on its seed,
  // its seats taken by the table's players.
  void Play(const v1::TournamentTable& table);
  v1::TournamentRound Confirm(const std::string& id, int round, int table,
                              const access::Caller& caller);
  // Starts `round`, plays and confirms every table.
  v1::TournamentRound PlayRound(const std::string& id, int round, const access::Caller& caller);
  v1::Dispute Open(const std::string& dispute, const std::string& id, int round, int table,
                   const access::Caller& caller);

  v1::TournamentStandings Standings(const std::string& id);
  v1::TournamentRound Round(const std::string& id, int round);
  // Every event of a stream ("tournaments/cup") and of a game.
  std::vector<store::StreamEvent> StreamEvents(const std::string& stream_id);
  std::vector<store::StoredEvent> GameEvents(const std::string& game_id);

 private:
  // Destroyed in reverse order: the writers before the stores they use,
  // the event store (PostgreSQL: the pool) last.
  std::unique_ptr<store::EventStore> events_;
  store::ResultIndex* results_ = nullptr;  // events_, which is its own index
  std::unique_ptr<store::StreamStore> streams_;
  std::unique_ptr<FlakyStreamStore> flaky_;
  std::unique_ptr<games::GameWriter> games_;
  std::unique_ptr<TournamentWriter> tournaments_;
  std::unique_ptr<TournamentEditor> editor_;
  std::unique_ptr<ScoreSheetWriter> score_sheets_;
  std::unique_ptr<DisputeWriter> disputes_;
};

// A RuleDispute request: `kind` with a fixed reason, the corrected result
// given, request id "rule-{dispute}".
v1::RuleDisputeRequest RuleRequest(const std::string& dispute, v1::RulingKind kind,
                                   std::vector<int> places = {},
                                   std::vector<int64_t> game_points = {});

}  // namespace arbiter::tournament::testing

#endif  // ARBITER_TESTS_SERVICES_TOURNAMENT_WRITERS_FIXTURE_H_
