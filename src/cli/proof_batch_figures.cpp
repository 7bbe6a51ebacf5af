#include "cli/proof_batch_figures.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace pp::cli {

result<proof_batch_figures> figures_of_batch(std::span<const double> done_s, uint32_t partitions_per_proof) {
  if (done_s.empty()) return invalid_argument("proof batch: no proofs");
  if (partitions_per_proof == 0) return invalid_argument("proof batch: no partitions per proof");
  std::vector<double> t(done_s.begin(), done_s.end());
  for (const double x : t) {
    if (!std::isfinite(x) || x < 0) return invalid_argument("proof batch: a proof's end time is not a time");
  }
  std::sort(t.begin(), t.end());
  proof_batch_figures f;
  f.wall_s = t.back();
  f.first_proof_s = t.front();
  const auto n = double(t.size());
  f.seconds_per_proof = f.wall_s / n;
  f.steady_seconds_per_proof = t.size() > 1 ? (t.back() - t.front()) / (n - 1) : f.wall_s;
  f.partitions_per_hour = f.wall_s > 0 ? n * partitions_per_proof * 3600.0 / f.wall_s : 0;
  return f;
}

double upper_median(std::vector<double> times) {
  if (times.empty()) return 0;
  const auto mid = times.begin() + std::ptrdiff_t(times.size() / 2);
  std::nth_element(times.begin(), mid, times.end());
  return *mid;
}

std::vector<step_median> step_medians(const std::map<std::string, std::vector<double>>& ms_by_step) {
  std::vector<step_median> out;
  for (const auto& [step, times] : ms_by_step) {
    if (!times.empty()) out.push_back({step, upper_median(times), times.size()});
  }
  return out;
}

}  // namespace pp::cli
