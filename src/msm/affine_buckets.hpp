// Pippenger buckets in affine form, filled by batches of affine additions that share one field
// inversion (Montgomery's trick). Internal to msm/pippenger.cpp (one bucket set per thread).
// Per addition: 3M for the trick + 1M (lambda) + 1S (x3) + 1M (y3) + 1/batch of an inversion,
// against 8M + 2S for an XYZZ mixed addition (madd-2008-s). Affine formulas as in msm/batch_add.cpp.
#pragma once
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "ec/bn254_curves.hpp"
#include "ec/xyzz.hpp"
#include "ff/interleaved_batch_inverse.hpp"
#include "msm/bn254_batch_ifma.hpp"
#include "msm/flatten_products.hpp"

namespace pp::msm::detail {

template <class Curve>
class affine_buckets {
 public:
  using F = typename Curve::field;
  using point = ec::affine<Curve>;

  // batch: additions per inversion. Conflicts (a bucket already in the open batch) wait in a queue
  // of up to `batch` entries for the next batch; beyond that they go to an XYZZ side bucket, so a
  // skewed digit distribution (witness scalars: most digits equal) never degrades below XYZZ.
  // avx512_ifma: BN254 applies batches eight additions at a time where the CPU can.
  affine_buckets(std::size_t n_buckets, std::size_t batch, bool avx512_ifma = true)
      : point_(n_buckets),
        state_(n_buckets, empty),
        limit_(batch < 1 ? 1 : batch),
        ifma_(is_bn254 && avx512_ifma && bn254_ifma_available()) {
    batch_bucket_.reserve(limit_);
    batch_point_.reserve(limit_);
    den_.reserve(limit_);
    scratch_.reserve(limit_);
    queue_.reserve(limit_);
  }

  std::size_t size() const { return point_.size(); }

  // Empties every bucket (the flushed state: no open batch, empty queue).
  void clear() {
    std::fill(state_.begin(), state_.end(), empty);
    if (side_used_) std::fill(side_.begin(), side_.end(), ec::xyzz<Curve>::infinity());
    side_used_ = false;
  }

  // bucket[b] += p, possibly deferred until flush(); p must not be infinity.
  void add(uint32_t b, const point& p) {
    schedule(b, p);
    if (batch_bucket_.size() >= limit_) apply_batch();
  }

  // Completes every deferred addition.
  void flush() {
    while (!batch_bucket_.empty()) apply_batch();
  }

  // Sum over b of (b + 1) * bucket[b] by the running-sum trick (call after flush()): scanning from
  // the top, running = sum of buckets >= b, and adding it once per step weights bucket b by b + 1.
  // Per bucket: one mixed addition (8M + 2S) into running, one full addition (12M + 2S) into sum.
  ec::xyzz<Curve> weighted_sum() const {
    auto running = ec::xyzz<Curve>::infinity();
    auto sum = ec::xyzz<Curve>::infinity();
    for (std::size_t b = point_.size(); b-- > 0;) {
      if (state_[b] != empty) running = ec::madd(running, point_[b]);
      if (side_used_) running = ec::add(running, side_[b]);
      sum = ec::add(sum, running);
    }
    return sum;
  }

 private:
  enum : uint8_t { empty = 0, full = 1, in_batch = 2 };
  static constexpr bool is_bn254 =
      std::is_same_v<Curve, ec::bn254::g1_curve> || std::is_same_v<Curve, ec::bn254::g2_curve>;

  void schedule(uint32_t b, const point& p) {
    switch (state_[b]) {
      case empty:
        point_[b] = p;
        state_[b] = full;
        return;
      case full:
        state_[b] = in_batch;
        batch_bucket_.push_back(b);
        batch_point_.push_back(p);
        return;
      default:
        if (queue_.size() < limit_) {
          queue_.emplace_back(b, p);
        } else {
          if (side_.empty()) side_.assign(point_.size(), ec::xyzz<Curve>::infinity());  // on first use
          side_[b] = ec::madd(side_[b], p);
          side_used_ = true;
        }
    }
  }

