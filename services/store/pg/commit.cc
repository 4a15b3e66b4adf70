#include "services/store/pg/commit.h"

#include <pqxx/pqxx>

#include <string>

namespace arbiter::store::pg {
namespace {

// Records every notice the connection receives while it lives.
class NoticeWatch final : public pqxx::errorhandler {
 public:
  explicit NoticeWatch(pqxx::connection_base& conn) : pqxx::errorhandler(conn) {}

  bool operator()(const char message[]) noexcept override {
    try {
      heard_ += message;
    } catch (...) {
      // Out of memory: the flag below still says a notice came.
    }
    noticed_ = true;
    return true;  // older handlers (logging) still see it
  }

  bool noticed() const { return noticed_; }
  const std::string& heard() const { return heard_; }

 private:
  bool noticed_ = false;
  std::string heard_;
};

}  // namespace

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
