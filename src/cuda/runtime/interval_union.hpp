// interval_union: the total length covered by a stream of intervals that may overlap (the GPU busy
// time of several lanes' kernel intervals), in bounded memory. Intervals arrive roughly in end
// order from a few overlapping producers; all but the newest disjoint runs are folded into a total,
// and a late interval that begins before the folded part is clipped to it (counted once). Plain C++,
// not thread-safe (the owner locks).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace pp::cuda {

class interval_union {
 public:
  struct totals {
    double covered = 0;  // length of the union
    double span = 0;     // from the earliest begin to the latest end
    uint64_t count = 0;  // intervals added (empty ones included)
  };

  explicit interval_union(std::size_t keep_open = 16) : keep_(keep_open) {}

  void add(double begin, double end) {
    if (count_ == 0 || begin < first_) first_ = begin;
    if (count_ == 0 || end > last_) last_ = end;
    ++count_;
    if (end <= begin) return;
    open_.emplace_back(std::max(begin, folded_until_), end);
    if (open_.size() > 4 * keep_) fold(keep_);
  }

  [[nodiscard]] totals read() const {
    interval_union copy = *this;
    copy.fold(0);
    return {copy.folded_, count_ == 0 ? 0 : last_ - first_, count_};
  }

 private:
  // Merges the open intervals and folds all but the last `keep` disjoint runs into the total.
  void fold(std::size_t keep) {
    std::sort(open_.begin(), open_.end());
    std::vector<std::pair<double, double>> merged;
    for (const auto& iv : open_) {
      if (iv.second <= iv.first) continue;
      if (!merged.empty() && iv.first <= merged.back().second) {
        merged.back().second = std::max(merged.back().second, iv.second);
      } else {
        merged.push_back(iv);
      }
    }
    const std::size_t n_fold = merged.size() > keep ? merged.size() - keep : 0;
    for (std::size_t i = 0; i < n_fold; ++i) {
      folded_ += merged[i].second - merged[i].first;
      folded_until_ = std::max(folded_until_, merged[i].second);
    }
    open_.assign(merged.begin() + static_cast<std::ptrdiff_t>(n_fold), merged.end());
  }

  std::size_t keep_;
  std::vector<std::pair<double, double>> open_;
  double folded_ = 0, folded_until_ = -1e300, first_ = 0, last_ = 0;
  uint64_t count_ = 0;
};

}  // namespace pp::cuda
