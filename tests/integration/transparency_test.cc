// The transparency log end to end on a real PostgreSQL: TransparencyService
// and AdjudicateGame's proofs, roles and bad input, and the attacks of a
// hostile operator (as the database superuser, triggers disabled) that
// `arbiter audit` of an export and `arbiter checkpoint --watch` must catch:
// editing, deleting, reordering or inserting an event with the game's chain
// recomputed; truncating the store and replaying another history; a
// tampered bundle. A bundle is also audited with no server running.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <pqxx/pqxx>
#include <string>

#include "absl/strings/str_cat.h"
#include "arbiter/v1/transparency_service.grpc.pb.h"
#include "engine/core/seed_derivation.h"
#include "engine/merkle/merkle.h"
#include "services/games/game_writer.h"
#include "services/store/event_hash.h"
#include "services/transparency/bundle_audit.h"
#include "services/transparency/checkpoint.h"
#include "services/transparency/transparency_log.h"
#include "tests/integration/server_fixture.h"

namespace arbiter::server::testing {
namespace {

using ::testing::HasSubstr;

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

const engine::RulesetRegistry& Registry() {
  static const engine::RulesetRegistry* const registry =
      new engine::RulesetRegistry(*engine::RulesetRegistry::WithBuiltins());
  return *registry;
}

class TransparencyTest : public ServerTest {
 protected:
  void SetUp() override {
    ServerTest::SetUp();
    ASSERT_FALSE(HasFailure());
    log_ = std::make_unique<transparency::TransparencyLog>(
        events_->pool(), *transparency::NoteSigner::Generate("test.example/log"));
    transparency_ = log_.get();
    server_->Shutdown(std::chrono::system_clock::now());
    ServerOptions options;
    options.listen = "127.0.0.1:0";
    options.max_message_bytes = 2 << 20;
    server_ = StartServer(options);
    ASSERT_NE(server_, nullptr);
    stub_ = StubFor(*server_);
    channel_ = grpc::CreateChannel(absl::StrCat("127.0.0.1:", server_->port()),
                                   grpc::InsecureChannelCredentials());
    log_stub_ = v1::TransparencyService::NewStub(channel_);
    std::string pattern = ::testing::TempDir() + "/transparency_test.XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    admin_file_ = Write("admin.token", admin_ + "\n");
    public_key_file_ = Write("log.pub", log_->signer().VerifierKey() + "\n");
  }
  void TearDown() override {
    std::filesystem::remove_all(dir_);
    ServerTest::TearDown();
  }

  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::string Read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }

  // Runs `arbiter ARGS` (nothing added: no server unless ARGS names one).
  CliRun Arbiter(const std::string& args) {
    const std::string err_path = dir_ + "/stderr";
    const std::string command =
        absl::StrCat(ARBITER_BIN_DIR, "/arbiter ", args, " 2>", err_path);
    CliRun run;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) return run;
    std::array<char, 4096> buffer{};
    while (std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) run.out += buffer.data();
    const int status = pclose(pipe);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run.err = Read(err_path);
    return run;
  }
  std::string Server() const {
    return absl::StrCat(" --server 127.0.0.1:", server_->port(), " --token-file ", admin_file_);
  }

  // A finished, legal game submitted whole.
  void Finished(const std::string& game_id, uint64_t seed) {
    v1::SubmitGameResponse response;
    ASSERT_TRUE(Submit(admin_, log::FormatLog(Simulated(seed)), game_id, &response).ok());
    ASSERT_EQ(response.game().status(), v1::GAME_STATUS_FINISHED);
  }
  // An unfinished game with its first `actions` actions.
  void Active(const std::string& game_id, uint64_t seed, int actions) {
    log::GameLog log = Simulated(seed);
    log.actions.resize(actions);
    v1::SubmitGameResponse response;
    ASSERT_TRUE(Submit(admin_, log::FormatLog(log), game_id, &response).ok());
    ASSERT_EQ(response.game().status(), v1::GAME_STATUS_ACTIVE);
  }

  v1::Checkpoint Publish() {
    v1::Checkpoint checkpoint;
    grpc::Status status =
        log_stub_->PublishCheckpoint(As(admin_).get(), v1::PublishCheckpointRequest(), &checkpoint);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return checkpoint;
  }

