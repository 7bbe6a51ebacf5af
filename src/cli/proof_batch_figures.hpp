// proof_batch_figures: what `proofpipe bench --porep` reports of proofs submitted together, from the
// moment the first one was submitted (its first witness in) to each proof's verified end. Pure
// arithmetic (tests/cli/proof_batch_figures_test.cpp).
#pragma once
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace pp::cli {

struct proof_batch_figures {
  double wall_s = 0;                  // the first witness in to the last verified proof out
  double seconds_per_proof = 0;       // wall_s / proofs: a proof's share of the GPU in steady state
  double steady_seconds_per_proof = 0;  // between the first and the last proof out (the ramp left out); one proof: wall_s
  double first_proof_s = 0;           // the first proof out, from the start: one proof's latency behind none
  double partitions_per_hour = 0;
};

// done_s: each proof's end in seconds from the first submission, in any order.
// invalid_argument for no proofs, no partitions, or a time that is negative or not finite.
result<proof_batch_figures> figures_of_batch(std::span<const double> done_s, uint32_t partitions_per_proof);

// The upper middle of times (the middle of an odd count, the upper of the two of an even one); 0
// for none. Both benches' medians.
double upper_median(std::vector<double> times);

// One step of the prover (a backend step, e.g. "gpu msm H") over a batch's partitions: where a
// partition's time goes under one configuration, so that two configurations compare step by step.
struct step_median {
  std::string step;
  double median_ms = 0;  // upper_median of its times
  size_t partitions = 0;  // how many partitions took the step
};

// The steps' medians in name order, from each step's times in ms; a step with no times is left out.
std::vector<step_median> step_medians(const std::map<std::string, std::vector<double>>& ms_by_step);

}  // namespace pp::cli
