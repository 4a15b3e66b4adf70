// SHA-256 of byte strings, as lowercase hex (OpenSSL underneath).
#ifndef ARBITER_ENGINE_CORE_SHA256_H_
#define ARBITER_ENGINE_CORE_SHA256_H_

#include <string>
#include <string_view>

namespace arbiter::engine {

// 64 lowercase hex digits.
std::string Sha256Hex(std::string_view bytes);

// True if `text` is 64 lowercase hex digits.
bool IsSha256Hex(std::string_view text);

}  // namespace arbiter::engine

#endif  // ARBITER_ENGINE_CORE_SHA256_H_
