// GroupCommit: lets concurrent callers share one write.
//
// Each caller queues its item and waits. The caller at the front of the
// queue becomes a writer once fewer than `max_writers` groups are being
// written: it takes the items queued at that moment (up to `max_items` and
// `max_bytes`, its own first), writes them as one group and marks every one
// of them done. Items that arrive while a group is being written wait for
// the next group, so a busy store writes fewer, larger transactions, and an
// idle one writes each item at once, without a timer or added delay.
//
// The pattern is LevelDB's write batching (DBImpl::Write). Thread-safe.
#ifndef ARBITER_SERVICES_STORE_INTERNAL_GROUP_COMMIT_H_
#define ARBITER_SERVICES_STORE_INTERNAL_GROUP_COMMIT_H_

#include <cstddef>
#include <deque>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace arbiter::store::internal {

struct GroupCommitLimits {
  int max_writers = 1;                  // groups written at the same time
  int max_items = 32;                   // items in one group
  std::size_t max_bytes = 8 << 20;      // summed item sizes (a first item may exceed it)
};

template <typename Item>
class GroupCommit {
 public:
  explicit GroupCommit(GroupCommitLimits limits) : limits_(limits) {}
  GroupCommit(const GroupCommit&) = delete;
  GroupCommit& operator=(const GroupCommit&) = delete;

  // Queues `item` (of about `bytes` bytes) and returns once a group holding
  // it has been written, by this thread or another. `write` is called with
  // the group (a std::vector<Item*>, in queue order) and must not throw;
  // it reports each item's outcome through the item itself.
  template <typename WriteGroup>
  void Write(Item& item, std::size_t bytes, WriteGroup&& write) {
    Pending pending{&item, bytes, false};
    std::vector<Pending*> group;
    {
      absl::MutexLock lock(&mu_);
      queue_.push_back(&pending);
      // Once another writer has taken `pending` into its group the queue may
      // be empty: front() must not be read then (it is undefined, and in
      // practice could name this very item again, letting it return before
      // its group was written and leaving a dangling Pending to be marked
      // done later).
      auto my_turn = [this, &pending]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return pending.done || (!queue_.empty() && queue_.front() == &pending &&
                                writing_ < limits_.max_writers);
      };
      mu_.Await(absl::Condition(&my_turn));
      if (pending.done) return;
      std::size_t group_bytes = 0;
      while (!queue_.empty() && static_cast<int>(group.size()) < limits_.max_items &&
             (group.empty() || group_bytes + queue_.front()->bytes <= limits_.max_bytes)) {
        group_bytes += queue_.front()->bytes;
        group.push_back(queue_.front());
        queue_.pop_front();
      }
      ++writing_;
    }
    std::vector<Item*> items;
    items.reserve(group.size());
    for (Pending* member : group) items.push_back(member->item);
    // Releases the group even if `write` breaks its promise and throws, so
    // that no member waits forever.
    struct Release {
      GroupCommit* queue;
      std::vector<Pending*>* group;
      ~Release() {
        absl::MutexLock lock(&queue->mu_);
        --queue->writing_;
        // The other members' Pending live on their threads' stacks: they
        // return only after seeing `done`, which they read under mu_.
        for (Pending* member : *group) member->done = true;
      }
    } release{this, &group};
    write(items);
  }

  // Items queued and not yet taken into a group.
  std::size_t waiting() {
    absl::MutexLock lock(&mu_);
    return queue_.size();
  }

 private:
  struct Pending {
    Item* item;
    std::size_t bytes;
    bool done;
  };

  const GroupCommitLimits limits_;
  absl::Mutex mu_;
  std::deque<Pending*> queue_ ABSL_GUARDED_BY(mu_);
  int writing_ ABSL_GUARDED_BY(mu_) = 0;
};

// What GroupCommit does for concurrent callers, for one caller's list:
// hands `items` to `write` in order, in groups of at most `max_items` items
// and about `max_bytes` (a group's first item may exceed it), each item's
// size being its Bytes().
template <typename Item, typename WriteGroup>
void WriteInGroups(const std::vector<Item*>& items, int max_items, std::size_t max_bytes,
                   WriteGroup&& write) {
  std::vector<Item*> group;
  std::size_t bytes = 0;
  for (Item* item : items) {
    const std::size_t size = item->Bytes();
    if (!group.empty() &&
        (static_cast<int>(group.size()) >= max_items || bytes + size > max_bytes)) {
      write(group);
      group.clear();
      bytes = 0;
    }
    group.push_back(item);
    bytes += size;
  }
  if (!group.empty()) write(group);
}

}  // namespace arbiter::store::internal

#endif  // ARBITER_SERVICES_STORE_INTERNAL_GROUP_COMMIT_H_
