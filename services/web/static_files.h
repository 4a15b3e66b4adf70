// The site's files (services/web/static/), compiled into the binary by
// cmake/embed_files.cmake so that arbiterd serves them with nothing
// installed beside it.
#ifndef ARBITER_SERVICES_WEB_STATIC_FILES_H_
#define ARBITER_SERVICES_WEB_STATIC_FILES_H_

#include <string_view>

namespace arbiter::web {

struct StaticFile {
  std::string_view name;  // "game.js"
  std::string_view content;
};

// The file called `name`, or nullptr.
const StaticFile* FindStaticFile(std::string_view name);

// "text/html; charset=utf-8" and so on, by the name's extension.
std::string_view ContentTypeOf(std::string_view name);

}  // namespace arbiter::web

#endif  // ARBITER_SERVICES_WEB_STATIC_FILES_H_
