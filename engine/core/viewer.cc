#include "engine/core/viewer.h"

#include "absl/strings/str_cat.h"

namespace arbiter::engine {

std::string Viewer::ToString() const {
  switch (kind_) {
    case Kind::kEveryone:
      return "everyone";
    case Kind::kSpectator:
      return "spectator";
    case Kind::kSeat:
      return absl::StrCat("seat ", seat_ + 1);
  }
  return "?";
}

}  // namespace arbiter::engine
