// Per-method limits on the size of a request, below the server-wide
// --max-message-bytes: only the methods that carry logs and action batches
// (SubmitGame, AppendActions) take messages of that size; lists of players
// (CreateTournament, RegisterPlayers) take up to 4 MiB; every other method
// takes 64 KiB.
//
// gRPC has no per-method receive limit, so an interceptor measures each
// request once it is parsed and notes an oversized one; Serve() (rpc_common.h)
// answers RESOURCE_EXHAUSTED before the handler's body runs. Parsing is
// bounded by --max-message-bytes, and happens only for callers that passed
// the early authentication (early_auth.h).
//
// Thread-safety: the note is thread-local. In the synchronous server a
// request's interceptors and its handler run on one thread, one after the
// other; the note names the call's context, so a note can never apply to
// another call.
#ifndef ARBITER_SERVICES_SERVER_REQUEST_LIMITS_H_
#define ARBITER_SERVICES_SERVER_REQUEST_LIMITS_H_

#include <grpcpp/grpcpp.h>
#include <grpcpp/support/server_interceptor.h>

#include <cstdint>
#include <string_view>

#include "absl/status/status.h"

namespace arbiter::server {

inline constexpr int64_t kSmallRequestBytes = 64 << 10;
inline constexpr int64_t kPlayerListRequestBytes = 4 << 20;

// The largest request `method` ("/arbiter.v1.ArbiterService/GetGame", or just
// "GetGame") accepts when the server's limit is `max_message_bytes`.
int64_t RequestLimitFor(std::string_view method, int64_t max_message_bytes);

// Creates the interceptor that measures requests.
class RequestSizeInterceptorFactory final : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit RequestSizeInterceptorFactory(int64_t max_message_bytes) : max_message_bytes_(max_message_bytes) {}
  grpc::experimental::Interceptor* CreateServerInterceptor(grpc::experimental::ServerRpcInfo* info) override;

 private:
  int64_t max_message_bytes_;
};

// ResourceExhausted naming the method, the request's size and the limit if
// the request of the call with `context` was noted as too large; OK
// otherwise. Clears the note.
absl::Status TakeOversizeNote(const grpc::ServerContextBase* context);

}  // namespace arbiter::server

#endif  // ARBITER_SERVICES_SERVER_REQUEST_LIMITS_H_
