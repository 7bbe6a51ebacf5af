// proof_batch_figures (src/cli/proof_batch_figures.hpp): the figures `proofpipe bench --porep`
// prints, from proofs' end times worked out by hand.
#include "cli/proof_batch_figures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace pp::cli {
namespace {

TEST(ProofBatchFigures, ThreeProofsOfTenPartitions) {
  // Ends at 16, 30 and 44 s (given out of order): the wall is 44 s, a proof's share 44 / 3, the
  // steady interval (44 - 16) / 2 = 14 s, 30 partitions in 44 s.
  const std::vector<double> done{30.0, 44.0, 16.0};
  const auto f = figures_of_batch(done, 10);
  ASSERT_TRUE(f.ok()) << f.error().to_string();
  EXPECT_DOUBLE_EQ(f->wall_s, 44.0);
  EXPECT_DOUBLE_EQ(f->seconds_per_proof, 44.0 / 3);
  EXPECT_DOUBLE_EQ(f->steady_seconds_per_proof, 14.0);
  EXPECT_DOUBLE_EQ(f->first_proof_s, 16.0);
  EXPECT_DOUBLE_EQ(f->partitions_per_hour, 30 * 3600.0 / 44.0);
}

TEST(ProofBatchFigures, OneProofIsItsOwnSteadyInterval) {
  const std::vector<double> done{12.5};
  const auto f = figures_of_batch(done, 10);
  ASSERT_TRUE(f.ok());
  EXPECT_DOUBLE_EQ(f->seconds_per_proof, 12.5);
  EXPECT_DOUBLE_EQ(f->steady_seconds_per_proof, 12.5);
  EXPECT_DOUBLE_EQ(f->first_proof_s, 12.5);
  EXPECT_DOUBLE_EQ(f->partitions_per_hour, 10 * 3600.0 / 12.5);
}

TEST(ProofBatchFigures, RefusesWhatIsNotABatch) {
  EXPECT_EQ(figures_of_batch({}, 10).error().code(), status_code::invalid_argument);
  const std::vector<double> one{1.0};
  EXPECT_EQ(figures_of_batch(one, 0).error().code(), status_code::invalid_argument);
  const std::vector<double> negative{1.0, -0.5};
  EXPECT_EQ(figures_of_batch(negative, 10).error().code(), status_code::invalid_argument);
  const std::vector<double> nan{std::numeric_limits<double>::quiet_NaN()};
  EXPECT_EQ(figures_of_batch(nan, 10).error().code(), status_code::invalid_argument);
}

TEST(UpperMedian, MiddleOrUpperMiddleAndZeroForNone) {
  EXPECT_DOUBLE_EQ(upper_median({5.0, 1.0, 3.0}), 3.0);
  EXPECT_DOUBLE_EQ(upper_median({4.0, 1.0, 3.0, 2.0}), 3.0);
  EXPECT_DOUBLE_EQ(upper_median({}), 0.0);
}

TEST(StepMedians, EachStepsMiddleTimeInNameOrder) {
  // Odd count: the middle one; even count: the upper middle (4 times 1..4 -> 3); no times: left out.
  const std::map<std::string, std::vector<double>> by_step{
      {"gpu msm H", {9.0, 7.0, 8.0}}, {"gpu ntt (h)", {4.0, 1.0, 3.0, 2.0}}, {"gpu spmv", {}}};
  const auto m = step_medians(by_step);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].step, "gpu msm H");
  EXPECT_DOUBLE_EQ(m[0].median_ms, 8.0);
  EXPECT_EQ(m[0].partitions, 3u);
  EXPECT_EQ(m[1].step, "gpu ntt (h)");
  EXPECT_DOUBLE_EQ(m[1].median_ms, 3.0);
  EXPECT_EQ(m[1].partitions, 4u);
}

TEST(StepMedians, AgreeWithASortedCopyOnFreshTimes) {
  std::mt19937_64 rng(std::random_device{}());
  std::uniform_real_distribution<double> ms(0.0, 2000.0);
  std::map<std::string, std::vector<double>> by_step;
  for (int s = 0; s < 5; ++s) {
    std::vector<double>& t = by_step["step " + std::to_string(s)];
    t.resize(1 + rng() % 40);
    for (double& x : t) x = ms(rng);
  }
  for (const step_median& m : step_medians(by_step)) {
    std::vector<double> sorted = by_step.at(m.step);
    std::sort(sorted.begin(), sorted.end());
    EXPECT_DOUBLE_EQ(m.median_ms, sorted[sorted.size() / 2]) << m.step;
    EXPECT_EQ(m.partitions, sorted.size()) << m.step;
  }
}

}  // namespace
}  // namespace pp::cli
