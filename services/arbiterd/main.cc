// arbiterd: the Arbiter gRPC server.
//
// With no flags it runs on an embedded PostgreSQL in ./arbiter-data, listens
// on 127.0.0.1:50051, applies the migrations, writes a bootstrap admin token
// on its first start and prints how to connect. SIGTERM or SIGINT stops it
// gracefully: no new calls are taken, calls in flight finish (their writes
// are committed before they are acknowledged), then the database stops. If
// stopping still waits on the database after --stop-timeout seconds, the
// process exits with status 3 without it.
#include <signal.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "services/arbiterd/arbiterd.h"
#include "services/arbiterd/flags.h"

namespace {

// Blocks SIGTERM and SIGINT on every thread (threads started later inherit
// the mask), so that only WaitForStopSignal takes them.
sigset_t BlockStopSignals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  return signals;
}

// Exit status when stopping outlasts --stop-timeout.
constexpr int kStopTimedOut = 3;

// Ends the process if it is still stopping `seconds` from now (0: never).
// A call stuck on the database cannot be interrupted from outside libpq;
// leaving it is what a SIGKILL would do, and a write it was making is
// answered to a retry by its request id.
void ExitIfStoppingOutlasts(int seconds) {
  if (seconds == 0) return;
  std::thread([seconds] {
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    spdlog::critical(
        "still stopping {}s after the signal (--stop-timeout): calls or background work wait "
        "on a database that does not answer (for example commits waiting for a synchronous "
        "standby that no longer follows a fenced old primary); exiting without them. A write "
        "that was not acknowledged is answered to a retry with its request id",
        seconds);
    spdlog::default_logger()->flush();
    std::_Exit(kStopTimedOut);
  }).detach();
}

int Run(int argc, char** argv) {
  CLI::App app{"arbiterd: the Arbiter gRPC server (games, verdicts, audits)"};
  arbiter::arbiterd::Flags flags;
  arbiter::arbiterd::AddFlags(app, flags);
  CLI11_PARSE(app, argc, argv);
  arbiter::arbiterd::Complete(flags);
  if (flags.stop_timeout_seconds != 0 && flags.stop_timeout_seconds <= flags.grace_seconds) {
    std::fprintf(stderr, "--stop-timeout (%d) must be 0 or more than --shutdown-grace (%d)\n",
                 flags.stop_timeout_seconds, flags.grace_seconds);
    return 2;
  }
  spdlog::set_default_logger(spdlog::stderr_color_mt("arbiterd"));
  spdlog::set_level(spdlog::level::from_str(flags.log_level));
  const sigset_t stop_signals = BlockStopSignals();

  auto arbiterd = arbiter::arbiterd::Arbiterd::Start(flags);
  if (!arbiterd.ok()) {
    spdlog::critical("{}", std::string(arbiterd.status().message()));
    return 1;
  }
  (*arbiterd)->PrintBanner();
  int signal_number = 0;
  sigwait(&stop_signals, &signal_number);
  spdlog::info("signal {}: shutting down (calls in flight get {}s)", signal_number,
               flags.grace_seconds);
  ExitIfStoppingOutlasts(flags.stop_timeout_seconds);
  (*arbiterd)->Stop();
  spdlog::info("stopped");
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return Run(argc, argv); }
