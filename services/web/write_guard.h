// The checks a write through the website (a move posted by the table page)
// passes before it reaches the API: a signed-in visitor, a JSON body, and a
// request that comes from this site's own pages. The sign-in cookie is
// SameSite=Strict, so another site's request does not carry it; these
// checks refuse such a request again by its Origin and Sec-Fetch-Site
// headers, which a browser sets and a page cannot (docs/web.md, "Playing").
#ifndef ARBITER_SERVICES_WEB_WRITE_GUARD_H_
#define ARBITER_SERVICES_WEB_WRITE_GUARD_H_

#include <string>

namespace arbiter::web {

// The parts of a POST the checks read.
struct WriteRequest {
  bool signed_in = false;
  std::string host;            // Host
  std::string origin;          // Origin ("" when absent)
  std::string sec_fetch_site;  // Sec-Fetch-Site ("" when absent)
  std::string content_type;    // Content-Type
};

// Why a write is refused: an HTTP status and a sentence; status 0 when it
// may go on.
struct WriteRefusal {
  int status = 0;
  std::string message;
};

WriteRefusal CheckWrite(const WriteRequest& request);

}  // namespace arbiter::web

#endif  // ARBITER_SERVICES_WEB_WRITE_GUARD_H_
