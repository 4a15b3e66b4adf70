#include "services/web/live_feeds.h"

#include <google/protobuf/util/json_util.h>
#include <grpcpp/client_context.h>
#include <httplib.h>

#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "arbiter/v1/arbiter_service.grpc.pb.h"
#include "services/web/api_routes.h"

namespace arbiter::web {

// One open WatchGame call. `finished` once Finish has been called.
struct LiveFeeds::Feed {
  grpc::ClientContext context;
  std::unique_ptr<grpc::ClientReader<v1::GameUpdate>> reader;
  bool finished = false;

  grpc::Status Finish() {
    finished = true;
    return reader->Finish();
  }
};

namespace {

// Exactly this type: cpp-httplib compresses (and so buffers) every other
// text/ type for clients that accept gzip.
constexpr char kEventStream[] = "text/event-stream";

bool Send(httplib::DataSink& sink, const std::string& text) {
  return sink.write(text.data(), text.size());
}

// "id: N\ndata: {json}\n\n": the JSON is one line (no pretty printing).
std::string UpdateMessage(const v1::GameUpdate& update) {
  std::string json;
  if (!google::protobuf::util::MessageToJsonString(update, &json).ok()) return "";
  return absl::StrCat("id: ", update.event().event(), "\ndata: ", json, "\n\n");
}

}  // namespace

LiveFeeds::LiveFeeds(std::shared_ptr<grpc::Channel> channel, std::string public_token,
                     LiveFeedLimits limits)
    : channel_(std::move(channel)),
      authorization_("Bearer " + std::move(public_token)),
      limits_(limits) {}

LiveFeeds::~LiveFeeds() { CloseAll(); }

bool LiveFeeds::TakeSlot(const std::string& address) {
  absl::MutexLock lock(&mu_);
  if (closed_ || open_ >= limits_.total || per_address_[address] >= limits_.per_address) {
    return false;
  }
  ++open_;
  ++per_address_[address];
  return true;
}

void LiveFeeds::Release(const std::string& address, Feed* feed) {
  absl::MutexLock lock(&mu_);
  feeds_.erase(feed);
  --open_;
  if (--per_address_[address] <= 0) per_address_.erase(address);
}

void LiveFeeds::CloseAll() {
  absl::MutexLock lock(&mu_);
  closed_ = true;
  for (Feed* feed : feeds_) feed->context.TryCancel();
}

void LiveFeeds::Serve(const std::string& game_id, int64_t from_event, const std::string& token,
                      const std::string& address, httplib::Response& res) {
  if (!TakeSlot(address)) {
    res.status = 429;
    res.set_header("Retry-After", "5");
    res.set_content(ErrorJson(429, "too many live feeds open: close another page of a game, or "
                                   "wait for one to end"),
                    "application/json; charset=utf-8");
    return;
  }
  auto feed = std::make_shared<Feed>();
  feed->context.AddMetadata("authorization", token.empty() ? authorization_ : "Bearer " + token);
  feed->context.set_deadline(std::chrono::system_clock::now() +
                             absl::ToChronoMilliseconds(limits_.hold));
  {
    absl::MutexLock lock(&mu_);
    feeds_.insert(feed.get());
    if (closed_) feed->context.TryCancel();
  }
  v1::WatchGameRequest request;
  request.set_game(absl::StrCat("games/", game_id));
  request.set_from_event(from_event);
  feed->reader = v1::ArbiterService::NewStub(channel_)->WatchGame(&feed->context, request);
  const bool signed_in = !token.empty();
  res.set_header("Cache-Control", "no-store");
  res.set_chunked_content_provider(
      kEventStream,
      [feed, signed_in](std::size_t offset, httplib::DataSink& sink) {
        // The first write sends the headers, so that the page knows the
        // feed is open before the first update.
        if (offset == 0 && !Send(sink, "retry: 1000\n\n")) return false;
        v1::GameUpdate update;
        if (feed->reader->Read(&update)) {
          if (!Send(sink, UpdateMessage(update))) return false;
          if (update.game_over()) {
            feed->context.TryCancel();
            feed->Finish();
            sink.done();
          }
          return true;
        }
        const grpc::Status status = feed->Finish();
        // The hold ran out or the server is closing: the browser asks again.
        if (!status.ok() && status.error_code() != grpc::StatusCode::DEADLINE_EXCEEDED &&
            status.error_code() != grpc::StatusCode::CANCELLED) {
          Send(sink, absl::StrCat("event: error\ndata: ",
                                  ErrorAnswer(status, signed_in, false).body, "\n\n"));
        }
        sink.done();
        return true;
      },
      [this, feed, address](bool /*success*/) {
        if (!feed->finished) {
          feed->context.TryCancel();
          feed->Finish();
        }
        Release(address, feed.get());
      });
}

}  // namespace arbiter::web