  // `arbiter export GAME -o NAME`: the bundle's path.
  std::string Export(const std::string& game_id, const std::string& name) {
    const std::string path = dir_ + "/" + name;
    CliRun run = Arbiter(absl::StrCat("export ", game_id, " -o ", path, Server()));
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
    return path;
  }
  CliRun Audit(const std::string& bundle, const std::string& previous = "") {
    return Arbiter(absl::StrCat("audit ", bundle, " --public-key ", public_key_file_,
                                previous.empty() ? "" : " --previous " + previous));
  }

  std::unique_ptr<transparency::TransparencyLog> log_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::TransparencyService::Stub> log_stub_;
  std::string dir_;
  std::string admin_file_;
  std::string public_key_file_;
};

transparency::NoteVerifier VerifierOf(transparency::TransparencyLog& log) {
  return *transparency::NoteVerifier::Parse(log.signer().VerifierKey());
}

TEST_F(TransparencyTest, AdjudicationCarriesTheLastEventsInclusionProof) {
  Finished("g1", 11);
  v1::AdjudicateGameRequest request;
  request.set_name("games/g1");
  v1::Adjudication before;
  ASSERT_TRUE(stub_->AdjudicateGame(As(admin_).get(), request, &before).ok());
  EXPECT_FALSE(before.has_last_event_inclusion());
  EXPECT_EQ(before.transparency_note(), "no checkpoint has been signed yet");
  EXPECT_EQ(before.last_event_hash(), events_->GetGame("g1")->last_hash);

  Publish();
  v1::Adjudication after;
  ASSERT_TRUE(stub_->AdjudicateGame(As(admin_).get(), request, &after).ok());
  ASSERT_TRUE(after.has_last_event_inclusion()) << after.transparency_note();
  const v1::InclusionProof& proof = after.last_event_inclusion();
  EXPECT_EQ(proof.event(), absl::StrCat("games/g1/events/", after.last_event()));
  EXPECT_EQ(proof.event_hash(), after.last_event_hash());
  // The public key comes from the service; the proof checks against the
  // signed note alone.
  v1::PublicKey key;
  ASSERT_TRUE(log_stub_->GetPublicKey(As(admin_).get(), v1::GetPublicKeyRequest(), &key).ok());
  absl::StatusOr<transparency::Checkpoint> checkpoint = transparency::OpenCheckpoint(
      *transparency::NoteVerifier::Parse(key.verifier_key()), proof.checkpoint().note());
  ASSERT_TRUE(checkpoint.ok()) << checkpoint.status();
  std::vector<engine::merkle::Hash> hashes;
  for (const std::string& h : proof.hashes()) hashes.push_back(*engine::merkle::FromBytes(h));
  EXPECT_TRUE(engine::merkle::VerifyInclusion(
                  proof.leaf_index(), checkpoint->size,
                  *transparency::EventLeafHash(after.last_event_hash()), hashes, checkpoint->root)
                  .ok());

  // A later checkpoint: the (remembered) proof follows it.
  Finished("g2", 12);
  const v1::Checkpoint later = Publish();
  ASSERT_GT(later.tree_size(), proof.tree_size());
  v1::Adjudication again;
  ASSERT_TRUE(stub_->AdjudicateGame(As(admin_).get(), request, &again).ok());
  EXPECT_EQ(again.last_event_inclusion().tree_size(), later.tree_size());
  EXPECT_EQ(again.last_event_inclusion().checkpoint().note(), later.note());
  EXPECT_EQ(again.last_event_inclusion().leaf_index(), proof.leaf_index());
}

TEST_F(TransparencyTest, AnEventNotYetInACheckpointIsFailedPreconditionWithItsReason) {
  Finished("g1", 11);
  Publish();
  Finished("g2", 12);
  v1::GetInclusionProofRequest request;
  request.set_name("games/g2/events/3");
  v1::InclusionProof proof;
  grpc::Status status = log_stub_->GetInclusionProof(As(admin_).get(), request, &proof);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ErrorInfoOf(status).reason(), "NOT_YET_IN_CHECKPOINT");
  EXPECT_THAT(status.error_message(), HasSubstr("games/g2/events/3 is not in the checkpoint of"));
  Publish();
  EXPECT_TRUE(log_stub_->GetInclusionProof(As(admin_).get(), request, &proof).ok());
  EXPECT_EQ(proof.event_hash(), events_->ReadGameEvents("g2", 2, 1)->front().hash);
}

