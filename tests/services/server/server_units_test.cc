// Unit tests of the server's small pieces: the commitment, names, event
// encoding, error details and permissions.
#include <gtest/gtest.h>

#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "services/server/auth.h"
#include "services/server/log_text.h"
#include "services/server/server.h"
#include "absl/time/clock.h"
#include "services/store/memory_event_store.h"
#include "services/server/event_codec.h"
#include "services/server/status_mapping.h"

namespace arbiter::server {
namespace {

TEST(SeedCommitment, MatchesTheDocumentedBytes) {
  // From Python: hashlib.sha256(b"arbiter-seed-v1:42:0011...eeff").hexdigest()
  absl::StatusOr<std::string> commitment = SeedCommitment(42, "00112233445566778899aabbccddeeff");
  ASSERT_TRUE(commitment.ok());
  EXPECT_EQ(*commitment, "293317b8d39ead6776b79574c806c5927fac4c7a5083e6be413830a1da011b7c");
}

TEST(SeedCommitment, RefusesAShortOrUppercaseNonce) {
  EXPECT_EQ(SeedCommitment(42, "0011").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SeedCommitment(42, "00112233445566778899AABBCCDDEEFF").status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(GameNames, ParseOnlyWellFormedNames) {
  EXPECT_EQ(*ParseGameName("games/final-1", "name"), "final-1");
  EXPECT_FALSE(ParseGameName("games/", "name").ok());
  EXPECT_FALSE(ParseGameName("games/a/b", "name").ok());
  EXPECT_FALSE(ParseGameName("leagues/x", "name").ok());
  EXPECT_FALSE(ParseGameName(std::string("games/") + std::string(64, 'a'), "name").ok());
}

TEST(EventCodec, EncodesDeterministicallyAndDecodesBack) {
  v1::Action action;
  action.set_player("p1");
  action.mutable_atlantis();
  absl::StatusOr<store::NewEvent> first = EncodeAction("g", 2, action);
  absl::StatusOr<store::NewEvent> again = EncodeAction("g", 2, action);
  ASSERT_TRUE(first.ok() && again.ok());
  EXPECT_EQ(first->payload, again->payload);
  EXPECT_EQ(first->event_id, again->event_id);
  EXPECT_NE(first->event_id, EncodeAction("g", 3, action)->event_id);
  store::StoredEvent stored;
  stored.game_id = "g";
  stored.sequence = 2;
  stored.type = first->type;
  stored.payload = first->payload;
  absl::StatusOr<v1::Event> decoded = DecodeEvent(stored);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->name(), "games/g/events/2");
  EXPECT_EQ(decoded->action().player(), "p1");
  stored.type = "mystery";
  EXPECT_EQ(DecodeEvent(stored).status().code(), absl::StatusCode::kDataLoss);
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

  absl::Status rich = WithErrorInfo(FieldError("actions[0]", "bad"), "ILLEGAL_ACTION",
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
  const Caller alice{"alice", Role::kOrganiser, {}, {}, "1"};
  const Caller bob{"bob", Role::kOrganiser, {}, {}, "2"};
  const Caller north{"carol", Role::kOrganiser, {"north"}, {}, "3"};
  const Caller auditor{"dan", Role::kAuditor, {}, {}, "4"};
  const Caller reader{"site", Role::kPublic, {}, {}, "5"};
  EXPECT_TRUE(RequireWrite(alice, game, "1").ok());
  EXPECT_EQ(RequireWrite(bob, game, "1").code(), absl::StatusCode::kPermissionDenied);
  EXPECT_TRUE(RequireWrite(north, game, "1").ok());
  EXPECT_EQ(RequireWrite(auditor, game, "1").code(), absl::StatusCode::kPermissionDenied);
  EXPECT_TRUE(RequireReadState(auditor, game).ok());
  EXPECT_EQ(RequireReadState(bob, game).code(), absl::StatusCode::kPermissionDenied);
  // Positions are derived from the seed: the organiser who may write sees
  // them only once the game is finished, like the seed.
  EXPECT_EQ(RequireReadState(alice, game).code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(RequireReadState(north, game).code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(RequireRead(reader, game).code(), absl::StatusCode::kPermissionDenied);
  EXPECT_FALSE(SeesSeed(bob, game));
  game.status = store::GameStatus::kFinished;
  EXPECT_TRUE(RequireRead(reader, game).ok());
  EXPECT_TRUE(SeesSeed(reader, game));
  EXPECT_EQ(RequireCreate(north, "south", "").code(), absl::StatusCode::kPermissionDenied);
  EXPECT_TRUE(RequireCreate(north, "north", "").ok());
}

TEST(Permissions, WriteRightsFollowTheTokenNotItsPrincipal) {
  store::GameRecord game;
  game.game_id = "g";
  game.created_by = "admin";
  game.status = store::GameStatus::kActive;
  const Caller impostor{"admin", Role::kOrganiser, {}, {}, "other-token"};
  const Caller creator{"someone", Role::kOrganiser, {}, {}, "creator-token"};
  EXPECT_EQ(RequireWrite(impostor, game, "creator-token").code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_TRUE(RequireWrite(creator, game, "creator-token").ok());
  // A game without a recorded creator token: scope only.
  EXPECT_EQ(RequireWrite(impostor, game, "").code(), absl::StatusCode::kPermissionDenied);
}

TEST(Permissions, DenialsNameNoPerson) {
  store::GameRecord game;
  game.game_id = "g";
  game.created_by = "alice-the-creator";
  game.status = store::GameStatus::kActive;
  const Caller bob{"bob-the-caller", Role::kOrganiser, {}, {}, "2"};
  const Caller site{"site-of-the-league", Role::kPublic, {}, {}, "5"};
  for (const absl::Status& denied :
       {RequireWrite(bob, game, "1"), RequireReadState(bob, game), RequireRead(site, game),
        RequireAdmin(bob), RequireCreate(bob, "north", "")}) {
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
  MemoryTokenStore tokens;
  store::MemoryEventStore events;
  auto registry = engine::RulesetRegistry::WithBuiltins();
  ASSERT_TRUE(registry.ok());
  ServerOptions options;
  options.listen = "0.0.0.0:0";
  absl::StatusOr<std::unique_ptr<ArbiterServer>> refused =
      ArbiterServer::Start(options, events, tokens, *registry);
  ASSERT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("--insecure"), std::string::npos);
  options.insecure = true;
  absl::StatusOr<std::unique_ptr<ArbiterServer>> allowed =
      ArbiterServer::Start(options, events, tokens, *registry);
  ASSERT_TRUE(allowed.ok()) << allowed.status();
  (*allowed)->Shutdown(std::chrono::system_clock::now());
}

// A token store that counts look-ups.
class CountingTokenStore final : public TokenStore {
 public:
  absl::Status Insert(const TokenRecord& token) override { return inner.Insert(token); }
  absl::StatusOr<std::optional<TokenRecord>> FindByHash(const std::string& hash) override {
    ++lookups;
    return inner.FindByHash(hash);
  }
  absl::StatusOr<int64_t> Count() override { return inner.Count(); }
  absl::StatusOr<TokenRecord> Revoke(const std::string& id, const std::string& by,
                                     absl::Time now) override {
    return inner.Revoke(id, by, now);
  }
  absl::StatusOr<std::vector<TokenRecord>> List(const std::string& after, int limit) override {
    return inner.List(after, limit);
  }
  MemoryTokenStore inner;
  int lookups = 0;
};

std::string Bearer(const std::string& token) { return "Bearer " + token; }

TEST(Authenticator, MalformedTokensCostNoLookUpAndUnknownOnesOneAWhile) {
  CountingTokenStore store;
  Authenticator auth(store);
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
  Authenticator auth(store);
  absl::StatusOr<NewToken> token = GenerateToken();
  ASSERT_TRUE(token.ok());
  token->record.role = Role::kAuditor;
  token->record.principal = "a";
  token->record.expires_at = absl::Now() + absl::Milliseconds(300);
  ASSERT_TRUE(store.Insert(token->record).ok());
  ASSERT_TRUE(auth.Authenticate(Bearer(token->token)).ok());
  absl::SleepFor(absl::Milliseconds(350));
  EXPECT_EQ(auth.Authenticate(Bearer(token->token)).status().message(), "the token is expired");

  absl::StatusOr<NewToken> other = GenerateToken();
  ASSERT_TRUE(other.ok());
  other->record.role = Role::kAuditor;
  other->record.principal = "b";
  ASSERT_TRUE(store.Insert(other->record).ok());
  ASSERT_TRUE(auth.Authenticate(Bearer(other->token)).ok());
  // Revoked elsewhere (another server): this cache notices within its TTL.
  ASSERT_TRUE(store.Revoke(other->record.token_id, "root", absl::Now()).ok());
  absl::SleepFor(kTokenCacheTtl + absl::Milliseconds(50));
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
