#include "services/replay/replay.h"

namespace arbiter::replay {

absl::StatusOr<Referee> Replay(const log::GameLog& log, const engine::RulesetRegistry& registry,
                               const ReplayOptions& options) {
  auto referee = Referee::Start(log.header, registry);
  if (!referee.ok()) return referee.status();
  for (std::size_t i = 0; i < log.actions.size(); ++i) {
    const int64_t line = log::LineOfAction(i);
    if (options.stop_after_line.has_value() && line > *options.stop_after_line) break;
    auto violation = referee->Apply(log.actions[i], line);
    if (!violation.ok()) return violation.status();
    if (violation->has_value()) break;
  }
  return referee;
}

v1::ReplayReport MakeReport(const Referee& referee) {
  v1::ReplayReport report;
  report.set_verdict(VerdictName(referee.verdict()));
  report.set_game(referee.header().game());
  report.set_ruleset_id(referee.header().ruleset_id());
  report.set_actions(referee.actions_applied() + (referee.violation().has_value() ? 1 : 0));
  if (const auto& violation = referee.violation()) {
    v1::RuleViolation* out = report.mutable_violation();
    out->set_event(violation->event);
    out->set_rule(violation->violation.rule);
    out->set_detail(violation->violation.detail);
    out->set_player(violation->player);
    out->set_action_text(violation->action_text);
  }
  if (std::optional<v1::Standings> standings = referee.Standings()) {
    *report.mutable_standings() = standings->players();
    report.set_cooperative(standings->cooperative());
    report.set_team_outcome(standings->team_outcome());
    *report.mutable_team_breakdown() = standings->team_breakdown();
  }
  return report;
}

}  // namespace arbiter::replay