TEST_F(TransparencyTest, ProofsFollowTheGamesReadRules) {
  Finished("done", 11);
  Active("live", 12, 4);
  Publish();
  const std::string anyone = MakeToken(store::Role::kPublic, "anyone");
  const std::string organiser = MakeToken(store::Role::kOrganiser, "org");
  v1::Checkpoint checkpoint;
  EXPECT_TRUE(
      log_stub_->GetCheckpoint(As(anyone).get(), v1::GetCheckpointRequest(), &checkpoint).ok());
  v1::GetInclusionProofRequest request;
  v1::InclusionProof proof;
  request.set_name("games/done/events/2");
  EXPECT_TRUE(log_stub_->GetInclusionProof(As(anyone).get(), request, &proof).ok());
  request.set_name("games/live/events/2");
  EXPECT_EQ(log_stub_->GetInclusionProof(As(anyone).get(), request, &proof).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  request.set_name("games/nowhere/events/2");
  EXPECT_EQ(log_stub_->GetInclusionProof(As(anyone).get(), request, &proof).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(log_stub_->GetInclusionProof(As(admin_).get(), request, &proof).error_code(),
            grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(log_stub_->PublishCheckpoint(As(organiser).get(), v1::PublishCheckpointRequest(),
                                         &checkpoint)
                .error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(log_stub_->GetCheckpoint(As("").get(), v1::GetCheckpointRequest(), &checkpoint)
                .error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
}

TEST_F(TransparencyTest, BadRequestsNameTheField) {
  Finished("g1", 11);
  const v1::Checkpoint published = Publish();
  v1::InclusionProof proof;
  for (const char* name : {"games/g1", "games/g1/events/0", "games/g1/events/x",
                           "games/g1/events/+3", "g1/events/3", "games/a b/events/1"}) {
    v1::GetInclusionProofRequest request;
    request.set_name(name);
    grpc::Status status = log_stub_->GetInclusionProof(As(admin_).get(), request, &proof);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << name;
    ASSERT_EQ(BadRequestOf(status).field_violations_size(), 1) << name;
    EXPECT_EQ(BadRequestOf(status).field_violations(0).field(), "name") << name;
  }
  v1::GetInclusionProofRequest far;
  far.set_name("games/g1/events/99999");
  EXPECT_EQ(log_stub_->GetInclusionProof(As(admin_).get(), far, &proof).error_code(),
            grpc::StatusCode::NOT_FOUND);
  v1::GetConsistencyProofRequest request;
  v1::ConsistencyProof consistency;
  request.set_from_tree_size(5);
  request.set_to_tree_size(4);
  grpc::Status status = log_stub_->GetConsistencyProof(As(admin_).get(), request, &consistency);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(), "to_tree_size (4) must be at least from_tree_size (5)");
  request.set_to_tree_size(published.tree_size() + 1);
  status = log_stub_->GetConsistencyProof(As(admin_).get(), request, &consistency);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("the log has"));
  request.set_from_tree_size(-1);
  EXPECT_EQ(log_stub_->GetConsistencyProof(As(admin_).get(), request, &consistency).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  v1::GetCheckpointRequest at;
  at.set_tree_size(3);
  v1::Checkpoint checkpoint;
  status = log_stub_->GetCheckpoint(As(admin_).get(), at, &checkpoint);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(status.error_message(), "no checkpoint of tree size 3 was signed");
}

TEST_F(TransparencyTest, ABundleVerifiesOfflineWithNoServerRunning) {
  Finished("g1", 11);
  Finished("g2", 12);
  Publish();
  const std::string bundle = Export("g1", "g1.json");
  server_->Shutdown(std::chrono::system_clock::now());
  server_.reset();
  CliRun run = Audit(bundle);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("signature: holds"));
  EXPECT_THAT(run.out, HasSubstr("chain: holds"));
  EXPECT_THAT(run.out, HasSubstr("inclusion: holds - games/g1/events/"));
  EXPECT_THAT(run.out, HasSubstr("replay: holds - VERDICT_LEGAL"));
  EXPECT_THAT(run.out, HasSubstr("audit of games/g1: every check holds"));
  // Another log's key does not accept it.
  const std::string other =
      Write("other.pub", transparency::NoteSigner::Generate("test.example/log")->VerifierKey());
  run = Arbiter(absl::StrCat("audit ", bundle, " --public-key ", other));
  EXPECT_EQ(run.exit_code, 4) << run.out;
  EXPECT_THAT(run.err, HasSubstr("audit of games/g1 failed: signature: the note is not signed"));
}

// A sealed game (docs/chance.md) is exported and audited offline: the audit
// replays it with the seed derived from the revealed seed, the server's
// bytes in event 1 and the game id (with the organiser's seed alone the
// recorded legal result would not hold).
TEST_F(TransparencyTest, ASealedGameIsAuditedWithItsDerivedSeed) {
  const uint64_t seed = 77;
  const std::string nonce(32, 'b');
  v1::Game game;
  ASSERT_TRUE(Create(admin_, Simulated(seed), "sealed", &game,
                     engine::SealedSeedCommitment("sealed", seed, nonce))
                  .ok());
  const log::GameLog log =
      Simulated(engine::DeriveSealedSeed("sealed", seed, game.server_random()));
  v1::AppendActionsResponse appended;
  ASSERT_TRUE(Append(admin_, "sealed", 1, log.actions, "all", &appended).ok());
  v1::RevealSeedRequest reveal;
  reveal.set_game("games/sealed");
  reveal.set_request_id("reveal");
  reveal.set_seed(seed);
  reveal.set_nonce(nonce);
  v1::RevealSeedResponse revealed;
  ASSERT_TRUE(stub_->RevealSeed(As(admin_).get(), reveal, &revealed).ok());
  ASSERT_EQ(revealed.adjudication().verdict(), v1::VERDICT_LEGAL);
  Publish();
  const std::string bundle = Export("sealed", "sealed.json");
  server_->Shutdown(std::chrono::system_clock::now());
  server_.reset();
  CliRun run = Audit(bundle);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("replay: holds - VERDICT_LEGAL"));
}

// The report says what a game's official result is: the replay's verdict,
// then the correction or the void with its reason. (The audit used to
// compare a correction with the replay as if it were a second verdict, and
// said nothing of a void.) A voided game audits as holding; the correction
// here is written as a ruling writes it, but no ruling made it (this server
// keeps no disputes): the finding "rulings" refuses it. Honest corrections:
// ruling_audit_test.cc.
TEST_F(TransparencyTest, ACorrectedAndAVoidedGameAuditWithTheirOfficialResult) {
  Finished("corrected", 13);
  const v1::Game game = Get("corrected");
  v1::Standings standings;
  for (int i = 0; i < game.players_size(); ++i) {
    v1::PlayerStanding* seat = standings.add_players();
    seat->set_player(game.players(i).id());
    seat->set_seat(i + 1);
    seat->set_place(game.players_size() - i);  // the score sheet's order, reversed
    seat->set_score(10 * i);
  }
  // As a dispute's ruling records it (services/tournament/dispute_writer.cc).
  games::GameWriter writer(*events_, Registry(), games::WriteLimits{});
  access::Caller arbiter;
  arbiter.principal = "olga";
  arbiter.role = store::Role::kAdmin;
  const absl::StatusOr<int64_t> corrected = writer.RecordCorrection(
      arbiter, "corrected", standings, "dispute d1: the score sheet was misread", "dispute-d1");
  ASSERT_TRUE(corrected.ok()) << corrected.status();

  Finished("voided", 14);
  v1::VoidGameRequest void_request;
  void_request.set_name("games/voided");
  void_request.set_request_id("void-1");
  void_request.set_reason("a seat was played by someone else");
  v1::Game voided;
  ASSERT_TRUE(stub_->VoidGame(As(admin_).get(), void_request, &voided).ok());
  Publish();

  CliRun run = Audit(Export("corrected", "corrected.json"));
  EXPECT_EQ(run.exit_code, 4) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr(absl::StrCat(
                           "; the result was corrected at event ", *corrected,
                           " (dispute d1: the score sheet was misread)")));
  EXPECT_THAT(run.err, HasSubstr(absl::StrCat(
                           "audit of games/corrected failed: rulings: the correction at event ",
                           *corrected, " cites dispute d1, whose record this bundle does not "
                           "carry")));
  run = Audit(Export("voided", "voided.json"));
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("; the game was voided at event "));
  EXPECT_THAT(run.out, HasSubstr(": a seat was played by someone else"));

  // A correction with no result before it is no ruling on a result: the
  // bundle of an unfinished game with a correction appended is refused.
  Active("unfinished", 15, 6);
  ASSERT_TRUE(writer.RecordCorrection(arbiter, "unfinished", standings,
                                      "dispute d2: forged", "dispute-d2")
                  .ok());
  Publish();
  run = Audit(Export("unfinished", "unfinished.json"));
  EXPECT_EQ(run.exit_code, 4) << run.out << run.err;
  EXPECT_THAT(run.err, HasSubstr("records a corrected result, but no result of the game precedes it"));
}

