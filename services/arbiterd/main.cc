// arbiterd: the Arbiter gRPC server.
//
// With no flags it runs on an embedded PostgreSQL in ./arbiter-data, listens
// on 127.0.0.1:50051, applies the migrations, writes a bootstrap admin token
// on its first start and prints how to connect. SIGTERM or SIGINT stops it
// gracefully: no new calls are taken, calls in flight finish (their writes
// are committed before they are acknowledged), then the database stops.
#include <signal.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <string>

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

int Run(int argc, char** argv) {
  CLI::App app{"arbiterd: the Arbiter gRPC server (games, verdicts, audits)"};
  arbiter::arbiterd::Flags flags;
  arbiter::arbiterd::AddFlags(app, flags);
  CLI11_PARSE(app, argc, argv);
  arbiter::arbiterd::Complete(flags);
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
  (*arbiterd)->Stop();
  spdlog::info("stopped");
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return Run(argc, argv); }