  // The batch visits its buckets in random order, and at 2^12+ buckets per thread most visits
  // missed the cache (perf: the two bucket loads were ~1/3 of apply_batch's own time). Fetching the
  // bucket a few entries ahead overlaps that latency with the current entry's arithmetic.
  static constexpr std::size_t prefetch_distance = 8;
  void prefetch_bucket(std::size_t j) const {
    if (j < batch_bucket_.size()) {
      const char* p = reinterpret_cast<const char*>(&point_[batch_bucket_[j]]);
      for (std::size_t off = 0; off < sizeof(point); off += 64) prefetch_line(p + off);
      prefetch_line(p + sizeof(point) - 1);  // points are not line-aligned
    }
  }
  // g++ 12 dropped __builtin_prefetch here once apply_batch was inlined into pippenger.cpp (no
  // prefetch instruction in the object), so x86-64 states the instruction itself.
  static void prefetch_line(const char* p) {
#if defined(__x86_64__)
    asm volatile("prefetcht0 %0" : : "m"(*p));
#else
    __builtin_prefetch(p);
#endif
  }

  // Applies the open batch with one inversion, then schedules the queue again. Flattened for G1
  // (msm/flatten_products.hpp): the field multiplications (mont_mul_adx6, an asm block g++ keeps out
  // of line) are inlined here, where the H MSM spends most of a proof.
  void apply_batch() {
    if constexpr (is_bn254) {
      if (ifma_) return apply_batch_ifma();
    }
    if constexpr (flatten_products<Curve>) {
      apply_batch_flattened();
    } else {
      apply_batch_body();
    }
  }
  [[gnu::flatten]] void apply_batch_flattened() { apply_batch_body(); }
  void apply_batch_ifma() {
    const std::size_t m = batch_bucket_.size();
    infinity_.resize(m);
    bn254_add_batch_ifma(point_.data(), batch_bucket_.data(), batch_point_.data(), m, infinity_.data(),
                         ifma_scratch_);
    for (std::size_t j = 0; j < m; ++j) state_[batch_bucket_[j]] = infinity_[j] ? empty : full;
    requeue();
  }
  void apply_batch_body() {
    const std::size_t m = batch_bucket_.size();
    den_.resize(m);
    scratch_.resize(m);
    for (std::size_t j = 0; j < m; ++j) {
      prefetch_bucket(j + prefetch_distance);
      const point& a = point_[batch_bucket_[j]];
      const point& q = batch_point_[j];
      if (a.x != q.x) {
        den_[j] = q.x - a.x;
      } else if (a.y == q.y) {
        den_[j] = a.y.dbl();  // doubling; zero only for 2-torsion, whose double is infinity
      } else {
        den_[j] = F::zero();  // P + (-P) = infinity; the batch inversion leaves zeros alone
      }
    }
    ff::interleaved_batch_inverse(den_.data(), scratch_.data(), static_cast<int64_t>(m));
    for (std::size_t j = 0; j < m; ++j) {
      prefetch_bucket(j + prefetch_distance);
      const uint32_t b = batch_bucket_[j];
      if (den_[j].is_zero()) {
        state_[b] = empty;
        continue;
      }
      const point a = point_[b];
      const point& q = batch_point_[j];
      F lambda;
      if (a.x != q.x) {
        lambda = (q.y - a.y) * den_[j];
      } else {
        const F x2 = a.x.sqr();
        lambda = (x2.dbl() + x2) * den_[j];
      }
      const F x3 = lambda.sqr() - a.x - q.x;
      point_[b] = point{x3, lambda * (a.x - x3) - a.y};
      state_[b] = full;
    }
    requeue();
  }
  // Closes the applied batch and schedules the queue again.
  void requeue() {
    batch_bucket_.clear();
    batch_point_.clear();
    requeue_.swap(queue_);
    queue_.clear();
    for (const auto& [b, p] : requeue_) schedule(b, p);
    requeue_.clear();
  }

  std::vector<point> point_;
  std::vector<uint8_t> state_;
  std::vector<ec::xyzz<Curve>> side_;  // allocated on the first spill
  bool side_used_ = false;             // some side_ entry is not infinity
  std::size_t limit_;
  std::vector<uint32_t> batch_bucket_;
  std::vector<point> batch_point_;
  std::vector<F> den_, scratch_;
  std::vector<std::pair<uint32_t, point>> queue_, requeue_;
  bool ifma_;
  std::vector<uint8_t> infinity_;        // the IFMA path's per-addition results
  std::vector<uint64_t> ifma_scratch_;
};

}  // namespace pp::msm::detail