// A dealt game's bundle is audited offline: the deal is re-derived from the
// secret its log reveals and the seats' values. A forged secret, with the
// bundle's chain recomputed, is named by the replay finding.
TEST_F(TransparencyTest, ADealtGameIsAuditedOfflineAndAForgedSecretIsNamed) {
  v1::CreateGameRequest create;
  create.set_request_id("create-dealt");
  create.set_game_id("dealt");
  v1::Game& game = *create.mutable_game();
  game.set_game_type("atlantis");
  *game.mutable_players() = Simulated(1, 2).header.players();
  game.set_deal(true);
  v1::Game created;
  ASSERT_TRUE(stub_->CreateGame(As(admin_).get(), create, &created).ok());
  v1::CloseDealRequest close;
  close.set_game("games/dealt");
  close.set_request_id("close-dealt");
  ASSERT_TRUE(stub_->CloseDeal(As(admin_).get(), close, &created).ok());
  ASSERT_TRUE(PlayToEndAsAdmin("dealt"));
  Publish();
  const std::string path = Export("dealt", "dealt.json");
  CliRun run = Audit(path);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("replay: holds - VERDICT_LEGAL after "));

  absl::StatusOr<v1::AuditBundle> bundle = transparency::BundleFromJson(Read(path));
  ASSERT_TRUE(bundle.ok()) << bundle.status();
  std::string prev = store::GenesisHash();
  bool forged = false;
  for (v1::AuditEvent& e : *bundle->mutable_events()) {
    if (e.type() == "dealer_revealed") {
      v1::DealerRevealed secret;
      secret.set_secret(std::string(32, '\x01'));
      e.set_payload(secret.SerializeAsString());
      forged = true;
    }
    e.set_prev_hash(prev);
    e.set_hash(store::EventHash(prev, e.sequence(), "dealt", e.event_id(), e.type(), e.payload()));
    prev = e.hash();
  }
  ASSERT_TRUE(forged);
  absl::StatusOr<transparency::AuditReport> report =
      transparency::AuditBundle(*bundle, VerifierOf(*log_), Registry());
  ASSERT_TRUE(report.ok()) << report.status();
  bool named = false;
  for (const transparency::AuditFinding& f : report->findings) {
    if (f.check != "replay") continue;
    EXPECT_FALSE(f.holds);
    EXPECT_THAT(f.detail, HasSubstr("reveals a dealer's secret that does not open the commitment "
                                    "of event 1"));
    named = true;
  }
  EXPECT_TRUE(named);
}

