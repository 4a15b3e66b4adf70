// libFuzzer target for the log reader and the referee: any bytes must give a
// clean error or a verdict, never a crash, a hang or a leak.
//   CC=clang CXX=clang++ BUILD_DIR=build-fuzz scripts/build -DARBITER_FUZZ=ON
//   build-fuzz/bin/log_reader_fuzzer -dict=tests/fuzz/log.dict -max_len=16384
//       -max_total_time=600 NEW_CORPUS_DIR tests/fuzz/corpus
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/core/ruleset_registry.h"
#include "services/log/log_file.h"
#include "services/replay/replay.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const arbiter::engine::RulesetRegistry* registry = [] {
    auto r = arbiter::engine::RulesetRegistry::WithBuiltins();
    if (!r.ok()) __builtin_trap();
    return new arbiter::engine::RulesetRegistry(*std::move(r));
  }();
  arbiter::log::LogLimits limits;
  limits.max_line_bytes = 1 << 16;
  limits.max_actions = 2000;
  auto log = arbiter::log::ParseLog(std::string_view(reinterpret_cast<const char*>(data), size), limits);
  if (!log.ok()) return 0;
  auto referee = arbiter::replay::Replay(*log, *registry);
  if (referee.ok()) (void)arbiter::replay::MakeReport(*referee);
  return 0;
}
