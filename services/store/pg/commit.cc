#include "services/store/pg/commit.h"

#include <pqxx/pqxx>

#include <string>

namespace arbiter::store::pg {

bool NoticeWatch::operator()(const char message[]) noexcept {
  try {
    heard_ += message;
  } catch (...) {
    // Out of memory: the flag below still says a notice came.
  }
  noticed_ = true;
  return true;  // older handlers still see it
}

CommitOutcome CommitAndWatch(pqxx::transaction_base& txn, std::string* notice) {
  NoticeWatch watch(txn.conn());
  try {
    txn.commit();
  } catch (const pqxx::in_doubt_error& error) {
    if (notice != nullptr) *notice = error.what();
    return CommitOutcome::kUnknown;
  }
  if (!watch.noticed()) return CommitOutcome::kCommitted;
  if (notice != nullptr) *notice = watch.heard();
  return CommitOutcome::kUnknown;
}

CommitOutcome ConfirmDurable(pqxx::transaction_base& txn, std::string* notice) {
  // A commit waits for the standbys only if its transaction wrote WAL
  // before the commit record: a transactional message is the least such
  // write, and touches no table.
  txn.exec("SELECT pg_logical_emit_message(true, 'arbiter', 'durable')");
  return CommitAndWatch(txn, notice);
}

}  // namespace arbiter::store::pg
