// Verdicts and standings as text for people.
#ifndef ARBITER_SERVICES_CLI_REPORT_TEXT_H_
#define ARBITER_SERVICES_CLI_REPORT_TEXT_H_

#include <string>

#include "arbiter/v1/log.pb.h"
#include "arbiter/v1/report.pb.h"

namespace arbiter::cli {

// "verdict: illegal\n  line 7 (p2): toll_not_covered: ...\nstandings: ...".
// The first line shows `seed_text` as the seed ("(hidden)", "sealed"), or
// the header's seed when it is empty.
std::string FormatReport(const v1::ReplayReport& report, const v1::LogHeader& header,
                         const std::string& seed_text = "");

}  // namespace arbiter::cli

#endif  // ARBITER_SERVICES_CLI_REPORT_TEXT_H_
