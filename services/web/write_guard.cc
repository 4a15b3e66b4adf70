#include "services/web/write_guard.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace arbiter::web {

WriteRefusal CheckWrite(const WriteRequest& request) {
  if (!request.signed_in) {
    return {401, "sign in first: a move is written with your own token (your seat token or the "
                 "sign-in link the organiser gave you); a visitor who is not signed in writes "
                 "nothing"};
  }
  const std::string type = absl::AsciiStrToLower(request.content_type);
  if (type != "application/json" && !absl::StartsWith(type, "application/json;")) {
    return {415, "send the move as Content-Type: application/json"};
  }
  if (request.origin.empty()) {
    return {403, "a move must come from this site's own pages: the request has no Origin header"};
  }
  if (request.origin != absl::StrCat("http://", request.host) &&
      request.origin != absl::StrCat("https://", request.host)) {
    return {403, absl::StrCat("a move must come from this site's own pages: the request comes "
                              "from ", request.origin.substr(0, 200), ", not from ",
                              request.host.substr(0, 200))};
  }
  if (!request.sec_fetch_site.empty() && request.sec_fetch_site != "same-origin") {
    return {403, absl::StrCat("a move must come from this site's own pages: the browser says the "
                              "request is ", request.sec_fetch_site.substr(0, 40))};
  }
  return {};
}

}  // namespace arbiter::web
