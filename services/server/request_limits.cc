#include "services/server/request_limits.h"

#include <google/protobuf/message.h>

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "services/common/status_details.h"

namespace arbiter::server {
namespace {

using grpc::experimental::InterceptionHookPoints;
using grpc::experimental::InterceptorBatchMethods;

struct OversizeNote {
  const grpc::ServerContextBase* context = nullptr;
  std::string method;
  int64_t bytes = 0;
  int64_t limit = 0;
};

thread_local OversizeNote note;

constexpr char kArbiterMethodPrefix[] = "/arbiter.v1.";

std::string_view ShortName(std::string_view method) {
  const std::size_t slash = method.rfind('/');
  return slash == std::string_view::npos ? method : method.substr(slash + 1);
}

class RequestSizeInterceptor final : public grpc::experimental::Interceptor {
 public:
  RequestSizeInterceptor(grpc::experimental::ServerRpcInfo* info, int64_t limit) : info_(info), limit_(limit) {}

  void Intercept(InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_MESSAGE)) {
      note = OversizeNote{};
      const auto* request = static_cast<const google::protobuf::Message*>(methods->GetRecvMessage());
      if (request != nullptr) {
        const auto bytes = static_cast<int64_t>(request->ByteSizeLong());
        if (bytes > limit_) note = {info_->server_context(), std::string(ShortName(info_->method())), bytes, limit_};
      }
    }
    methods->Proceed();
  }

 private:
  grpc::experimental::ServerRpcInfo* info_;
  int64_t limit_;
};

// `bytes` for a person: "65,536 bytes (64 KiB)", "100,010 bytes (97.7 KiB)".
std::string SizeInWords(int64_t bytes) {
  const std::string digits = absl::StrCat(bytes);
  std::string grouped;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  constexpr int64_t kKiB = 1024;
  constexpr int64_t kMiB = 1024 * 1024;
  const int64_t unit = bytes >= kMiB ? kMiB : kKiB;
  const char* name = unit == kMiB ? "MiB" : "KiB";
  const std::string amount = bytes % unit == 0
                                 ? absl::StrCat(bytes / unit, " ", name)
                                 : absl::StrFormat("%.1f %s", static_cast<double>(bytes) / unit, name);
  return absl::StrCat(grouped, " bytes (", amount, ")");
}

}  // namespace

int64_t RequestLimitFor(std::string_view method, int64_t max_message_bytes) {
  const std::string_view name = ShortName(method);
  if (name == "SubmitGame" || name == "AppendActions" || name == "StreamAppendActions") {
    return max_message_bytes;
  }
  if (name == "CreateTournament" || name == "RegisterPlayers") {
    return std::min(max_message_bytes, kPlayerListRequestBytes);
  }
  return std::min(max_message_bytes, kSmallRequestBytes);
}

grpc::experimental::Interceptor* RequestSizeInterceptorFactory::CreateServerInterceptor(
    grpc::experimental::ServerRpcInfo* info) {
  // Only Arbiter's own services carry protobuf messages we can measure: the
  // health service, for one, receives raw byte buffers.
  if (info->method() == nullptr || !absl::StartsWith(info->method(), kArbiterMethodPrefix)) return nullptr;
  return new RequestSizeInterceptor(info, RequestLimitFor(info->method(), max_message_bytes_));
}

absl::Status TakeOversizeNote(const grpc::ServerContextBase* context) {
  if (note.context == nullptr || note.context != context) return absl::OkStatus();
  const OversizeNote taken = note;
  note = OversizeNote{};
  return common::WithErrorInfo(
      absl::ResourceExhaustedError(absl::StrCat("the request is ", SizeInWords(taken.bytes),
                                                "; this call takes at most ", SizeInWords(taken.limit),
                                                ": send less in one request")),
      "REQUEST_TOO_LARGE",
      {{"bytes", absl::StrCat(taken.bytes)}, {"limit_bytes", absl::StrCat(taken.limit)}});
}

}  // namespace arbiter::server