// Every field of a bundle matters: each change is caught by the check it
// concerns.
TEST_F(TransparencyTest, ATamperedBundleFailsTheAudit) {
  Finished("g1", 11);
  Publish();
  const std::string path = Export("g1", "g1.json");
  absl::StatusOr<v1::AuditBundle> good = transparency::BundleFromJson(Read(path));
  ASSERT_TRUE(good.ok()) << good.status();
  ASSERT_GT(good->events_size(), 8);
  const transparency::NoteVerifier verifier = VerifierOf(*log_);
  ASSERT_TRUE(transparency::AuditBundle(*good, verifier, Registry())->holds());

  struct Tamper {
    const char* what;
    std::function<void(v1::AuditBundle&)> change;
    const char* failing_check;
    const char* detail;
  };
  const int last = good->events_size() - 1;
  const std::vector<Tamper> tampers = {
      {"a payload byte", [](v1::AuditBundle& b) { (*b.mutable_events(3)->mutable_payload())[2] ^= 1; },
       "chain", "event 4 ("},
      {"an event hash", [](v1::AuditBundle& b) { b.mutable_events(3)->set_hash(std::string(64, 'a')); },
       "chain", "event 4 ("},
      {"a prev_hash", [](v1::AuditBundle& b) { b.mutable_events(2)->set_prev_hash(std::string(64, 'b')); },
       "chain", "event 3 ("},
      {"an event id", [](v1::AuditBundle& b) { b.mutable_events(5)->set_event_id("forged"); },
       "chain", "event 6 (\"forged\") does not match its hash"},
      {"a type", [](v1::AuditBundle& b) { b.mutable_events(5)->set_type("game_voided"); },
       "chain", "event 6 ("},
      {"a sequence", [](v1::AuditBundle& b) { b.mutable_events(5)->set_sequence(7); },
       "chain", "event 6 is missing"},
      {"the last event dropped", [](v1::AuditBundle& b) { b.mutable_events()->RemoveLast(); },
       "inclusion", "not of the last event"},
      {"the game's name", [](v1::AuditBundle& b) { b.set_game("games/g2"); }, "chain",
       "event 1 ("},
      {"a proof hash", [](v1::AuditBundle& b) { (*b.mutable_proof()->mutable_hashes(0))[0] ^= 1; },
       "inclusion", "leads to root"},
      {"the leaf index", [](v1::AuditBundle& b) { b.mutable_proof()->set_leaf_index(b.proof().leaf_index() + 1); },
       "inclusion", ""},
      {"the proof's event hash", [last](v1::AuditBundle& b) { b.mutable_proof()->set_event_hash(b.events(last - 1).hash()); },
       "inclusion", "not of the last event"},
      {"the proof's tree size", [](v1::AuditBundle& b) { b.mutable_proof()->set_tree_size(b.proof().tree_size() + 1); },
       "checkpoint", "differ from the signed note"},
      {"the checkpoint copy's root", [](v1::AuditBundle& b) { b.mutable_proof()->mutable_checkpoint()->set_root_hash(std::string(32, 'x')); },
       "checkpoint", "differ from the signed note"},
      {"the signed note", [](v1::AuditBundle& b) {
         std::string note = b.proof().checkpoint().note();
         note[note.find('\n') + 1] = note[note.find('\n') + 1] == '9' ? '8' : '9';
         b.mutable_proof()->mutable_checkpoint()->set_note(note);
       },
       "signature", "does not verify"},
  };
  for (const Tamper& t : tampers) {
    v1::AuditBundle bundle = *good;
    t.change(bundle);
    absl::StatusOr<transparency::AuditReport> report =
        transparency::AuditBundle(bundle, verifier, Registry());
    ASSERT_TRUE(report.ok()) << t.what << ": " << report.status();
    EXPECT_FALSE(report->holds()) << t.what;
    bool named = false;
    for (const transparency::AuditFinding& f : report->findings) {
      if (f.check == t.failing_check && !f.holds) {
        named = true;
        EXPECT_THAT(f.detail, HasSubstr(t.detail)) << t.what;
      }
    }
    EXPECT_TRUE(named) << t.what << ": " << t.failing_check << " should not hold";
  }
  v1::AuditBundle other_format = *good;
  other_format.set_format("something else");
  EXPECT_EQ(transparency::AuditBundle(other_format, verifier, Registry()).status().code(),
            absl::StatusCode::kInvalidArgument);

  // Through the command line: exit 4 naming the check; exit 2 for no bundle.
  std::string text = Read(path);
  const std::size_t at = text.find("\"payload\": \"") + 14;
  text[at] = text[at] == 'A' ? 'B' : 'A';
  CliRun run = Audit(Write("tampered.json", text));
  EXPECT_EQ(run.exit_code, 4) << run.out << run.err;
  EXPECT_THAT(run.err, HasSubstr("audit of games/g1 failed: chain: event 1 ("));
  run = Audit(Write("junk.json", "{\"format\": 3"));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.err, HasSubstr("not an audit bundle"));
}

