#include "services/cli/cli_common.h"

#include <cerrno>
#include <fstream>
#include <iostream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "services/log/file_status.h"

namespace arbiter::cli {

absl::StatusOr<std::string> ReadFile(const std::string& path, std::size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return log::FileOpenError(path, errno);
  std::string content;
  std::vector<char> buffer(1 << 16);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    content.append(buffer.data(), static_cast<std::size_t>(in.gcount()));
    if (content.size() > max_bytes) {
      return absl::InvalidArgumentError(absl::StrCat(path, ": larger than the limit of ", max_bytes, " bytes"));
    }
  }
  if (in.bad()) return absl::InvalidArgumentError(absl::StrCat(path, ": read error"));
  return content;
}

absl::StatusOr<engine::RulesetRegistry> LoadRegistry(const GlobalOptions& options) {
  auto registry = engine::RulesetRegistry::WithBuiltins();
  if (!registry.ok()) return registry.status();
  for (const std::string& path : options.ruleset_files) {
    auto text = ReadFile(path, std::size_t{1} << 20);
    if (!text.ok()) return text.status();
    auto registered = registry->Register(*text);
    if (!registered.ok()) {
      return absl::Status(registered.status().code(),
                          absl::StrCat(path, ": ", registered.status().message()));
    }
  }
  return registry;
}

int ReportError(const absl::Status& status) {
  std::cerr << "arbiter: " << status.message() << "\n";
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kAlreadyExists:
    case absl::StatusCode::kOutOfRange:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kUnauthenticated:
      return kExitBadInput;
    default:
      return kExitFailure;
  }
}

}  // namespace arbiter::cli
