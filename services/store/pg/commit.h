// Commits whose outcome the caller must know before it answers anyone.
//
// PostgreSQL can end a COMMIT without saying whether the transaction is
// durable:
// - the connection is lost while COMMIT runs (libpqxx: in_doubt_error): the
//   transaction may or may not have committed;
// - the commit waited for a synchronous standby and the wait was cancelled
//   (pg_cancel_backend, a shutdown): the transaction committed on this server
//   only, and PostgreSQL says so in a warning ("the transaction has already
//   committed locally, but might not have been replicated to the standby").
//   If this server is then lost, so is the transaction.
// CommitAndWatch tells those apart from a plain commit. A caller that meets
// an unknown outcome looks its writes up again, on a new connection, in a
// transaction that ConfirmDurable commits: a commit that returns plainly is
// on a synchronous standby, and so is every commit before it.
#ifndef ARBITER_SERVICES_STORE_PG_COMMIT_H_
#define ARBITER_SERVICES_STORE_PG_COMMIT_H_

#include <pqxx/errorhandler>
#include <pqxx/transaction_base>

#include <stdexcept>
#include <string>

namespace arbiter::store::pg {

// Records every notice a connection receives while it lives (a statement
// in autocommit is its own commit: a notice during it is what the warning
// at COMMIT is to a transaction).
class NoticeWatch final : public pqxx::errorhandler {
 public:
  explicit NoticeWatch(pqxx::connection_base& conn) : pqxx::errorhandler(conn) {}
  bool operator()(const char message[]) noexcept override;
  bool noticed() const { return noticed_; }
  const std::string& heard() const { return heard_; }

 private:
  bool noticed_ = false;
  std::string heard_;
};

// Thrown by a writer whose autocommit statement ended with a notice: the
// caller looks its writes up again.
class CommitOutcomeUnknown : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class CommitOutcome {
  kCommitted,  // COMMIT returned with no notice: committed and durable
  kUnknown,    // the connection was lost during COMMIT, or PostgreSQL warned
};

// Commits `txn`. kUnknown if the connection was lost while COMMIT ran, or
// if PostgreSQL sent any notice while it ran (notices are translated, so
// any notice counts: at COMMIT only the cancelled wait for a standby sends
// one); `notice`, if given, then receives what was said. Throws what
// libpqxx throws for a failure before COMMIT was sent (nothing committed).
CommitOutcome CommitAndWatch(pqxx::transaction_base& txn, std::string* notice = nullptr);

// Makes `txn` write to the WAL (a transactional logical message, which
// touches no table), so that its commit waits for the synchronous standbys
// like any write, then commits it as CommitAndWatch does. kCommitted means every transaction that committed on
// this server before `txn` began is durable too.
CommitOutcome ConfirmDurable(pqxx::transaction_base& txn, std::string* notice = nullptr);

}  // namespace arbiter::store::pg

#endif  // ARBITER_SERVICES_STORE_PG_COMMIT_H_
