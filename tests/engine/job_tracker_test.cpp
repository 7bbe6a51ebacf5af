#include "engine/job_tracker.hpp"
#include "support/status_matchers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <random>
#include <set>
#include <thread>
#include <vector>

namespace pp::engine {
namespace {

using namespace std::chrono_literals;
using tracker = job_tracker<std::string>;

job_spec spec(uint32_t parts, std::string idem = {}, priority p = priority::normal) {
  job_spec s;
  s.key_id = "porep-32g";
  s.witness = {42};
  s.prio = p;
  s.idempotency_key = std::move(idem);
  s.num_partitions = parts;
  return s;
}

TEST(JobTracker, ValidatesSpec) {
  tracker t;
  auto s = spec(0);
  EXPECT_EQ(t.submit(s).error().code(), status_code::invalid_argument);
  s = spec(2);
  s.key_id.clear();
  EXPECT_EQ(t.submit(s).error().code(), status_code::invalid_argument);
}

TEST(JobTracker, SubmitSplitsIntoOrderedTasks) {
  tracker t;
  auto a = t.submit(spec(3, {}, priority::high));
  ASSERT_THAT(a, IsOk());
  EXPECT_TRUE(a->created);
  ASSERT_EQ(a->tasks.size(), 3u);
  for (uint32_t p = 0; p < 3; ++p) {
    EXPECT_EQ(a->tasks[p].job, a->id);
    EXPECT_EQ(a->tasks[p].partition, p);
    EXPECT_EQ(a->tasks[p].num_partitions, 3u);
    EXPECT_EQ(a->tasks[p].prio, priority::high);
    EXPECT_EQ(a->tasks[p].witness, witness_handle{42});
  }
  auto b = t.submit(spec(1));
  EXPECT_GT(b->tasks[0].seq, a->tasks[2].seq);
  EXPECT_EQ(t.info(a->id)->state, job_state::queued);
}

TEST(JobTracker, IdempotencyKeyMapsToExistingJob) {
  tracker t;
  auto a = t.submit(spec(2, "req-1"));
  auto again = t.submit(spec(2, "req-1"));
  ASSERT_THAT(again, IsOk());
  EXPECT_FALSE(again->created);
  EXPECT_EQ(again->id, a->id);
  EXPECT_TRUE(again->tasks.empty());
  EXPECT_EQ(t.submit(spec(3, "req-1")).error().code(), status_code::already_exists);
  EXPECT_NE(t.submit(spec(2, "req-2"))->id, a->id);
  EXPECT_EQ(t.size(), 2u);
}

TEST(JobTracker, RejoinsPartitionsInOrder) {
  std::vector<std::pair<job_id, job_state>> ended;
  tracker t([&](job_id id, job_state s) { ended.emplace_back(id, s); });
  auto j = t.submit(spec(3));
  EXPECT_TRUE(t.begin_partition(j->id));
  EXPECT_EQ(t.info(j->id)->state, job_state::running);
  ASSERT_THAT(t.complete_partition(j->id, 2, std::string("c")), IsOk());
  ASSERT_THAT(t.complete_partition(j->id, 0, std::string("a")), IsOk());
  EXPECT_EQ(t.complete_partition(j->id, 0, std::string("a")).code(), status_code::already_exists);
  EXPECT_EQ(t.complete_partition(j->id, 3, std::string("x")).code(), status_code::invalid_argument);
  EXPECT_EQ(t.await(j->id, immediate()).error().code(), status_code::deadline_exceeded);
  ASSERT_THAT(t.complete_partition(j->id, 1, std::string("b")), IsOk());
  auto r = t.await(j->id, no_deadline());
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(*r, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(t.info(j->id)->state, job_state::succeeded);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].second, job_state::succeeded);
  EXPECT_FALSE(t.begin_partition(j->id));
}

TEST(JobTracker, FirstFailureEndsTheJobAndRaisesCancel) {
  int calls = 0;
  tracker t([&](job_id, job_state s) {
    ++calls;
    EXPECT_EQ(s, job_state::failed);
  });
  auto j = t.submit(spec(3));
  ASSERT_THAT(t.complete_partition(j->id, 0, std::string("a")), IsOk());
  ASSERT_THAT(t.complete_partition(j->id, 1, result<std::string>(internal_error("ECC error on gpu1"))), IsOk());
  EXPECT_TRUE(j->tasks[2].cancel.cancelled());
  EXPECT_EQ(t.complete_partition(j->id, 2, std::string("late")).code(), status_code::failed_precondition);
  auto r = t.await(j->id, no_deadline());
  ASSERT_THAT(r, StatusIs(status_code::internal));
  EXPECT_NE(r.error().message().find("partition 1"), std::string::npos);
  EXPECT_EQ(t.cancel(j->id).code(), status_code::failed_precondition);
  EXPECT_EQ(calls, 1);
}

TEST(JobTracker, CancelWakesAwaiter) {
  tracker t;
  auto j = t.submit(spec(2));
  status got;
  std::thread w([&] { got = t.await(j->id, no_deadline()).error(); });
  ASSERT_THAT(t.cancel(j->id), IsOk());
  w.join();
  EXPECT_EQ(got.code(), status_code::cancelled);
  EXPECT_TRUE(t.token(j->id)->cancelled());
  EXPECT_EQ(t.info(j->id)->state, job_state::cancelled);
}

TEST(JobTracker, ForgetDropsEndedJobsOnly) {
  tracker t;
  auto j = t.submit(spec(1, "k"));
  EXPECT_EQ(t.forget(j->id).code(), status_code::failed_precondition);
  ASSERT_THAT(t.complete_partition(j->id, 0, std::string("p")), IsOk());
  ASSERT_THAT(t.forget(j->id), IsOk());
  EXPECT_EQ(t.info(j->id).error().code(), status_code::not_found);
  EXPECT_TRUE(t.submit(spec(1, "k"))->created);  // the key is free again
}

// Partition results, failures and cancels race; every job still ends exactly once.
TEST(JobTracker, StressExactlyOneTerminalState) {
  constexpr int jobs = 200;
  std::mutex mu;
  std::map<job_id, int> terminal_calls;
  tracker t([&](job_id id, job_state) {
    std::lock_guard lock(mu);
    ++terminal_calls[id];
  });
  std::vector<partition_task> all;
  std::vector<job_id> ids;
  for (int i = 0; i < jobs; ++i) {
    auto s = t.submit(spec(4));
    ids.push_back(s->id);
    all.insert(all.end(), s->tasks.begin(), s->tasks.end());
  }
  std::shuffle(all.begin(), all.end(), std::mt19937(1));
  std::atomic<size_t> next{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < 6; ++w) {
    threads.emplace_back([&, w] {
      std::mt19937 rng(w);
      for (size_t i; (i = next++) < all.size();) {
        const partition_task& task = all[i];
        const unsigned roll = rng() % 20;
        if (roll == 0) {
          t.cancel(task.job).ignore();
        } else if (roll == 1) {
          t.complete_partition(task.job, task.partition, result<std::string>(internal_error("boom"))).ignore();
        } else if (t.begin_partition(task.job)) {
          t.complete_partition(task.job, task.partition, std::to_string(task.partition)).ignore();
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  int succeeded = 0;
  for (job_id id : ids) {
    auto info = t.info(id);
    ASSERT_TRUE(is_terminal(info->state)) << id;
    EXPECT_EQ(terminal_calls[id], 1) << id;
    if (info->state == job_state::succeeded) {
      ++succeeded;
      EXPECT_EQ(*t.await(id, immediate()), (std::vector<std::string>{"0", "1", "2", "3"}));
    }
  }
  EXPECT_GT(succeeded, 0);
}

// Ids are random, not counted: two trackers (two daemon runs) hand out disjoint ids, none 0, all
// exact as doubles; a counter would give both runs 1, 2, 3, ...
TEST(JobTracker, IdsAreRandomAndDifferAcrossTrackers) {
  tracker a, b;
  std::set<job_id> seen;
  for (int i = 0; i < 500; ++i) {
    for (tracker* t : {&a, &b}) {
      auto j = t->submit(spec(1));
      ASSERT_THAT(j, IsOk());
      EXPECT_NE(j->id, 0u);
      EXPECT_LE(j->id, max_job_id);
      EXPECT_EQ(static_cast<job_id>(static_cast<double>(j->id)), j->id);
      EXPECT_TRUE(seen.insert(j->id).second) << "id " << j->id << " handed out twice";
    }
  }
  EXPECT_GT(*seen.rbegin(), job_id{1} << 40) << "1000 draws all below 2^40: not 53 random bits";
}

// A drawn id that a retained job still holds (or 0) is drawn again; a source stuck on taken ids is
// an error, not an endless loop.
TEST(JobTracker, RedrawsIdsThatAreTaken) {
  std::vector<job_id> draws{5, 0, 5, 5, 9};
  size_t next = 0;
  tracker t({}, [&]() -> result<job_id> { return draws[std::min(next++, draws.size() - 1)]; });
  auto first = t.submit(spec(1));
  ASSERT_THAT(first, IsOk());
  EXPECT_EQ(first->id, 5u);
  auto second = t.submit(spec(1));
  ASSERT_THAT(second, IsOk());
  EXPECT_EQ(second->id, 9u);
  EXPECT_EQ(t.submit(spec(1)).error().code(), status_code::internal);  // 9 forever
  tracker broken({}, []() -> result<job_id> { return unavailable("no entropy"); });
  EXPECT_EQ(broken.submit(spec(1)).error().code(), status_code::unavailable);
}

}  // namespace
}  // namespace pp::engine
