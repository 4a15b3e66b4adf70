#include "services/server/watch_game.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "services/games/game_events.h"
#include "services/server/log_text.h"
#include "services/server/status_mapping.h"

namespace arbiter::server {

WatchReactor* WatchReactor::Start(grpc::CallbackServerContext* context, games::GameFeeds& feeds,
                                  const absl::StatusOr<WatchRequest>& request) {
  auto reactor = std::make_shared<WatchReactor>(context, feeds);
  WatchReactor* raw = reactor.get();
  raw->self_ = reactor;
  if (!request.ok()) {
    raw->End(request.status(), false);
    return raw;
  }
  raw->request_ = *request;
  {
    absl::MutexLock lock(&raw->mu_);
    raw->cursor_ = request->from_event;
  }
  absl::StatusOr<uint64_t> id = feeds.Watch(request->game_id, request->from_event, reactor);
  if (!id.ok()) {
    raw->End(id.status(), false);
    return raw;
  }
  {
    absl::MutexLock lock(&raw->mu_);
    raw->id_ = *id;
    raw->watching_ = true;
  }
  raw->Wake();  // what the feed has already
  return raw;
}

WatchReactor::WatchReactor(grpc::CallbackServerContext* context, games::GameFeeds& feeds)
    : context_(context), feeds_(feeds) {}

void WatchReactor::Wake() {
  enum class Then { kNothing, kWrite, kWriteLast, kFinish } then = Then::kNothing;
  {
    absl::MutexLock lock(&mu_);
    if (!watching_ || writing_ || finishing_) return;
    games::FeedNext next = feeds_.Next(id_, cursor_);
    if (next.update.has_value()) {
      out_ = *std::move(next.update);
      if (!request_.sees_seed) games::HideSeed(*out_.mutable_event());
      games::HideHand(*out_.mutable_event(), request_.game, request_.hands);
      if (!request_.sees_positions && out_.event().has_action()) out_.mutable_event()->clear_text();
      cursor_ = out_.event().event();
      ++sent_;
      writing_ = true;
      finishing_ = out_.game_over();
      then = finishing_ ? Then::kWriteLast : Then::kWrite;
    } else if (next.past_end) {
      // Resumed after the game's end: nothing more will come.
      finishing_ = true;
      then = Then::kFinish;
    }
  }
  // gRPC may run OnWriteDone before these return: no lock is held.
  switch (then) {
    case Then::kWrite:
      StartWrite(&out_);
      break;
    case Then::kWriteLast:
      StartWriteAndFinish(&out_, grpc::WriteOptions(), grpc::Status::OK);
      break;
    case Then::kFinish:
      Finish(grpc::Status::OK);
      break;
    case Then::kNothing:
      break;
  }
}

void WatchReactor::Drop(const absl::Status& why) { End(why, true); }

void WatchReactor::End(const absl::Status& status, bool cancel) {
  bool now = false;
  {
    absl::MutexLock lock(&mu_);
    if (finishing_) return;
    finishing_ = true;
    final_ = status;
    now = !writing_;
  }
  if (cancel) context_->TryCancel();
  if (now) Finish(ToGrpcStatus(status));
}

void WatchReactor::OnWriteDone(bool ok) {
  absl::Status finish;
  bool finish_now = false;
  {
    absl::MutexLock lock(&mu_);
    writing_ = false;
    if (finishing_) {
      finish_now = true;  // End waited for this write
      finish = final_;
    } else if (!ok) {
      finishing_ = true;
      finish_now = true;
      final_ = finish = absl::CancelledError("the stream broke: the client went away");
    }
  }
  if (finish_now) {
    Finish(ToGrpcStatus(finish));
    return;
  }
  Wake();
}

void WatchReactor::OnCancel() { End(absl::CancelledError("the client cancelled the call"), false); }

void WatchReactor::OnDone() {
  std::shared_ptr<WatchReactor> keep;
  {
    absl::MutexLock lock(&mu_);
    if (watching_) feeds_.Unwatch(id_);
    watching_ = false;
    keep = std::move(self_);
    const double ms = absl::ToDoubleMilliseconds(absl::Now() - start_);
    const std::string code = CodeName(final_.code());
    spdlog::info("WatchGame game={} principal={} status={} updates={} time={:.2f}ms",
                 LogSafe(request_.game_id), LogSafe(request_.principal), code, sent_, ms);
  }
  // `keep` may be the last owner: this object ends with this function.
}

}  // namespace arbiter::server
