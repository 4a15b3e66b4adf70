// GroupCommit: every item is written once, in a group no larger than the
// limits, by at most max_writers writers at a time; items that arrive while
// a group is being written wait and go together in the next one.
#include "services/store/internal/group_commit.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"

namespace arbiter::store::internal {
namespace {

struct Item {
  int id = 0;
  int written = 0;   // times a group held it
  int group = -1;    // which group
};

void WaitUntilQueued(GroupCommit<Item>& queue, std::size_t count) {
  while (queue.waiting() < count) absl::SleepFor(absl::Milliseconds(1));
}

TEST(GroupCommitTest, ALoneItemIsWrittenAtOnceByItsOwnThread) {
  GroupCommit<Item> queue(GroupCommitLimits{});
  Item item{7};
  std::thread::id writer;
  queue.Write(item, 10, [&](const std::vector<Item*>& group) {
    writer = std::this_thread::get_id();
    ASSERT_EQ(group.size(), 1u);
    ++group[0]->written;
  });
  EXPECT_EQ(item.written, 1);
  EXPECT_EQ(writer, std::this_thread::get_id());
}

// The first item's write is held until everyone else has queued behind it:
// they are then written as one group, in the order they queued.
TEST(GroupCommitTest, ItemsQueuedDuringAWriteGoTogetherInTheNextGroup) {
  GroupCommit<Item> queue(GroupCommitLimits{.max_writers = 1, .max_items = 32});
  absl::Notification first_started, release_first;
  std::vector<std::vector<int>> groups;
  absl::Mutex mu;
  auto write = [&](const std::vector<Item*>& group) {
    std::vector<int> ids;
    for (Item* item : group) {
      ids.push_back(item->id);
      ++item->written;
    }
    {
      absl::MutexLock lock(&mu);
      groups.push_back(ids);
    }
    if (ids == std::vector<int>{0}) {
      first_started.Notify();
      release_first.WaitForNotification();
    }
  };
  std::vector<Item> items(6);
  for (int i = 0; i < 6; ++i) items[i].id = i;
  std::thread first([&] { queue.Write(items[0], 1, write); });
  first_started.WaitForNotification();
  std::vector<std::thread> rest;
  for (int i = 1; i < 6; ++i) {
    rest.emplace_back([&, i] { queue.Write(items[i], 1, write); });
    WaitUntilQueued(queue, i);  // so they queue in id order
  }
  release_first.Notify();
  first.join();
  for (std::thread& t : rest) t.join();
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0], std::vector<int>({0}));
  EXPECT_EQ(groups[1], std::vector<int>({1, 2, 3, 4, 5}));
  for (const Item& item : items) EXPECT_EQ(item.written, 1);
}

TEST(GroupCommitTest, AGroupKeepsToItsItemAndByteLimits) {
  GroupCommit<Item> queue(GroupCommitLimits{.max_writers = 1, .max_items = 3, .max_bytes = 250});
  absl::Notification first_started, release_first;
  std::vector<std::vector<int>> groups;
  auto write = [&](const std::vector<Item*>& group) {
    std::vector<int> ids;
    for (Item* item : group) ids.push_back(item->id);
    groups.push_back(ids);  // one writer at a time: no lock needed
    if (ids == std::vector<int>{0}) {
      first_started.Notify();
      release_first.WaitForNotification();
    }
  };
  // Sizes: item 0 holds the writer; 1-3 are 100 bytes (two fit in 250);
  // 4 is 1000 bytes (over the limit alone: written alone); 5-8 are 1 byte
  // (three fit in a group).
  const std::vector<std::size_t> sizes = {1, 100, 100, 100, 1000, 1, 1, 1, 1};
  std::vector<Item> items(sizes.size());
  for (size_t i = 0; i < items.size(); ++i) items[i].id = static_cast<int>(i);
  std::thread first([&] { queue.Write(items[0], sizes[0], write); });
  first_started.WaitForNotification();
  std::vector<std::thread> rest;
  for (size_t i = 1; i < items.size(); ++i) {
    rest.emplace_back([&, i] { queue.Write(items[i], sizes[i], write); });
    WaitUntilQueued(queue, i);
  }
  release_first.Notify();
  first.join();
  for (std::thread& t : rest) t.join();
  const std::vector<std::vector<int>> expected = {{0}, {1, 2}, {3}, {4}, {5, 6, 7}, {8}};
  EXPECT_EQ(groups, expected);
}

// A write that throws (which the store's never does) still releases its
// group and the queue: the exception reaches the writer's caller, and the
// next item is written normally.
TEST(GroupCommitTest, AThrowingWriteReleasesTheQueue) {
  GroupCommit<Item> queue(GroupCommitLimits{.max_writers = 1});
  Item first{1}, second{2};
  auto fail = [](const std::vector<Item*>&) { throw std::runtime_error("write failed"); };
  EXPECT_THROW(queue.Write(first, 1, fail), std::runtime_error);
  queue.Write(second, 1, [](const std::vector<Item*>& group) {
    for (Item* item : group) ++item->written;
  });
  EXPECT_EQ(second.written, 1);
  EXPECT_EQ(queue.waiting(), 0u);
}

// Many threads, many items: each is written exactly once, no group is
// larger than allowed, and no more than max_writers groups are written at
// the same time.
TEST(GroupCommitTest, UnderConcurrencyEveryItemIsWrittenOnceWithinTheLimits) {
  constexpr int kThreads = 16;
  constexpr int kItemsPerThread = 200;
  const GroupCommitLimits limits{.max_writers = 2, .max_items = 5};
  GroupCommit<Item> queue(limits);
  std::atomic<int> writing{0}, most_writing{0}, groups{0}, largest{0};
  auto write = [&](const std::vector<Item*>& group) {
    const int now = ++writing;
    int seen = most_writing.load();
    while (now > seen && !most_writing.compare_exchange_weak(seen, now)) {
    }
    int big = largest.load();
    const int size = static_cast<int>(group.size());
    while (size > big && !largest.compare_exchange_weak(big, size)) {
    }
    const int number = groups++;
    for (Item* item : group) {
      ++item->written;
      item->group = number;
    }
    std::this_thread::yield();
    --writing;
  };
  std::vector<std::vector<Item>> items(kThreads, std::vector<Item>(kItemsPerThread));
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (Item& item : items[t]) queue.Write(item, 1, write);
    });
  }
  for (std::thread& t : threads) t.join();
  for (const std::vector<Item>& list : items) {
    for (const Item& item : list) ASSERT_EQ(item.written, 1);
  }
  EXPECT_LE(most_writing.load(), limits.max_writers);
  EXPECT_LE(largest.load(), limits.max_items);
  EXPECT_GE(groups.load(), kThreads * kItemsPerThread / limits.max_items);
  EXPECT_LE(groups.load(), kThreads * kItemsPerThread);
}

}  // namespace
}  // namespace arbiter::store::internal
