#include "services/web/api_routes.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/util/json_util.h>
#include <grpcpp/client_context.h>
#include <grpcpp/impl/codegen/client_unary_call.h>
#include <grpcpp/impl/codegen/rpc_method.h>

#include <algorithm>
#include <chrono>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "services/common/resource_names.h"
#include "arbiter/v1/arbiter_service.grpc.pb.h"
#include "arbiter/v1/league_service.grpc.pb.h"
#include "arbiter/v1/tournament_service.grpc.pb.h"
#include "arbiter/v1/transparency_service.grpc.pb.h"

namespace arbiter::web {
namespace {

namespace pb = google::protobuf;

// A path segment that may hold any id (services/common/resource_names.h).
std::string IdGroup() { return absl::StrCat("(", common::kAnyIdPattern, ")"); }
constexpr char kNumber[] = "([0-9]{1,18})";

const pb::MethodDescriptor* FindMethod(const std::string& rpc) {
  // "/package.Service/Method"
  const std::size_t slash = rpc.rfind('/');
  const pb::ServiceDescriptor* service =
      pb::DescriptorPool::generated_pool()->FindServiceByName(rpc.substr(1, slash - 1));
  return service == nullptr ? nullptr : service->FindMethodByName(rpc.substr(slash + 1));
}

absl::Status SetField(pb::Message& message, const std::string& name, const std::string& text) {
  const pb::FieldDescriptor* field = message.GetDescriptor()->FindFieldByName(name);
  if (field == nullptr || field->is_repeated()) {
    return absl::InternalError(absl::StrCat("no request field ", name));
  }
  const pb::Reflection* reflection = message.GetReflection();
  switch (field->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_STRING:
      if (text.size() > 1000) {
        return absl::InvalidArgumentError(absl::StrCat("query parameter ", name, " is too long"));
      }
      reflection->SetString(&message, field, text);
      return absl::OkStatus();
    case pb::FieldDescriptor::CPPTYPE_INT32: {
      int32_t value = 0;
      if (!absl::SimpleAtoi(text, &value) || value < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("query parameter ", name, " must be a whole number from 0 to 2147483647"));
      }
      reflection->SetInt32(&message, field, value);
      return absl::OkStatus();
    }
    case pb::FieldDescriptor::CPPTYPE_INT64: {
      int64_t value = 0;
      if (!absl::SimpleAtoi(text, &value) || value < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("query parameter ", name, " must be a whole number, 0 or more"));
      }
      reflection->SetInt64(&message, field, value);
      return absl::OkStatus();
    }
    case pb::FieldDescriptor::CPPTYPE_ENUM: {
      const pb::EnumValueDescriptor* value = field->enum_type()->FindValueByName(text);
      if (value == nullptr) {
        return absl::InvalidArgumentError(
            absl::StrCat("query parameter ", name, " has no value ", text));
      }
      reflection->SetEnum(&message, field, value);
      return absl::OkStatus();
    }
    default:
      return absl::InternalError(absl::StrCat("request field ", name, " has an unsupported type"));
  }
}

const char* StatusWord(int http_status) {
  switch (http_status) {
    case 400: return "BAD_REQUEST";
    case 401: return "UNAUTHENTICATED";
    case 403: return "PERMISSION_DENIED";
    case 404: return "NOT_FOUND";
    case 409: return "CONFLICT";
    case 429: return "TOO_MANY_REQUESTS";
    case 503: return "UNAVAILABLE";
    case 504: return "GATEWAY_TIMEOUT";
    default: return "INTERNAL";
  }
}

}  // namespace

