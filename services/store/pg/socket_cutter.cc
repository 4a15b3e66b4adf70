#include "services/store/pg/socket_cutter.h"

#include <sys/socket.h>

namespace arbiter::store::pg {

void SocketCutter::Arm(int socket, absl::Time deadline) {
  absl::MutexLock lock(&mu_);
  socket_ = socket;
  deadline_ = deadline;
  cut_ = false;
}

bool SocketCutter::Disarm() {
  absl::MutexLock lock(&mu_);
  socket_ = -1;
  deadline_ = absl::InfiniteFuture();
  return cut_;
}

bool SocketCutter::CutIfLate(absl::Time now) {
  absl::MutexLock lock(&mu_);
  if (socket_ < 0 || cut_ || now < deadline_) return false;
  // Not close(): the socket stays libpq's, which now sees it shut.
  ::shutdown(socket_, SHUT_RDWR);
  cut_ = true;
  return true;
}

}  // namespace arbiter::store::pg