// The operator edits, deletes, reorders or inserts events of a finished game
// and recomputes its chain; an export taken before and the checkpoint taken
// before expose it.
TEST_F(TransparencyTest, RewritingAGameWithItsChainRecomputedIsCaught) {
  struct Attack {
    const char* what;
    std::function<void(pqxx::work&, const std::string&)> run;
    bool last_event_still_in_log;  // only a dropped tail keeps it
    const char* history;
  };
  const std::vector<Attack> attacks = {
      {"edit",
       [](pqxx::work& txn, const std::string& g) {
         txn.exec_params0("UPDATE events SET payload = (SELECT payload FROM events WHERE "
                          "game_id = $1 AND sequence = 6) WHERE game_id = $1 AND sequence = 4",
                          g);
       },
       false, "event 4 differs from the export taken before"},
      {"reorder",
       [](pqxx::work& txn, const std::string& g) {
         txn.exec_params0("UPDATE events SET sequence = 1000000 WHERE game_id = $1 AND sequence = 4", g);
         txn.exec_params0("UPDATE events SET sequence = 4 WHERE game_id = $1 AND sequence = 5", g);
         txn.exec_params0("UPDATE events SET sequence = 5 WHERE game_id = $1 AND sequence = 1000000", g);
       },
       false, "event 4 differs from the export taken before"},
      {"delete",
       [](pqxx::work& txn, const std::string& g) {
         txn.exec_params0("DELETE FROM events WHERE game_id = $1 AND sequence = 3", g);
         for (const pqxx::row& row : txn.exec_params(
                  "SELECT sequence FROM events WHERE game_id = $1 AND sequence > 3 "
                  "ORDER BY sequence",
                  g)) {
           txn.exec_params0("UPDATE events SET sequence = sequence - 1 WHERE game_id = $1 AND "
                            "sequence = $2",
                            g, row[0].as<int64_t>());
         }
       },
       false, "event 3 differs from the export taken before"},
      {"insert",
       [](pqxx::work& txn, const std::string& g) {
         for (const pqxx::row& row : txn.exec_params(
                  "SELECT sequence FROM events WHERE game_id = $1 AND sequence > 3 "
                  "ORDER BY sequence DESC",
                  g)) {
           txn.exec_params0("UPDATE events SET sequence = sequence + 1 WHERE game_id = $1 AND "
                            "sequence = $2",
                            g, row[0].as<int64_t>());
         }
         txn.exec_params0(
             "INSERT INTO events (game_id, sequence, event_id, type, payload, hash) "
             "SELECT game_id, 4, event_id || '-again', type, payload, hash FROM events "
             "WHERE game_id = $1 AND sequence = 3",
             g);
       },
       false, "event 4 differs from the export taken before"},
      {"drop the tail",
       [](pqxx::work& txn, const std::string& g) {
         txn.exec_params0("DELETE FROM events WHERE game_id = $1 AND sequence = "
                          "(SELECT max(sequence) FROM events WHERE game_id = $1)",
                          g);
       },
       true, "is missing: the export taken before had"},
  };
  uint64_t seed = 100;
  for (const Attack& attack : attacks) {
    SCOPED_TRACE(attack.what);
    const std::string game = absl::StrCat("g-", seed);
    Finished(game, seed++);
    Finished(game + "-next", seed++);  // the game is not the store's last
    const v1::Checkpoint before = Publish();
    const std::string earlier = Export(game, game + "-before.json");
    ASSERT_EQ(Audit(earlier).exit_code, 0);

    AsSuperuser([&](pqxx::work& txn) {
      attack.run(txn, game);
      RecomputeChain(txn, game);
    });
    // The store's own check sees an intact chain: the attack is covered.
    ASSERT_TRUE(events_->VerifyGame(game).ok()) << events_->VerifyGame(game).status();

    const std::string later = Export(game, game + "-after.json");
    CliRun run = Audit(later, earlier);
    EXPECT_EQ(run.exit_code, 4) << run.out << run.err;
    EXPECT_THAT(run.out, HasSubstr(attack.history)) << run.out;
    EXPECT_THAT(run.out, HasSubstr(attack.last_event_still_in_log ? "inclusion: holds"
                                                                  : "inclusion: DOES NOT HOLD"))
        << run.out;

    // Inclusion against the checkpoint taken before: the rewritten event's
    // hash is not the leaf the signed tree holds.
    if (!attack.last_event_still_in_log) {
      absl::StatusOr<v1::AuditBundle> after = transparency::BundleFromJson(Read(later));
      ASSERT_TRUE(after.ok());
      const int64_t n = after->events_size();
      v1::GetInclusionProofRequest request;
      request.set_name(absl::StrCat("games/", game, "/events/", n));
      request.set_tree_size(before.tree_size());
      v1::InclusionProof proof;
      grpc::Status status = log_stub_->GetInclusionProof(As(admin_).get(), request, &proof);
      if (status.ok()) {
        absl::StatusOr<transparency::Checkpoint> signed_before =
            transparency::OpenCheckpoint(VerifierOf(*log_), before.note());
        std::vector<engine::merkle::Hash> hashes;
        for (const std::string& h : proof.hashes()) hashes.push_back(*engine::merkle::FromBytes(h));
        EXPECT_FALSE(engine::merkle::VerifyInclusion(
                         proof.leaf_index(), signed_before->size,
                         *transparency::EventLeafHash(proof.event_hash()), hashes,
                         signed_before->root)
                         .ok());
      } else {
        // An inserted event has no leaf at all.
        EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << status.error_message();
      }
    }
  }
}