const std::vector<ApiRoute>& ApiRoutes() {
  static const auto* routes = new std::vector<ApiRoute>{
      {"/api/games", "/arbiter.v1.ArbiterService/ListGames", {},
       {"page_size", "page_token", "game_type", "league", "tournament", "player"}},
      {absl::StrCat("/api/games/", IdGroup()), "/arbiter.v1.ArbiterService/GetGame",
       {{"name", "games/{1}"}}, {}},
      {absl::StrCat("/api/games/", IdGroup(), "/events"), "/arbiter.v1.ArbiterService/ListEvents",
       {{"parent", "games/{1}"}}, {"page_size", "page_token"}},
      {absl::StrCat("/api/games/", IdGroup(), "/adjudication"),
       "/arbiter.v1.ArbiterService/AdjudicateGame", {{"name", "games/{1}"}}, {}},
      {absl::StrCat("/api/games/", IdGroup(), "/state"), "/arbiter.v1.ArbiterService/GetGameState",
       {{"name", "games/{1}"}}, {"event"}},
      {absl::StrCat("/api/games/", IdGroup(), "/verify"), "/arbiter.v1.ArbiterService/VerifyGame",
       {{"name", "games/{1}"}}, {}},
      {absl::StrCat("/api/games/", IdGroup(), "/legal-actions"),
       "/arbiter.v1.ArbiterService/ListLegalActions", {{"game", "games/{1}"}}, {"player"}},
      {absl::StrCat("/api/games/", IdGroup(), "/events/", kNumber, "/inclusion"),
       "/arbiter.v1.TransparencyService/GetInclusionProof",
       {{"name", "games/{1}/events/{2}"}}, {"tree_size"}},
      {"/api/checkpoint", "/arbiter.v1.TransparencyService/GetCheckpoint", {}, {"tree_size"}},
      {"/api/leagues", "/arbiter.v1.LeagueService/ListLeagues", {}, {"page_size", "page_token"}},
      {absl::StrCat("/api/leagues/", IdGroup()), "/arbiter.v1.LeagueService/GetLeague",
       {{"name", "leagues/{1}"}}, {}},
      {absl::StrCat("/api/leagues/", IdGroup(), "/leaderboard"),
       "/arbiter.v1.LeagueService/GetLeaderboard", {{"league", "leagues/{1}"}},
       {"season", "page_size", "page_token"}},
      {absl::StrCat("/api/leagues/", IdGroup(), "/players/", IdGroup(), "/history"),
       "/arbiter.v1.LeagueService/GetRatingHistory",
       {{"league", "leagues/{1}"}, {"player", "{2}"}}, {"season", "page_size", "page_token"}},
      {"/api/tournaments", "/arbiter.v1.TournamentService/ListTournaments", {},
       {"league", "page_size", "page_token"}},
      {absl::StrCat("/api/tournaments/", IdGroup()), "/arbiter.v1.TournamentService/GetTournament",
       {{"name", "tournaments/{1}"}}, {}},
      {absl::StrCat("/api/tournaments/", IdGroup(), "/rounds/", kNumber),
       "/arbiter.v1.TournamentService/GetRound", {{"name", "tournaments/{1}"}, {"round", "{2}"}},
       {}},
      {absl::StrCat("/api/tournaments/", IdGroup(), "/standings"),
       "/arbiter.v1.TournamentService/GetStandings", {{"name", "tournaments/{1}"}},
       {"after_round"}},
      {absl::StrCat("/api/tournaments/", IdGroup(), "/disputes"),
       "/arbiter.v1.DisputeService/ListDisputes", {{"tournament", "tournaments/{1}"}},
       {"page_size", "page_token"}},
  };
  return *routes;
}

int HttpStatusFor(int grpc_code) {
  switch (static_cast<grpc::StatusCode>(grpc_code)) {
    case grpc::StatusCode::OK: return 200;
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::OUT_OF_RANGE: return 400;
    case grpc::StatusCode::NOT_FOUND:
    case grpc::StatusCode::PERMISSION_DENIED:
    case grpc::StatusCode::UNAUTHENTICATED: return 404;
    case grpc::StatusCode::FAILED_PRECONDITION:
    case grpc::StatusCode::ALREADY_EXISTS:
    case grpc::StatusCode::ABORTED: return 409;
    case grpc::StatusCode::RESOURCE_EXHAUSTED: return 429;
    case grpc::StatusCode::UNAVAILABLE: return 503;
    case grpc::StatusCode::DEADLINE_EXCEEDED: return 504;
    default: return 500;
  }
}

std::string ErrorJson(int http_status, const std::string& message) {
  std::string escaped;
  for (char c : message) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      escaped += '\\';
      escaped += c;
    } else if (u < 0x20 || c == '<' || c == '>' || c == '&') {
      escaped += absl::StrCat("\\u00", absl::Hex(u, absl::kZeroPad2));
    } else {
      escaped += c;
    }
  }
  return absl::StrCat("{\"error\":{\"code\":", http_status, ",\"status\":\"",
                      StatusWord(http_status), "\",\"message\":\"", escaped, "\"}}");
}

const std::vector<ApiRoute>& WriteRoutes() {
  static const auto* routes = new std::vector<ApiRoute>{
      {absl::StrCat("/api/games/", IdGroup(), "/actions"),
       "/arbiter.v1.ArbiterService/AppendActions", {{"game", "games/{1}"}}, {}},
      {absl::StrCat("/api/games/", IdGroup(), "/seat-value"),
       "/arbiter.v1.ArbiterService/AddSeatValue", {{"game", "games/{1}"}}, {}},
  };
  return *routes;
}

