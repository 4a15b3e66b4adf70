// Unit tests of the server's small pieces: the commitment, names, event
// encoding, error details and permissions.
#include <gtest/gtest.h>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "services/access/token_format.h"
#include "services/common/resource_names.h"
#include "services/access/authenticator.h"
#include "services/access/permissions.h"
#include "services/common/status_details.h"
#include "services/store/memory_token_store.h"
#include "services/server/log_text.h"
#include "services/server/server.h"
#include "absl/time/clock.h"
#include "services/store/memory_event_store.h"
#include "services/games/game_events.h"
#include "services/server/status_mapping.h"

namespace arbiter::server {
namespace {

TEST(SeedCommitment, MatchesTheDocumentedBytes) {
  // From Python: hashlib.sha256(b"arbiter-seed-v1:42:0011...eeff").hexdigest()
  absl::StatusOr<std::string> commitment = games::SeedCommitment(42, "00112233445566778899aabbccddeeff");
  ASSERT_TRUE(commitment.ok());
  EXPECT_EQ(*commitment, "293317b8d39ead6776b79574c806c5927fac4c7a5083e6be413830a1da011b7c");
}

TEST(SeedCommitment, RefusesAShortOrUppercaseNonce) {
  EXPECT_EQ(games::SeedCommitment(42, "0011").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(games::SeedCommitment(42, "00112233445566778899AABBCCDDEEFF").status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(GameNames, ParseOnlyWellFormedNames) {
  EXPECT_EQ(*common::ParseName(common::IdKind::kGame, "games/final-1", "name"), "final-1");
  EXPECT_FALSE(common::ParseName(common::IdKind::kGame, "games/", "name").ok());
  EXPECT_FALSE(common::ParseName(common::IdKind::kGame, "games/a/b", "name").ok());
  EXPECT_FALSE(common::ParseName(common::IdKind::kGame, "leagues/x", "name").ok());
  EXPECT_FALSE(common::ParseName(common::IdKind::kGame, std::string("games/") + std::string(64, 'a'), "name").ok());
}

TEST(EventCodec, EncodesDeterministicallyAndDecodesBack) {
  v1::Action action;
  action.set_player("p1");
  action.mutable_atlantis();
  absl::StatusOr<store::NewEvent> first = games::EncodeAction("g", 2, action);
  absl::StatusOr<store::NewEvent> again = games::EncodeAction("g", 2, action);
  ASSERT_TRUE(first.ok() && again.ok());
  EXPECT_EQ(first->payload, again->payload);
  EXPECT_EQ(first->event_id, again->event_id);
  EXPECT_NE(first->event_id, games::EncodeAction("g", 3, action)->event_id);
  store::StoredEvent stored;
  stored.game_id = "g";
  stored.sequence = 2;
  stored.type = first->type;
  stored.payload = first->payload;
  absl::StatusOr<v1::Event> decoded = games::DecodeEvent(stored);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->name(), "games/g/events/2");
  EXPECT_EQ(decoded->action().player(), "p1");
  stored.type = "mystery";
  EXPECT_EQ(games::DecodeEvent(stored).status().code(), absl::StatusCode::kDataLoss);
}

TEST(StatusMapping, AlwaysCarriesErrorInfoAndBadRequestWhenGiven) {
  grpc::Status plain = ToGrpcStatus(absl::NotFoundError("game \"x\" does not exist"));
  EXPECT_EQ(plain.error_code(), grpc::StatusCode::NOT_FOUND);
  google::rpc::Status details;
  ASSERT_TRUE(details.ParseFromString(plain.error_details()));
  google::rpc::ErrorInfo info;
  ASSERT_EQ(details.details_size(), 1);
  ASSERT_TRUE(details.details(0).UnpackTo(&info));
  EXPECT_EQ(info.reason(), "NOT_FOUND");
  EXPECT_EQ(info.domain(), "arbiter.v1");

  absl::Status rich = common::WithErrorInfo(common::FieldError("actions[0]", "bad"), "ILLEGAL_ACTION",
                                    {{"rule", "not_your_turn"}});
  grpc::Status mapped = ToGrpcStatus(rich);
  ASSERT_TRUE(details.ParseFromString(mapped.error_details()));
  ASSERT_EQ(details.details_size(), 2);
  ASSERT_TRUE(details.details(0).UnpackTo(&info));
  EXPECT_EQ(info.metadata().at("rule"), "not_your_turn");
  google::rpc::BadRequest bad;
  ASSERT_TRUE(details.details(1).UnpackTo(&bad));
  EXPECT_EQ(bad.field_violations(0).field(), "actions[0]");
  EXPECT_TRUE(ToGrpcStatus(absl::OkStatus()).ok());
}

TEST(Permissions, FollowTheRoles) {
  store::GameRecord game;
  game.game_id = "g";
  game.created_by = "alice";
  game.league_id = "north";
  game.status = store::GameStatus::kActive;
  const access::Caller alice{"alice", store::Role::kOrganiser, {}, {}, "1", {}};
  const access::Caller bob{"bob", store::Role::kOrganiser, {}, {}, "2", {}};
  const access::Caller north{"carol", store::Role::kOrganiser, {"north"}, {}, "3", {}};
  const access::Caller auditor{"dan", store::Role::kAuditor, {}, {}, "4", {}};
  const access::Caller reader{"site", store::Role::kPublic, {}, {}, "5", {}};
  EXPECT_TRUE(access::RequireWrite(alice, game, "1").ok());
  EXPECT_EQ(access::RequireWrite(bob, game, "1").code(), absl::StatusCode::kPermissionDenied);
  EXPECT_TRUE(access::RequireWrite(north, game, "1").ok());
  EXPECT_EQ(access::RequireWrite(auditor, game, "1").code(), absl::StatusCode::kPermissionDenied);
  EXPECT_TRUE(access::RequireReadState(auditor, game).ok());
  EXPECT_EQ(access::RequireReadState(bob, game).code(), absl::StatusCode::kPermissionDenied);
  // Positions are derived from the seed: the organiser who may write sees
  // them only once the game is finished, like the seed.
  EXPECT_EQ(access::RequireReadState(alice, game).code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(access::RequireReadState(north, game).code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(access::RequireRead(reader, game).code(), absl::StatusCode::kPermissionDenied);
  EXPECT_FALSE(access::SeesSeed(bob, game));
  game.status = store::GameStatus::kFinished;
  EXPECT_TRUE(access::RequireRead(reader, game).ok());
  EXPECT_TRUE(access::SeesSeed(reader, game));
  EXPECT_EQ(access::RequireCreate(north, "south", "").code(), absl::StatusCode::kPermissionDenied);
  EXPECT_TRUE(access::RequireCreate(north, "north", "").ok());
}

// A league's organiser creates the games of its league's tournaments (the
// tournament's league as its creation event states it), and of no other.
TEST(Permissions, ALeaguesOrganiserCreatesTheGamesOfItsLeaguesTournaments) {
  const access::Caller north{"nora", store::Role::kOrganiser, {"north"}, {}, "t1", {}};
  EXPECT_TRUE(access::RequireCreate(north, "north", "cup", "north").ok());
  EXPECT_EQ(access::RequireCreate(north, "north", "cup", "south").message(),
            "this organiser token may not create games in tournament \"cup\"");
  EXPECT_EQ(access::RequireCreate(north, "north", "cup", "").code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(access::RequireCreate(north, "", "cup", "").code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(access::RequireCreate(north, "south", "cup", "south").message(),
            "this organiser token may not create games in league \"south\"");
  // A token naming the tournament: as before, its league too if the game names one.
  const access::Caller cup{"tess", store::Role::kOrganiser, {}, {"cup"}, "t2", {}};
  EXPECT_TRUE(access::RequireCreate(cup, "", "cup", "").ok());
  EXPECT_EQ(access::RequireCreate(cup, "north", "cup", "north").code(),
            absl::StatusCode::kPermissionDenied);
}

TEST(Permissions, WriteRightsFollowTheTokenNotItsPrincipal) {
  store::GameRecord game;
  game.game_id = "g";
  game.created_by = "admin";
  game.status = store::GameStatus::kActive;
  const access::Caller impostor{"admin", store::Role::kOrganiser, {}, {}, "other-token", {}};
  const access::Caller creator{"someone", store::Role::kOrganiser, {}, {}, "creator-token", {}};
  EXPECT_EQ(access::RequireWrite(impostor, game, "creator-token").code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_TRUE(access::RequireWrite(creator, game, "creator-token").ok());
  // A game without a recorded creator token: scope only.
  EXPECT_EQ(access::RequireWrite(impostor, game, "").code(), absl::StatusCode::kPermissionDenied);
}

TEST(Permissions, DenialsNameNoPerson) {
  store::GameRecord game;
  game.game_id = "g";
  game.created_by = "alice-the-creator";
  game.status = store::GameStatus::kActive;
  const access::Caller bob{"bob-the-caller", store::Role::kOrganiser, {}, {}, "2", {}};
  const access::Caller site{"site-of-the-league", store::Role::kPublic, {}, {}, "5", {}};
  for (const absl::Status& denied :
       {access::RequireWrite(bob, game, "1"), access::RequireReadState(bob, game), access::RequireRead(site, game),
        access::RequireAdmin(bob), access::RequireCreate(bob, "north", "")}) {
    EXPECT_EQ(denied.code(), absl::StatusCode::kPermissionDenied);
    const std::string message(denied.message());
    EXPECT_EQ(message.find("alice"), std::string::npos) << message;
    EXPECT_EQ(message.find("bob"), std::string::npos) << message;
    EXPECT_EQ(message.find("site-of"), std::string::npos) << message;
  }
}

TEST(Transport, OnlyLoopbackAddressesCountAsLocal) {
  for (const char* local : {"127.0.0.1:50051", "127.1.2.3:0", "localhost:50051", "[::1]:50051",
                            "unix:/run/arbiterd.sock"}) {
    EXPECT_TRUE(IsLoopbackAddress(local)) << local;
  }
  for (const char* remote : {"0.0.0.0:50051", "[::]:50051", "10.0.0.1:50051", "example.org:50051",
                             "127.0.0.1.example.org:50051", "128.0.0.1:1", ":50051"}) {
    EXPECT_FALSE(IsLoopbackAddress(remote)) << remote;
  }
}

TEST(Transport, PlaintextOnANonLoopbackAddressIsRefusedUnlessInsecure) {
  store::MemoryTokenStore tokens;
  store::MemoryEventStore events;
  auto registry = engine::RulesetRegistry::WithBuiltins();
  ASSERT_TRUE(registry.ok());
  ServerOptions options;
  options.listen = "0.0.0.0:0";
  absl::StatusOr<std::unique_ptr<ArbiterServer>> refused =
      ArbiterServer::Start(options, events, events, tokens, *registry);
  ASSERT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("--insecure"), std::string::npos);
  options.insecure = true;
  absl::StatusOr<std::unique_ptr<ArbiterServer>> allowed =
      ArbiterServer::Start(options, events, events, tokens, *registry);
  ASSERT_TRUE(allowed.ok()) << allowed.status();
  (*allowed)->Shutdown(std::chrono::system_clock::now());
}

// A token store that counts look-ups.
class CountingTokenStore final : public store::TokenStore {
 public:
  absl::Status Insert(const store::TokenRecord& token) override { return inner.Insert(token); }
  absl::StatusOr<std::optional<store::TokenRecord>> FindByHash(const std::string& hash) override {
    ++lookups;
    return inner.FindByHash(hash);
  }
  absl::StatusOr<int64_t> Count() override { return inner.Count(); }
  absl::StatusOr<store::TokenRecord> Revoke(const std::string& id, const std::string& by,
                                     absl::Time now) override {
    return inner.Revoke(id, by, now);
  }
  absl::StatusOr<std::vector<store::TokenRecord>> List(const std::string& after, int limit) override {
    return inner.List(after, limit);
  }
  store::MemoryTokenStore inner;
  int lookups = 0;
};

std::string Bearer(const std::string& token) { return "Bearer " + token; }

TEST(Authenticator, MalformedTokensCostNoLookUpAndUnknownOnesOneAWhile) {
  CountingTokenStore store;
  access::Authenticator auth(store);
  for (const std::string& bad : {std::string("arb_0000_1111"), std::string(10'000, 'x')}) {
    EXPECT_EQ(auth.Authenticate(Bearer(bad)).status().code(),
              absl::StatusCode::kUnauthenticated);
  }
  EXPECT_EQ(store.lookups, 0);
  const std::string unknown = "arb_" + std::string(32, 'a') + "_" + std::string(64, 'b');
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(auth.Authenticate(Bearer(unknown)).status().code(),
              absl::StatusCode::kUnauthenticated);
  }
  EXPECT_EQ(store.lookups, 1);
}

TEST(Authenticator, ExpiryAndRevocationEndATokenThatIsCached) {
  CountingTokenStore store;
  access::Authenticator auth(store);
  absl::StatusOr<access::NewToken> token = access::GenerateToken();
  ASSERT_TRUE(token.ok());
  token->record.role = store::Role::kAuditor;
  token->record.principal = "a";
  token->record.expires_at = absl::Now() + absl::Milliseconds(300);
  ASSERT_TRUE(store.Insert(token->record).ok());
  ASSERT_TRUE(auth.Authenticate(Bearer(token->token)).ok());
  absl::SleepFor(absl::Milliseconds(350));
  EXPECT_EQ(auth.Authenticate(Bearer(token->token)).status().message(), "the token is expired");

  absl::StatusOr<access::NewToken> other = access::GenerateToken();
  ASSERT_TRUE(other.ok());
  other->record.role = store::Role::kAuditor;
  other->record.principal = "b";
  ASSERT_TRUE(store.Insert(other->record).ok());
  ASSERT_TRUE(auth.Authenticate(Bearer(other->token)).ok());
  // Revoked elsewhere (another server): this cache notices within its TTL.
  ASSERT_TRUE(store.Revoke(other->record.token_id, "root", absl::Now()).ok());
  absl::SleepFor(access::kTokenCacheTtl + absl::Milliseconds(50));
  EXPECT_EQ(auth.Authenticate(Bearer(other->token)).status().message(), "the token is revoked");
}

TEST(LogText, EscapesControlCharactersAndCutsLongText) {
  EXPECT_EQ(LogSafe("games/a\nINFO forged line"), "games/a\\nINFO forged line");
  EXPECT_EQ(LogSafe("\x1b[31mred"), "\\x1b[31mred");
  EXPECT_EQ(LogSafe(""), "-");
  const std::string cut = LogSafe(std::string(100'000, 'a'));
  EXPECT_EQ(cut, std::string(kMaxLoggedBytes, 'a') + "...");
  // Never ends inside an escape sequence.
  const std::string escapes = LogSafe(std::string(1000, '\x1b'), 10);
  EXPECT_EQ(escapes, "\\x1b\\x1b...");
  EXPECT_EQ(LogSafe(std::string(1000, '\n'), 8).find('\n'), std::string::npos);
}

TEST(LogText, ServerSideFailuresReachClientsAsACorrelationId) {
  const std::string id = NewCorrelationId();
  EXPECT_EQ(id.size(), 16u);
  EXPECT_NE(id, NewCorrelationId());
  EXPECT_TRUE(IsServerSide(absl::StatusCode::kInternal));
  EXPECT_TRUE(IsServerSide(absl::StatusCode::kUnavailable));
  EXPECT_FALSE(IsServerSide(absl::StatusCode::kNotFound));
  const absl::Status safe = ClientSafe(absl::StatusCode::kInternal, id);
  EXPECT_EQ(safe.code(), absl::StatusCode::kInternal);
  EXPECT_NE(safe.message().find(id), std::string::npos);
}

}  // namespace
}  // namespace arbiter::server
