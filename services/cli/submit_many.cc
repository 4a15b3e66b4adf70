#include "services/cli/submit_many.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <iostream>
#include <thread>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/cli/cli_common.h"
#include "services/cli/error_hints.h"
#include "services/cli/submit_plan.h"
#include "services/cli/submit_summary.h"

namespace arbiter::cli {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;

void OnInterrupt(int) { g_interrupted = 1; }

// For its lifetime the first Ctrl-C sets g_interrupted and the second stops
// the process at once (the handler resets itself); the previous handler is
// restored at the end.
class InterruptHandler {
 public:
  InterruptHandler() {
    g_interrupted = 0;
    struct sigaction action {};
    action.sa_handler = OnInterrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &action, &previous_);
  }
  ~InterruptHandler() { sigaction(SIGINT, &previous_, nullptr); }
  InterruptHandler(const InterruptHandler&) = delete;
  InterruptHandler& operator=(const InterruptHandler&) = delete;

 private:
  struct sigaction previous_ {};
};

std::string FirstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

FileResult Failed(std::string reason, int exit_code) {
  FileResult result;
  result.outcome = SubmitOutcome::kFailed;
  result.reason = std::move(reason);
  result.exit_code = exit_code;
  return result;
}

// A stored game: its verdict, and the broken rule or how far it got.
FileResult ResultOfAnswer(const v1::SubmitGameResponse& response) {
  FileResult result;
  result.game = response.game().name();
  if (!response.game().duplicate_of().empty()) {
    result.duplicate_of = GameNameArg(response.game().duplicate_of());
  }
  const v1::Adjudication& adjudication = response.adjudication();
  result.exit_code = ExitCodeForVerdict(adjudication.verdict());
  switch (adjudication.verdict()) {
    case v1::VERDICT_LEGAL:
      result.outcome = SubmitOutcome::kLegal;
      break;
    case v1::VERDICT_ILLEGAL: {
      const v1::RuleViolation& violation = adjudication.violation();
      result.outcome = SubmitOutcome::kIllegal;
      result.reason = absl::StrCat("line ", violation.event(), " (", violation.player(),
                                   ") breaks rule ", violation.rule(), ": ",
                                   FirstLine(violation.detail()));
      break;
    }
    case v1::VERDICT_UNFINISHED:
      result.outcome = SubmitOutcome::kUnfinished;
      result.reason = absl::StrCat("legal after ", adjudication.actions(), " actions, not finished");
      break;
    default:
      result = Failed("the server answered without a verdict", kExitFailure);
  }
  return result;
}

// A refusal: a duplicate of a stored game, or a failure with its code.
FileResult ResultOfRefusal(const grpc::Status& status) {
  const std::optional<google::rpc::ErrorInfo> info = RpcErrorInfo(status);
  if (status.error_code() == grpc::StatusCode::ALREADY_EXISTS && info.has_value() &&
      info->reason() == "DUPLICATE_GAME") {
    FileResult result;
    result.outcome = SubmitOutcome::kDuplicate;
    const auto game = info->metadata().find("game");
    if (game != info->metadata().end()) result.game = GameNameArg(game->second);
    result.exit_code = kExitBadInput;
    return result;
  }
  return Failed(absl::StrCat(RpcCodeName(status.error_code()), ": ",
                             FirstLine(status.error_message())),
                ExitCodeFor(status.error_code(), info.value_or(google::rpc::ErrorInfo())));
}

// One run over a plan: workers take the plan's groups in order and submit
// each group's files one after the other; progress goes to stderr.
class SubmitRun {
 public:
  SubmitRun(const SubmitManyOptions& options, const Client& client, const SubmitPlan& plan,
            std::size_t max_log_bytes)
      : options_(options),
        client_(client),
        plan_(plan),
        max_log_bytes_(max_log_bytes),
        tty_(isatty(STDERR_FILENO) == 1),
        results_(plan.files.size()) {}

  // Returns once every file has its answer, or after Ctrl-C once the
  // submissions in flight have theirs.
  std::vector<FileResult> Run() {
    const std::size_t threads =
        std::min(static_cast<std::size_t>(std::max(options_.jobs, 1)), plan_.groups.size());
    std::vector<std::thread> workers;
    {
      absl::MutexLock lock(&mu_);
      running_ = threads;
    }
    for (std::size_t i = 0; i < threads; ++i) workers.emplace_back([this] { Work(); });
    WaitForWorkers();
    for (std::thread& worker : workers) worker.join();
    if (tty_) std::cerr << "\r\33[K" << std::flush;
    absl::MutexLock lock(&mu_);
    return results_;
  }

