// SHA-256 of byte strings, as lowercase hex (OpenSSL underneath).
#ifndef ARBITER_ENGINE_CORE_SHA256_H_
#define ARBITER_ENGINE_CORE_SHA256_H_

#include <memory>
#include <string>
#include <string_view>

namespace arbiter::engine {

// 64 lowercase hex digits.
std::string Sha256Hex(std::string_view bytes);

// SHA-256 of bytes given in parts: Sha256Hex of their concatenation.
class Sha256Stream {
 public:
  Sha256Stream();
  ~Sha256Stream();
  Sha256Stream(const Sha256Stream&) = delete;
  Sha256Stream& operator=(const Sha256Stream&) = delete;

  void Update(std::string_view bytes);
  // 64 lowercase hex digits; the stream is spent afterwards.
  std::string FinishHex();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// True if `text` is 64 lowercase hex digits.
bool IsSha256Hex(std::string_view text);

}  // namespace arbiter::engine

#endif  // ARBITER_ENGINE_CORE_SHA256_H_
