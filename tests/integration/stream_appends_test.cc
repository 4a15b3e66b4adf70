// StreamAppendActions on a real server over a private PostgreSQL: each
// request on the stream is answered, in order, with what AppendActions would
// have answered the same credentials; a refusal is one message and the
// stream goes on; a caller writes nothing through a stream that it could not
// write by AppendActions; and an open stream holds no server thread.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <google/protobuf/util/message_differencer.h>

#include "absl/strings/str_cat.h"
#include "engine/core/violation.h"
#include "tests/integration/server_fixture.h"

namespace arbiter::server::testing {
namespace {

using AppendStream =
    grpc::ClientReaderWriter<v1::AppendActionsRequest, v1::AppendActionsOutcome>;

// One client's stream and the context it lives in.
struct OpenStream {
  std::unique_ptr<grpc::ClientContext> context;
  std::unique_ptr<AppendStream> stream;
};

v1::AppendActionsRequest AppendOf(const std::string& game_id, int64_t expected,
                                  const v1::Action& action, const std::string& request_id) {
  v1::AppendActionsRequest request;
  request.set_game(absl::StrCat("games/", game_id));
  request.set_request_id(request_id);
  request.set_expected_last_event(expected);
  *request.add_actions() = action;
  return request;
}

// The google.rpc.Status a call's error carries in its details.
google::rpc::Status RpcStatusOf(const grpc::Status& status) {
  google::rpc::Status rpc;
  EXPECT_TRUE(rpc.ParseFromString(status.error_details()));
  return rpc;
}

class StreamAppendsTest : public ServerTest {
 protected:
  OpenStream Open(const std::string& token, v1::ArbiterService::Stub* stub = nullptr) {
    OpenStream open;
    open.context = As(token);
    open.stream = (stub == nullptr ? stub_.get() : stub)->StreamAppendActions(open.context.get());
    return open;
  }

  // Sends one append and reads its answer (a failed write or read fails the
  // test and answers an empty outcome).
  static v1::AppendActionsOutcome Send(OpenStream& open, const v1::AppendActionsRequest& request) {
    v1::AppendActionsOutcome outcome;
    EXPECT_TRUE(open.stream->Write(request));
    EXPECT_TRUE(open.stream->Read(&outcome));
    return outcome;
  }

  static grpc::Status Close(OpenStream& open) {
    open.stream->WritesDone();
    return open.stream->Finish();
  }

  // What AppendActions answers `request` as `token` (`response` if stored).
  grpc::Status Unary(const std::string& token, const v1::AppendActionsRequest& request,
                     v1::AppendActionsResponse* response) {
    return stub_->AppendActions(As(token).get(), request, response);
  }
};

// Every move of a game sent at once, before any answer is read: the answers
// come one per request, in order, and each is what AppendActions answers a
// retry of it.
TEST_F(StreamAppendsTest, AStreamPlaysAGameToItsEndAnsweringInOrderAsAppendActionsWould) {
  const log::GameLog log = Simulated(21);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "streamed", &game).ok());
  OpenStream open = Open(admin_);
  std::vector<v1::AppendActionsRequest> sent;
  for (std::size_t i = 0; i < log.actions.size(); ++i) {
    sent.push_back(AppendOf("streamed", 1 + static_cast<int64_t>(i), log.actions[i],
                            absl::StrCat("move-", i)));
    ASSERT_TRUE(open.stream->Write(sent.back())) << i;
  }
  open.stream->WritesDone();
  std::vector<v1::AppendActionsOutcome> answers;
  for (v1::AppendActionsOutcome outcome; open.stream->Read(&outcome);) answers.push_back(outcome);
  ASSERT_TRUE(open.stream->Finish().ok());

