// GPU MSM plan (msm_plan.hpp): sizes from n and the tuning table, workspace offsets.
#include "cuda/plan/msm_plan.hpp"

#include <string>

#include "core/status_macros.hpp"

#include "msm/booth.hpp"

namespace pp::cuda {
namespace {

constexpr uint64_t align = 256;

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// The workspace's bucket array (msm_layout::buckets): every window's buckets.
uint64_t bucket_array_bytes(const msm_shape& s, uint64_t bucket_bytes) {
  return bucket_bytes * s.windows * s.buckets_per_window;
}

struct bump {
  uint64_t at = 0;
  uint64_t take(uint64_t bytes) {
    const uint64_t p = at;
    at += ceil_div(bytes, align) * align;
    return p;
  }
};

// Per-pass counts for len points at width c (the caller checked c and D * len); group_windows > 0:
// precomputed copies group_stride points apart (msm_precomputation), buckets for that many windows.
msm_shape pass_shape(uint64_t len, int c, bool split, const msm_tuning& tuning, int group_windows = 0,
                     uint64_t group_stride = 0) {
  msm_shape s;
  s.total = len;
  s.last_n = len;
  s.n = len;
  s.split = split;
  s.window_bits = c;
  s.digits = msm::num_windows(c);
  s.windows = group_windows > 0 ? group_windows : s.digits;
  s.group_stride = group_windows > 0 ? group_stride : 0;
  s.buckets_per_window = uint32_t{1} << (c - 1);
  s.entries = uint64_t(s.digits) * len;
  const uint64_t sentinel = uint64_t(s.windows) * s.buckets_per_window;
  s.key_bits = 1;
  while ((uint64_t{1} << s.key_bits) <= sentinel) ++s.key_bits;
  s.accumulate_threads = ceil_div(s.entries, tuning.accumulate_chunk);
  s.slots = 2 * (s.accumulate_threads > 0 ? s.accumulate_threads : 1);
  const int seg_log = tuning.reduce_segment_log < c - 1 ? tuning.reduce_segment_log : c - 1;
  s.segment_len = uint32_t{1} << seg_log;
  s.segments_per_window = s.buckets_per_window / s.segment_len;
  s.select_n = split ? len : 0;
  s.ones_partials = split ? (len > 0 ? ceil_div(len, tuning.ones_chunk) : 1) : 0;
  return s;
}

// pass_shape with s's width and precomputed copies.
msm_shape pass_shape_like(const msm_shape& s, uint64_t len, const msm_tuning& tuning) {
  return pass_shape(len, s.window_bits, s.split, tuning, s.group_stride > 0 ? s.windows : 0, s.group_stride);
}

}  // namespace

status check_msm_precomputation(const msm_precomputation& pre, uint64_t n) {
  const std::string what = "GPU MSM precomputed bases: ";
  if (pre.groups < 2) return invalid_argument(what + "expected at least 2 copies, got " + std::to_string(pre.groups));
  if (pre.window_bits < 1 || pre.window_bits > msm_max_window_bits) {
    return invalid_argument(what + "window bits " + std::to_string(pre.window_bits) + " outside [1, " +
                            std::to_string(msm_max_window_bits) + "]");
  }
  const int digits = msm::num_windows(pre.window_bits);
  if (pre.group_windows < 1 || uint64_t(pre.groups) * uint64_t(pre.group_windows) < uint64_t(digits)) {
    return invalid_argument(what + std::to_string(pre.groups) + " copies of " + std::to_string(pre.group_windows) +
                            " windows do not cover " + std::to_string(digits) + " digits");
  }
  if (pre.stride < n) {
    return invalid_argument(what + "copies " + std::to_string(pre.stride) + " points apart, " + std::to_string(n) +
                            " points");
  }
  if (uint64_t(pre.groups - 1) * pre.stride + n >= (uint64_t{1} << 31)) {
    return invalid_argument(what + "point indices reach 2^31 (" + std::to_string(pre.groups) + " copies, stride " +
                            std::to_string(pre.stride) + ")");
  }
  return ok_status();
}

result<msm_precomputation> make_msm_precomputation(uint64_t n, uint32_t groups, int window_bits,
                                                   const msm_tuning& tuning) {
  if (n == 0 || n >= (uint64_t{1} << 31)) {
    return invalid_argument("GPU MSM precomputation: expected 1 <= n < 2^31 points, got " + std::to_string(n));
  }
  if (window_bits < 0 || window_bits > msm_max_window_bits) {
    return invalid_argument("GPU MSM precomputation: window bits " + std::to_string(window_bits) + " outside [0, " +
                            std::to_string(msm_max_window_bits) + "]");
  }
  const auto layout = [&](int c) {
    const uint32_t digits = uint32_t(msm::num_windows(c));
    const uint32_t g = groups < 1 ? 1 : groups < digits ? groups : digits;
    const uint32_t m = (digits + g - 1) / g;
    return msm_precomputation{(digits + m - 1) / m, c, int(m), n};
  };
  int c = window_bits;
  if (c == 0) {
    double best = 0;
    for (int w = msm_window_bits(n); w <= msm_max_window_bits; ++w) {
      const msm_precomputation p = layout(w);
      const double cost = double(n) * msm::num_windows(w) +
                          tuning.bucket_reduce_madds * p.group_windows * double(uint64_t{1} << (w - 1));
      if (c == 0 || cost < best) {
        c = w;
        best = cost;
      }
    }
  }
  const msm_precomputation p = layout(c);
  if (p.groups == 1) return msm_precomputation{};
  if (uint64_t(p.groups) * n >= (uint64_t{1} << 31)) {
    return invalid_argument("GPU MSM precomputation: " + std::to_string(p.groups) + " copies of " +
                            std::to_string(n) + " points reach point index 2^31");
  }
  return p;
}

result<msm_shape> make_msm_shape(uint64_t n, int window_bits, bool split, uint64_t max_chunk_points,
                                 const msm_precomputation& pre, const msm_tuning& tuning, bool streamed) {
  if (n >= (uint64_t{1} << 32)) {
    return invalid_argument("GPU MSM: expected n < 2^32 points, got " + std::to_string(n));
  }
  const bool precomputed = pre.groups > 1;
  if (precomputed) {
    PP_RETURN_IF_ERROR(check_msm_precomputation(pre, n));
    if (split) return invalid_argument("GPU MSM: the split MSM takes no precomputed bases");
    if (window_bits != 0 && window_bits != pre.window_bits) {
      return invalid_argument("GPU MSM: precomputed bases made for c = " + std::to_string(pre.window_bits) +
                              ", asked for c = " + std::to_string(window_bits));
    }
    window_bits = pre.window_bits;
  }
  if (max_chunk_points == 0) return invalid_argument("GPU MSM: expected a chunk limit >= 1 point, got 0");
  uint64_t per = n < max_chunk_points ? n : max_chunk_points;
  if (window_bits > 0 && window_bits <= msm_max_window_bits) {
    // A forced width fixes W: shorter chunks keep W * (points per chunk) below 2^31.
    const uint64_t fit = ((uint64_t{1} << 31) - 1) / uint64_t(msm::num_windows(window_bits));
    if (per > fit) per = fit;
  }
  if (per >= (uint64_t{1} << 31)) {
    return invalid_argument("GPU MSM: expected < 2^31 points per chunk, got " + std::to_string(per));
  }
  const int c = window_bits > 0 ? window_bits : msm_window_bits(per);
  if (c < 1 || c > msm_max_window_bits) {
    return invalid_argument("GPU MSM: expected window bits in [1, " + std::to_string(msm_max_window_bits) +
                            "], got " + std::to_string(c));
  }
  const uint64_t entries = uint64_t(msm::num_windows(c)) * per;
  if (entries >= (uint64_t{1} << 31)) {
    return invalid_argument("GPU MSM: expected windows * (points per chunk) < 2^31, got " +
                            std::to_string(entries));
  }
  msm_shape s = pass_shape(per, c, split, tuning, precomputed ? pre.group_windows : 0, pre.stride);
  s.total = n;
  s.chunks = per > 0 ? ceil_div(n, per) : 1;
  s.last_n = n - (s.chunks - 1) * per;
  s.forced_width = window_bits > 0;
  if (split && !streamed && n < (uint64_t{1} << 31) && s.chunks <= tuning.split_select_all_max_chunks) {
    s.select_all = true;
    s.select_n = n;
    s.ones_partials = n > 0 ? ceil_div(n, tuning.ones_chunk) : 1;
  }
  return s;
}

msm_shape make_msm_chunk_shape(const msm_shape& s, uint64_t len, const msm_tuning& tuning) {
  msm_shape c = pass_shape_like(s, len < s.n ? len : s.n, tuning);
  c.total = s.total;
  c.chunks = s.chunks;
  c.last_n = s.last_n;
  c.forced_width = s.forced_width;
  return c;
}

bool msm_pass_fits(const msm_shape& s, const msm_shape& p) {
  return p.n <= s.n && p.entries <= s.entries && p.slots <= s.slots &&
         uint64_t(p.windows) * p.buckets_per_window <= uint64_t(s.windows) * s.buckets_per_window &&
         running_sum_buckets(p) <= running_sum_buckets(s);
}

msm_shape make_msm_selected_pass(const msm_shape& s, uint64_t len, const msm_tuning& tuning) {
  const uint64_t n = len < s.n ? len : s.n;
  if (!s.forced_width) {
    const msm_shape own = pass_shape(n, msm_window_bits(n), false, tuning);
    if (msm_pass_fits(s, own)) return own;
  }
  return pass_shape(n, s.window_bits, false, tuning);
}

msm_shape make_msm_carried_pass(const msm_plan& plan, uint64_t bucket_bytes, uint64_t total_len, uint64_t max_len,
                                const msm_tuning& tuning, uint64_t bucket_capacity) {
  const msm_shape& s = plan.shape;
  const uint64_t n = max_len < s.n ? max_len : s.n;
  const int widest = s.forced_width ? s.window_bits : msm_window_bits(total_len > n ? total_len : n);
  const int narrowest = s.forced_width ? s.window_bits : msm_window_bits(n);
  const double merges = s.chunks > 1 ? double(s.chunks - 1) : 0.0;
  msm_shape best;
  double best_cost = 0;
  for (int c = narrowest; c <= widest; ++c) {
    const msm_shape pass = pass_shape(n, c, false, tuning);
    const uint64_t buckets = uint64_t(pass.windows) * pass.buckets_per_window;
    const uint64_t array = bucket_bytes * buckets;
    if (!msm_pass_fits(s, pass) || array > plan.layout.pair_bytes || array > bucket_capacity) continue;
    const double cost = double(total_len) * pass.windows +
                        double(buckets) * (merges * tuning.bucket_merge_madds + tuning.bucket_reduce_madds);
    if (best.window_bits == 0 || cost < best_cost) {
      best = pass;
      best_cost = cost;
    }
  }
  return best;
}

uint64_t running_sum_buckets(const msm_shape& s) { return uint64_t(s.windows) * s.segments_per_window; }

bool same_reduction(const msm_shape& a, const msm_shape& b) {
  return a.windows == b.windows && a.window_bits == b.window_bits && a.buckets_per_window == b.buckets_per_window &&
         a.segment_len == b.segment_len && a.segments_per_window == b.segments_per_window;
}

bool reductions_fit_together(const msm_plan& plan, const msm_shape& reduce, uint64_t vectors, uint64_t bucket_bytes,
                             uint64_t bucket_capacity) {
  if (vectors < 2 || vectors > 65535) return false;
  const uint64_t area = 2 * bucket_bytes * running_sum_buckets(reduce);
  return vectors * area <= bucket_array_bytes(plan.shape, bucket_bytes) && area <= bucket_capacity;
}

uint32_t accumulate_chunk_for(uint64_t entries, uint64_t wave_threads, const msm_tuning& tuning) {
  const uint64_t base = tuning.accumulate_chunk;
  const uint64_t threads = ceil_div(entries, base);
  const uint64_t tail = wave_threads > 0 ? threads % wave_threads : 0;
  if (threads <= wave_threads || tail == 0 || tail > wave_threads / 4) return uint32_t(base);
  // The whole waves below the plain threads, each thread's share rounded up.
  return uint32_t(ceil_div(entries, threads / wave_threads * wave_threads));
}

uint64_t ones_threads_for(uint64_t n, uint64_t wave_threads, const msm_tuning& tuning) {
  const uint64_t upper = n > 0 ? ceil_div(n, tuning.ones_chunk) : 1;
  if (wave_threads == 0) return upper;
  const uint64_t waves = (upper / 2 + wave_threads / 2) / wave_threads;
  const uint64_t threads = (waves > 0 ? waves : 1) * wave_threads;
  return threads < upper ? threads : upper;
}

msm_vector_layout make_msm_vector_layout(const msm_plan& plan, uint64_t bucket_bytes, uint64_t scalar_bytes) {
  const msm_shape& s = plan.shape;
  msm_vector_layout v;
  bump b;
  v.scalars = b.take(scalar_bytes * s.n);
  v.ones = b.take(bucket_bytes);
  v.result = b.take(bucket_bytes);
  v.buckets = b.take(bucket_bytes * s.windows * s.buckets_per_window);
  v.total = b.at;
  return v;
}

msm_plan make_msm_plan(const msm_shape& s, uint64_t bucket_bytes, uint64_t sort_temp_bytes,
                       uint64_t select_temp_bytes) {
  msm_plan p;
  p.shape = s;
  p.sort_temp_bytes = sort_temp_bytes;
  p.select_temp_bytes = select_temp_bytes;
  msm_layout& l = p.layout;
  bump b;
  const uint64_t m = s.entries > 0 ? s.entries : 1;
  const uint64_t bucket_array = bucket_array_bytes(s, bucket_bytes);
  const uint64_t keys_bytes = ceil_div(4 * m, align) * align;
  // A chunked plain MSM's later chunks sum into the pair the sort left unused. G1 chunks of 2^21 to
  // 2^25 points (what the VRAM plans pick) have n >= 12 x 2^c, so their pair holds the buckets as
  // it is; smaller chunks and G2 grow it.
  uint64_t pair = 2 * keys_bytes;
  if (!s.split && s.chunks > 1 && pair < bucket_array) pair = ceil_div(bucket_array, align) * align;
  l.pair_bytes = pair;
  l.keys = b.take(keys_bytes);
  l.vals = b.take(pair - keys_bytes);
  l.keys_alt = b.take(keys_bytes);
  l.vals_alt = b.take(pair - keys_bytes);
  l.sort_temp = b.take(sort_temp_bytes);
  l.buckets = b.take(bucket_array);
  l.slot_keys = b.take(4 * s.slots);
  l.slot_flags = b.take(s.slots);
  l.slot_vals = b.take(bucket_bytes * s.slots);
  for (int i = 0; i < 2; ++i) {
    l.carry_keys[i] = b.take(4 * s.slots);
    l.carry_vals[i] = b.take(bucket_bytes * s.slots);
  }
  l.counts = b.take(4 * 4);
  l.select_temp = b.take(select_temp_bytes);
  const uint64_t segs = running_sum_buckets(s);
  for (int i = 0; i < 2; ++i) {
    l.seg_t[i] = b.take(bucket_bytes * segs);
    l.seg_s[i] = b.take(bucket_bytes * segs);
  }
  l.result = b.take(bucket_bytes);
  l.chunk_result = b.take(bucket_bytes);
  if (s.split) {
    const uint64_t n = s.select_n > 0 ? s.select_n : 1;
    l.idx_ones = b.take(4 * n);
    l.idx_others = b.take(4 * n);
    l.ones_partials[0] = b.take(bucket_bytes * s.ones_partials);
    l.ones_partials[1] = b.take(bucket_bytes * s.ones_partials);
  } else {
    l.idx_ones = l.idx_others = l.ones_partials[0] = l.ones_partials[1] = 0;
  }
  l.total = b.at;
  return p;
}

}  // namespace pp::cuda