 private:
  void Work() {
    for (;;) {
      const std::size_t group = next_group_.fetch_add(1);
      if (group >= plan_.groups.size()) break;
      for (const std::size_t index : plan_.groups[group]) {
        if (!Begin()) break;
        Finished(index, Submit(plan_.files[index]));
      }
    }
    absl::MutexLock lock(&mu_);
    --running_;
  }

  // Returns when every worker is done; says once, as soon as Ctrl-C is
  // pressed, that no more files are sent.
  void WaitForWorkers() {
    absl::MutexLock lock(&mu_);
    const auto all_done = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return running_ == 0; };
    while (!all_done()) {
      mu_.AwaitWithTimeout(absl::Condition(&all_done), absl::Milliseconds(50));
      if (g_interrupted == 0 || stop_announced_) continue;
      stop_announced_ = true;
      std::cerr << (tty_ ? "\r\33[K" : "") << "arbiter: interrupted: sending no more files";
      if (in_flight_ > 0) {
        std::cerr << "; waiting for " << in_flight_
                  << (in_flight_ == 1 ? " submission" : " submissions") << " in flight";
      }
      std::cerr << " (Ctrl-C again quits at once)\n" << std::flush;
    }
  }

  // False once Ctrl-C was pressed; otherwise counts one more submission in
  // flight.
  bool Begin() {
    absl::MutexLock lock(&mu_);
    if (g_interrupted != 0) return false;
    ++in_flight_;
    return true;
  }

  void Finished(std::size_t index, FileResult result) {
    absl::MutexLock lock(&mu_);
    --in_flight_;
    results_[index] = std::move(result);
    ++answered_;
    const std::string counter = absl::StrCat("[", answered_, "/", results_.size(), "] ");
    if (tty_) {
      std::cerr << "\r\33[K" << counter << CountsText(results_) << std::flush;
    } else {
      std::cerr << counter << FileLine(plan_.files[index].path, results_[index]) << "\n"
                << std::flush;
    }
  }

  FileResult Submit(const PlannedFile& file) const {
    if (!file.unreadable.ok()) return Failed(std::string(file.unreadable.message()), kExitBadInput);
    absl::StatusOr<std::string> content = ReadFile(file.path, max_log_bytes_);
    if (!content.ok()) return Failed(std::string(content.status().message()), kExitBadInput);
    if (SubmitRequestId(*content, file.copy) != file.request_id) {
      return Failed("the file changed during the run; run the command again",
                    kExitBadInput);
    }
    v1::SubmitGameRequest request;
    request.set_request_id(file.request_id);
    request.set_log(*std::move(content));
    request.set_league(options_.league);
    request.set_tournament(options_.tournament);
    request.set_allow_duplicate(options_.allow_duplicate);
    v1::SubmitGameResponse response;
    const grpc::Status status =
        client_.games->SubmitGame(NewContext(client_).get(), request, &response);
    return status.ok() ? ResultOfAnswer(response) : ResultOfRefusal(status);
  }

  const SubmitManyOptions& options_;
  const Client& client_;
  const SubmitPlan& plan_;
  const std::size_t max_log_bytes_;
  const bool tty_;
  std::atomic<std::size_t> next_group_{0};
  absl::Mutex mu_;
  std::vector<FileResult> results_ ABSL_GUARDED_BY(mu_);
  std::size_t answered_ ABSL_GUARDED_BY(mu_) = 0;
  int in_flight_ ABSL_GUARDED_BY(mu_) = 0;
  bool stop_announced_ ABSL_GUARDED_BY(mu_) = false;
  std::size_t running_ ABSL_GUARDED_BY(mu_) = 0;  // workers not yet done
};

}  // namespace

int RunSubmitMany(const SubmitManyOptions& options, std::size_t max_log_bytes) {
  absl::StatusOr<std::vector<std::string>> files = FilesOfPaths(options.paths);
  if (!files.ok()) return ReportError(files.status());
  absl::StatusOr<Client> client = Connect(options.client);
  if (!client.ok()) return ReportError(client.status());
  const SubmitPlan plan = PlanSubmissions(*files, max_log_bytes);
  std::vector<FileResult> results;
  {
    InterruptHandler interrupts;
    results = SubmitRun(options, *client, plan, max_log_bytes).Run();
  }
  const bool interrupted = AnsweredCount(results) < results.size();
  const int exit_code = RunExitCode(results, interrupted);
  if (options.client.json) {
    std::cout << SummaryJson(*files, results, interrupted, exit_code) << "\n";
  } else {
    std::cout << SummaryText(*files, results, interrupted);
  }
  return exit_code;
}

}  // namespace arbiter::cli