  ASSERT_EQ(answers.size(), sent.size());
  for (std::size_t i = 0; i < answers.size(); ++i) {
    EXPECT_EQ(answers[i].request_id(), sent[i].request_id()) << i;
    ASSERT_TRUE(answers[i].has_appended()) << i << ": " << answers[i].refused().message();
    EXPECT_EQ(answers[i].appended().first_event(), 2 + static_cast<int64_t>(i));
    EXPECT_EQ(answers[i].appended().last_event(), 2 + static_cast<int64_t>(i));
  }
  EXPECT_EQ(answers.back().appended().status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(answers.back().appended().verdict(), v1::VERDICT_LEGAL);
  EXPECT_EQ(Get("streamed").status(), v1::GAME_STATUS_FINISHED);
  for (std::size_t i : {std::size_t{0}, sent.size() / 2, sent.size() - 1}) {
    v1::AppendActionsResponse retried;
    ASSERT_TRUE(Unary(admin_, sent[i], &retried).ok()) << i;
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(retried, answers[i].appended()))
        << i << ": " << retried.ShortDebugString() << " against "
        << answers[i].appended().ShortDebugString();
  }
  EXPECT_TRUE(Verify("streamed").intact());
}

// An illegal action and a stale expected event are each refused in a
// message of their own, with the code, message and details AppendActions
// gives them; nothing of theirs is stored, and the next append is.
TEST_F(StreamAppendsTest, ARefusedAppendIsAnsweredInItsOwnMessageAndTheStreamGoesOn) {
  const log::GameLog log = Simulated(15);
  const log::GameLog bad = WithActionOutOfTurn(log, 1);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "refusals", &game).ok());
  OpenStream open = Open(admin_);
  ASSERT_TRUE(Send(open, AppendOf("refusals", 1, log.actions[0], "ok-1")).has_appended());

  const v1::AppendActionsRequest illegal = AppendOf("refusals", 2, bad.actions[1], "bad-1");
  const v1::AppendActionsOutcome refused = Send(open, illegal);
  EXPECT_EQ(refused.request_id(), "bad-1");
  ASSERT_TRUE(refused.has_refused());
  v1::AppendActionsResponse unused;
  const grpc::Status unary = Unary(admin_, illegal, &unused);
  ASSERT_EQ(unary.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(refused.refused(),
                                                                 RpcStatusOf(unary)))
      << refused.refused().ShortDebugString() << " against "
      << RpcStatusOf(unary).ShortDebugString();
  google::rpc::ErrorInfo info;
  ASSERT_GE(refused.refused().details_size(), 2);
  ASSERT_TRUE(refused.refused().details(0).UnpackTo(&info));
  EXPECT_EQ(info.reason(), "ILLEGAL_ACTION");
  EXPECT_EQ(info.metadata().at("rule"), engine::kRuleNotYourTurn);
  google::rpc::BadRequest bad_request;
  ASSERT_TRUE(refused.refused().details(1).UnpackTo(&bad_request));
  EXPECT_EQ(bad_request.field_violations(0).field(), "actions[0]");

  const v1::AppendActionsOutcome stale = Send(open, AppendOf("refusals", 1, log.actions[1], "stale"));
  ASSERT_TRUE(stale.has_refused());
  EXPECT_EQ(stale.refused().code(), static_cast<int>(grpc::StatusCode::ABORTED));
  EXPECT_EQ(Get("refusals").last_event(), 2);

  const v1::AppendActionsOutcome next = Send(open, AppendOf("refusals", 2, log.actions[1], "ok-2"));
  ASSERT_TRUE(next.has_appended()) << next.refused().message();
  EXPECT_EQ(next.appended().last_event(), 3);
  EXPECT_TRUE(Close(open).ok());
}

