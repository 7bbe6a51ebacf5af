// job_ledger (src/engine/job_ledger.hpp): jobs in flight and the count of each terminal state;
// terminal jobs retained up to the limit, the oldest given up first; a drain that returns at once
// with nothing in flight, when the last job ends, at its deadline, or when cut short.
#include "engine/job_ledger.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

namespace pp::engine {
namespace {

using std::chrono::milliseconds;

TEST(JobLedger, CountsJobsInFlightAndByTerminalState) {
  job_ledger l(10);
  l.started(1);
  l.started(2);
  l.started(3);
  l.started(4);
  EXPECT_EQ(l.in_flight(), (std::vector<job_id>{1, 2, 3, 4}));
  EXPECT_TRUE(l.ended(2, job_state::succeeded).empty());
  EXPECT_TRUE(l.ended(3, job_state::failed).empty());
  EXPECT_TRUE(l.ended(4, job_state::cancelled).empty());
  const auto c = l.read();
  EXPECT_EQ(c.in_flight, 1u);
  EXPECT_EQ(c.succeeded, 1u);
  EXPECT_EQ(c.failed, 1u);
  EXPECT_EQ(c.cancelled, 1u);
  EXPECT_EQ(l.in_flight(), (std::vector<job_id>{1}));
}

TEST(JobLedger, RetainsTheNewestTerminalJobs) {
  job_ledger l(2);
  for (job_id id : {7, 8, 9, 10}) l.started(id);
  EXPECT_TRUE(l.ended(9, job_state::succeeded).empty());
  EXPECT_TRUE(l.ended(7, job_state::failed).empty());
  EXPECT_EQ(l.ended(10, job_state::succeeded), (std::vector<job_id>{9})) << "the oldest to end goes first";
  EXPECT_EQ(l.ended(8, job_state::cancelled), (std::vector<job_id>{7}));
}

TEST(JobLedger, ADrainWithNothingInFlightReturnsAtOnce) {
  job_ledger l(4);
  l.wait_drained(no_deadline());
  l.started(1);
  static_cast<void>(l.ended(1, job_state::succeeded));
  l.wait_drained(no_deadline());
}

TEST(JobLedger, ADrainEndsWhenTheLastJobEnds) {
  job_ledger l(4);
  l.started(1);
  l.started(2);
  std::thread ender([&] {
    static_cast<void>(l.ended(1, job_state::succeeded));
    std::this_thread::sleep_for(milliseconds(10));
    static_cast<void>(l.ended(2, job_state::failed));
  });
  l.wait_drained(no_deadline());
  EXPECT_EQ(l.read().in_flight, 0u);
  ender.join();
}

TEST(JobLedger, ADrainEndsAtItsDeadlineWithJobsLeft) {
  job_ledger l(4);
  l.started(1);
  l.wait_drained(deadline_in(milliseconds(20)));
  EXPECT_EQ(l.in_flight(), (std::vector<job_id>{1}));
}

TEST(JobLedger, CutDrainEndsAWaitAndEveryLaterOne) {
  job_ledger l(4);
  l.started(1);
  std::thread cutter([&] {
    std::this_thread::sleep_for(milliseconds(10));
    l.cut_drain();
  });
  l.wait_drained(no_deadline());
  cutter.join();
  l.wait_drained(no_deadline());
  EXPECT_EQ(l.in_flight(), (std::vector<job_id>{1}));
}

}  // namespace
}  // namespace pp::engine
