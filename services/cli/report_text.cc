#include "services/cli/report_text.h"
#include "services/cli/text_columns.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace arbiter::cli {
namespace {

std::string NameOf(const v1::LogHeader& header, const std::string& id) {
  for (const v1::Player& p : header.players()) {
    if (p.id() == id && !p.name().empty() && p.name() != id) return absl::StrCat(id, " (", p.name(), ")");
  }
  return id;
}

void AppendItems(std::string& out, const google::protobuf::RepeatedPtrField<v1::ScoreItem>& items,
                 const char* indent) {
  for (const v1::ScoreItem& item : items) {
    absl::StrAppend(&out, indent, item.label(), ": ", item.points());
    if (!item.detail().empty()) absl::StrAppend(&out, "  (", item.detail(), ")");
    out += "\n";
  }
}

}  // namespace

std::string FormatReport(const v1::ReplayReport& report, const v1::LogHeader& header,
                         const std::string& seed_text) {
  std::string out =
      absl::StrCat("game: ", report.game(), " (ruleset ", report.ruleset_id(), ", seed ",
                   seed_text.empty() ? absl::StrCat(header.seed()) : seed_text, ")\n");
  absl::StrAppend(&out, "verdict: ", report.verdict(), " after ", report.actions(), " action",
                  report.actions() == 1 ? "" : "s", "\n");
  if (report.has_violation()) {
    const v1::RuleViolation& v = report.violation();
    absl::StrAppend(&out, "  line ", v.event(), " (", NameOf(header, v.player()), ") breaks rule ", v.rule(),
                    ": ", v.detail(), "\n");
    if (!v.action_text().empty()) absl::StrAppend(&out, "    the action: ", v.action_text(), "\n");
  }
  if (report.standings_size() == 0) return out;
  if (report.cooperative()) {
    absl::StrAppend(&out, "team result: ",
                    report.team_outcome() == v1::TEAM_OUTCOME_WON ? "won" : "lost", "\n");
    AppendItems(out, report.team_breakdown(), "  ");
  }
  out += "standings:\n";
  std::vector<const v1::PlayerStanding*> order;
  for (const v1::PlayerStanding& p : report.standings()) order.push_back(&p);
  std::stable_sort(order.begin(), order.end(),
                   [](const auto* a, const auto* b) { return a->place() < b->place(); });
  for (const v1::PlayerStanding* p : order) {
    absl::StrAppend(&out, absl::StrFormat("  %d. %s %5d\n", p->place(),
                                          PadRight(NameOf(header, p->player()), 24), p->score()));
    AppendItems(out, p->breakdown(), "       ");
  }
  return out;
}

}  // namespace arbiter::cli