// Who may write what is decided per message, as AppendActions decides it:
// another seat's move, another game, a role that may not write and a token
// revoked while its stream is open are each refused, and nothing is stored.
TEST_F(StreamAppendsTest, AStreamWritesNothingItsCallerCouldNotWriteByAppendActions) {
  const TwoGamesOfOneLog games = CreateTwoGamesOfOneLog();
  ASSERT_FALSE(HasFailure());  // both games were created
  const v1::Action& first = games.first;
  const std::string& other_player = games.other_player;
  v1::AppendActionsResponse unused;
  // Each refusal is the one AppendActions gives, word for word.
  auto expect_refused_as_unary = [&](OpenStream& open, const std::string& token,
                                     const v1::AppendActionsRequest& request,
                                     grpc::StatusCode code) {
    const v1::AppendActionsOutcome outcome = Send(open, request);
    ASSERT_TRUE(outcome.has_refused()) << request.request_id();
    EXPECT_FALSE(outcome.has_appended());
    EXPECT_EQ(outcome.refused().code(), static_cast<int>(code)) << outcome.refused().message();
    const grpc::Status unary = Unary(token, request, &unused);
    EXPECT_EQ(outcome.refused().message(), unary.error_message());
  };

  const std::string other = MintPlayer(admin_, other_player, {"g1"});
  OpenStream as_other = Open(other);
  expect_refused_as_unary(as_other, other, AppendOf("g1", 1, first, "not-mine"),
                          grpc::StatusCode::PERMISSION_DENIED);
  expect_refused_as_unary(as_other, other, AppendOf("g2", 1, first, "not-bound"),
                          grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_TRUE(Close(as_other).ok());

  for (store::Role role : {store::Role::kAuditor, store::Role::kPublic}) {
    const std::string reader = MakeToken(role, absl::StrCat("reader-", store::RoleName(role)));
    OpenStream as_reader = Open(reader);
    expect_refused_as_unary(as_reader, reader, AppendOf("g1", 1, first, "reader"),
                            grpc::StatusCode::PERMISSION_DENIED);
    EXPECT_TRUE(Close(as_reader).ok());
  }

  const std::string mine = MintPlayer(admin_, first.player(), {"g1"});
  OpenStream as_mine = Open(mine);
  v1::RevokeTokenRequest revoke;
  revoke.set_token_id(mine.substr(4, mine.rfind('_') - 4));
  v1::TokenInfo revoked;
  ASSERT_TRUE(token_stub_->RevokeToken(As(admin_).get(), revoke, &revoked).ok());
  const v1::AppendActionsOutcome after_revoke = Send(as_mine, AppendOf("g1", 1, first, "revoked"));
  ASSERT_TRUE(after_revoke.has_refused());
  EXPECT_EQ(after_revoke.refused().code(), static_cast<int>(grpc::StatusCode::UNAUTHENTICATED));
  EXPECT_TRUE(Close(as_mine).ok());

  EXPECT_EQ(Get("g1").last_event(), 1);
  EXPECT_EQ(Get("g2").last_event(), 1);
}

// Without a valid token the stream is refused before it reads a message.
TEST_F(StreamAppendsTest, AStreamWithoutAValidTokenIsRefusedBeforeItsFirstMessage) {
  const log::GameLog log = Simulated(9);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "locked", &game).ok());
  for (const std::string& token : {std::string(), std::string("arb_nosuch_0000")}) {
    OpenStream open = Open(token);
    open.stream->Write(AppendOf("locked", 1, log.actions[0], "anonymous"));
    v1::AppendActionsOutcome outcome;
    EXPECT_FALSE(open.stream->Read(&outcome)) << outcome.ShortDebugString();
    EXPECT_EQ(open.stream->Finish().error_code(), grpc::StatusCode::UNAUTHENTICATED) << token;
  }
  EXPECT_EQ(Get("locked").last_event(), 1);
}