// The operator wipes the store (log included) and replays another history;
// the signing key is still on disk, so the new checkpoints are validly
// signed, yet `checkpoint --watch` refuses them.
TEST_F(TransparencyTest, TruncatingTheStoreAndReplayingAnotherHistoryIsRefused) {
  const std::string state = dir_ + "/checkpoint.state";
  const std::string watch =
      absl::StrCat("checkpoint --watch ", state, " --public-key ", public_key_file_, Server());
  Finished("g1", 11);
  Publish();
  CliRun run = Arbiter(watch);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("verified; kept in"));
  Finished("g2", 12);
  Publish();
  run = Arbiter(watch);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("as an extension of"));
  const std::string kept = Read(state);

  auto wipe = [&] {
    AsSuperuser([](pqxx::work& txn) {
      for (const char* table :
           {"events", "append_requests", "game_results", "games", "transparency_segments",
            "transparency_tiles", "transparency_checkpoints", "transparency_stream_heads"}) {
        txn.exec0(absl::StrCat("DELETE FROM ", table));
      }
      txn.exec0("UPDATE store_head SET last_position = 0");
      txn.exec0("UPDATE transparency_head SET tree_size = 0, events_position = 0");
    });
  };
  // A longer, different history.
  wipe();
  Finished("h1", 21);
  Finished("h2", 22);
  Finished("h3", 23);
  const v1::Checkpoint longer = Publish();
  run = Arbiter(watch);
  EXPECT_EQ(run.exit_code, 4) << run.out << run.err;
  EXPECT_THAT(run.err, HasSubstr("is not a consistent extension of the one of"));
  EXPECT_THAT(run.err, HasSubstr("the log's history was rewritten"));
  EXPECT_EQ(Read(state), kept);  // the verified checkpoint is kept

  // A shorter one.
  wipe();
  Finished("k1", 31);
  Publish();
  run = Arbiter(watch);
  EXPECT_EQ(run.exit_code, 4) << run.out << run.err;
  EXPECT_THAT(run.err, HasSubstr("refused: the log shrank from"));
  EXPECT_EQ(Read(state), kept);
  (void)longer;
}

TEST_F(TransparencyTest, CheckpointWatchRefusesANoteNotSignedByTheKey) {
  Finished("g1", 11);
  Publish();
  const std::string other =
      Write("other.pub", transparency::NoteSigner::Generate("test.example/log")->VerifierKey());
  CliRun run = Arbiter(absl::StrCat("checkpoint --watch ", dir_, "/s --public-key ", other, Server()));
  EXPECT_EQ(run.exit_code, 4);
  EXPECT_THAT(run.err, HasSubstr("refused the server's checkpoint: the note is not signed by key"));
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/s"));
}

}  // namespace
}  // namespace arbiter::server::testing