JsonAnswer ApiCaller::Call(const ApiRoute& route, const std::vector<std::string>& captures,
                           const std::multimap<std::string, std::string>& query,
                           const std::string& token) const {
  const pb::MethodDescriptor* method = FindMethod(route.rpc);
  if (method == nullptr) return {500, ErrorJson(500, "internal error")};
  std::unique_ptr<pb::Message> request(
      pb::MessageFactory::generated_factory()->GetPrototype(method->input_type())->New());
  for (const auto& [name, value] : query) {
    if (std::find(route.query_fields.begin(), route.query_fields.end(), name) ==
        route.query_fields.end()) {
      return {400, ErrorJson(400, absl::StrCat("unknown query parameter ", name.substr(0, 100)))};
    }
    if (query.count(name) > 1) {
      return {400, ErrorJson(400, absl::StrCat("query parameter ", name, " given twice"))};
    }
    if (absl::Status s = SetField(*request, name, value); !s.ok()) {
      const int http = s.code() == absl::StatusCode::kInvalidArgument ? 400 : 500;
      return {http, ErrorJson(http, http == 400 ? std::string(s.message()) : "internal error")};
    }
  }
  return Invoke(route, *method, captures, *request, token, false);
}

JsonAnswer ApiCaller::Write(const ApiRoute& route, const std::vector<std::string>& captures,
                            const std::string& body, const std::string& token) const {
  const pb::MethodDescriptor* method = FindMethod(route.rpc);
  if (method == nullptr) return {500, ErrorJson(500, "internal error")};
  std::unique_ptr<pb::Message> request(
      pb::MessageFactory::generated_factory()->GetPrototype(method->input_type())->New());
  const auto parsed = pb::util::JsonStringToMessage(body, request.get());
  if (!parsed.ok()) {
    const std::string why(parsed.message());
    return {400, ErrorJson(400, absl::StrCat("the request body is not a ",
                                             method->input_type()->name(), " in JSON: ",
                                             why.substr(0, 300)))};
  }
  for (const auto& [field, pattern] : route.path_fields) {
    const pb::FieldDescriptor* given = request->GetDescriptor()->FindFieldByName(field);
    if (given != nullptr && request->GetReflection()->HasField(*request, given)) {
      return {400, ErrorJson(400, absl::StrCat("the request body sets \"", given->json_name(),
                                               "\", which the address gives: leave it out"))};
    }
  }
  return Invoke(route, *method, captures, *request, token, true);
}

JsonAnswer ApiCaller::Invoke(const ApiRoute& route, const pb::MethodDescriptor& method,
                             const std::vector<std::string>& captures, pb::Message& request,
                             const std::string& token, bool write) const {
  for (const auto& [field, pattern] : route.path_fields) {
    std::string value = pattern;
    for (std::size_t i = 1; i < captures.size(); ++i) {
      value = absl::StrReplaceAll(value, {{absl::StrCat("{", i, "}"), captures[i]}});
    }
    if (absl::Status s = SetField(request, field, value); !s.ok()) {
      return {500, ErrorJson(500, "internal error")};
    }
  }
  std::unique_ptr<pb::Message> response(
      pb::MessageFactory::generated_factory()->GetPrototype(method.output_type())->New());
  grpc::ClientContext context;
  context.AddMetadata("authorization", token.empty() ? authorization_ : "Bearer " + token);
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(30));
  const grpc::internal::RpcMethod rpc(route.rpc.c_str(), grpc::internal::RpcMethod::NORMAL_RPC);
  grpc::Status status = grpc::internal::BlockingUnaryCall<pb::Message, pb::Message>(
      channel_.get(), rpc, &context, request, response.get());
  if (!status.ok()) return ErrorAnswer(status, !token.empty(), write);
  std::string json;
  pb::util::JsonPrintOptions options;
  options.preserve_proto_field_names = false;
  if (!pb::util::MessageToJsonString(*response, &json, options).ok()) {
    return {500, ErrorJson(500, "internal error")};
  }
  return {200, std::move(json)};
}

JsonAnswer ErrorAnswer(const grpc::Status& status, bool signed_in, bool write) {
  if (signed_in && status.error_code() == grpc::StatusCode::UNAUTHENTICATED) {
    return {401, ErrorJson(401, "the sign-in token is not accepted: unknown, expired or revoked")};
  }
  // A write refused to a caller who may read the game says why (another
  // seat's move, a role that writes nothing); a game the caller may not
  // see is NOT_FOUND there, and reads answer 404 alike for both.
  if (write && status.error_code() == grpc::StatusCode::PERMISSION_DENIED) {
    return {403, ErrorJson(403, status.error_message())};
  }
  const int http = HttpStatusFor(status.error_code());
  // 404s say the same whether the thing is missing or private.
  std::string message = http == 404   ? "not found"
                        : http == 500 ? "internal error"
                                      : status.error_message();
  return {http, ErrorJson(http, message)};
}

}  // namespace arbiter::web