// More streams are kept open than the server has threads: each still
// appends, and other calls are still served.
TEST_F(StreamAppendsTest, OpenStreamsHoldNoServerThread) {
  ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.idle_threads = 2;
  options.max_threads = 4;  // the quota allows 4 threads for calls
  options.append_streams.threads = 2;
  std::unique_ptr<ArbiterServer> small = StartServer(options);
  ASSERT_NE(small, nullptr);
  std::unique_ptr<v1::ArbiterService::Stub> stub = StubFor(*small);
  constexpr int kStreams = 24;
  const log::GameLog log = Simulated(33);
  std::vector<OpenStream> streams;
  for (int i = 0; i < kStreams; ++i) {
    v1::Game game;
    ASSERT_TRUE(Create(admin_, log, absl::StrCat("open-", i), &game).ok());
    streams.push_back(Open(admin_, stub.get()));
    const v1::AppendActionsOutcome first =
        Send(streams.back(), AppendOf(absl::StrCat("open-", i), 1, log.actions[0], "first"));
    ASSERT_TRUE(first.has_appended()) << i << ": " << first.refused().message();
  }
  // Every stream is open and waiting for its next move.
  v1::GetGameRequest get;
  get.set_name("games/open-0");
  v1::Game read;
  const grpc::Status status = stub->GetGame(As(admin_).get(), get, &read);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(read.last_event(), 2);
  for (int i = 0; i < kStreams; ++i) {
    const v1::AppendActionsOutcome second =
        Send(streams[i], AppendOf(absl::StrCat("open-", i), 2, log.actions[1], "second"));
    EXPECT_TRUE(second.has_appended()) << i << ": " << second.refused().message();
    EXPECT_TRUE(Close(streams[i]).ok()) << i;
  }
  small->Shutdown(std::chrono::system_clock::now());
}

// One stream beyond --max-append-streams is refused at once, naming the
// flag; once a stream closes, a new one is taken.
TEST_F(StreamAppendsTest, OneStreamBeyondTheBoundIsRefusedNamingTheFlag) {
  ServerOptions options;
  options.listen = "127.0.0.1:0";
  options.append_streams.max_streams = 2;
  std::unique_ptr<ArbiterServer> bounded = StartServer(options);
  ASSERT_NE(bounded, nullptr);
  std::unique_ptr<v1::ArbiterService::Stub> stub = StubFor(*bounded);
  const log::GameLog log = Simulated(41);
  v1::Game game;
  ASSERT_TRUE(Create(admin_, log, "bounded", &game).ok());
  std::vector<OpenStream> streams;
  for (int i = 0; i < 2; ++i) {
    streams.push_back(Open(admin_, stub.get()));
    // A request that is refused (stale) still proves the stream is served.
    EXPECT_TRUE(Send(streams.back(), AppendOf("bounded", 9, log.actions[0], "probe")).has_refused());
  }
  OpenStream third = Open(admin_, stub.get());
  third.stream->Write(AppendOf("bounded", 1, log.actions[0], "third"));
  v1::AppendActionsOutcome none;
  EXPECT_FALSE(third.stream->Read(&none));
  const grpc::Status refused = third.stream->Finish();
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(refused.error_message(),
            "this server keeps at most 2 StreamAppendActions streams open "
            "(--max-append-streams): close a stream no longer in use, or send the move by "
            "AppendActions");
  EXPECT_EQ(ErrorInfoOf(refused).reason(), "TOO_MANY_STREAMS");
  EXPECT_EQ(Get("bounded").last_event(), 1);

  EXPECT_TRUE(Close(streams[0]).ok());
  // The server counts the stream closed once gRPC is done with it.
  OpenStream next;
  v1::AppendActionsOutcome answer;
  for (int attempt = 0; attempt < 100; ++attempt) {
    next = Open(admin_, stub.get());
    if (next.stream->Write(AppendOf("bounded", 1, log.actions[0], "after-close")) &&
        next.stream->Read(&answer)) {
      break;
    }
    next.stream->Finish();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(answer.has_appended()) << answer.ShortDebugString();
  EXPECT_TRUE(Close(next).ok());
  EXPECT_TRUE(Close(streams[1]).ok());
  bounded->Shutdown(std::chrono::system_clock::now());
}

}  // namespace
}  // namespace arbiter::server::testing
