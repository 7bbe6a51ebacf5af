// proof_batch_figures (src/cli/proof_batch_figures.hpp): the figures `proofpipe bench --porep`
// prints, from proofs' end times worked out by hand.
#include "cli/proof_batch_figures.hpp"

#include <gtest/gtest.h>

#include <limits>
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

}  // namespace
}  // namespace pp::cli
