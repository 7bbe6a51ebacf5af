// fixed_base_device: tables built by groth16::fixed_base_table on the host, uploaded per base; the
// chunk pipeline over two slots (stage scalars -> H2D -> kernel -> D2H on the slot's stream, and
// copy points out once the slot's stream is done); allocation once in create().
#include "cuda/setup/fixed_base_device.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "core/cuda_try.hpp"
#include "core/status_macros.hpp"
#include "groth16/fixed_base.hpp"

namespace pp::cuda {
namespace {

static_assert(groth16::fixed_base_table<ec::g1_curve>::window_bits == fixed_base_detail::window_bits);
static_assert(groth16::fixed_base_table<ec::g1_curve>::num_windows == fixed_base_detail::num_windows);
static_assert(groth16::fixed_base_table<ec::g2_curve>::window_bits == fixed_base_detail::window_bits);
static_assert(groth16::fixed_base_table<ec::g2_curve>::num_windows == fixed_base_detail::num_windows);

// Room per scalar in a slot's point buffers: the larger point type.
constexpr uint64_t point_room = sizeof(ec::g2_affine);

// memcpy in 4 MiB pieces across the host's cores: staging copies run at memory bandwidth, not at
// one core's.
void parallel_copy(void* dst, const void* src, uint64_t bytes) {
  constexpr uint64_t piece = uint64_t{1} << 22;
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, (bytes + piece - 1) / piece, 1),
                    [&](const tbb::blocked_range<uint64_t>& r) {
                      for (uint64_t p = r.begin(); p < r.end(); ++p) {
                        const uint64_t lo = p * piece, len = std::min(piece, bytes - lo);
                        std::memcpy(static_cast<char*>(dst) + lo, static_cast<const char*>(src) + lo, len);
                      }
                    });
}

}  // namespace

uint64_t fixed_base_device::slot_bytes(uint64_t chunk) { return 2 * chunk * (sizeof(ff::fr) + point_room); }

result<std::unique_ptr<fixed_base_device>> fixed_base_device::create(const fixed_base_device_config& config) {
  if (config.chunk == 0 || config.chunk > fixed_base_detail::max_launch) {
    return invalid_argument("fixed_base_device: chunk must be in [1, 2^30], got " + std::to_string(config.chunk));
  }
  std::unique_ptr<fixed_base_device> d(new fixed_base_device(config));
  PP_RETURN_IF_ERROR(d->allocate());  // the destructor frees whatever was allocated
  return d;
}

status fixed_base_device::allocate() {
  PP_CUDA_TRY(cudaSetDevice(config_.device));
  PP_CUDA_TRY(cudaMalloc(reinterpret_cast<void**>(&d_table_g1_), fixed_base_detail::table_points * sizeof(ec::g1_affine)));
  PP_CUDA_TRY(cudaMalloc(reinterpret_cast<void**>(&d_table_g2_), fixed_base_detail::table_points * sizeof(ec::g2_affine)));
  for (slot& s : slots_) {
    PP_ASSIGN_OR_RETURN(s.stream, cuda_stream::create());
    PP_CUDA_TRY(cudaMalloc(reinterpret_cast<void**>(&s.d_scalars), config_.chunk * sizeof(ff::fr)));
    PP_CUDA_TRY(cudaMalloc(&s.d_points, config_.chunk * point_room));
    PP_CUDA_TRY(cudaHostAlloc(reinterpret_cast<void**>(&s.h_scalars), config_.chunk * sizeof(ff::fr),
                              cudaHostAllocPortable));
    PP_CUDA_TRY(cudaHostAlloc(&s.h_points, config_.chunk * point_room, cudaHostAllocPortable));
  }
  return ok_status();
}

fixed_base_device::~fixed_base_device() {
  if (cudaSetDevice(config_.device) != cudaSuccess) return;
  for (slot& s : slots_) {
    if (s.stream.get() != nullptr) (void)cudaStreamSynchronize(s.stream);  // before its buffers go
    (void)cudaFree(s.d_scalars);
    (void)cudaFree(s.d_points);
    (void)cudaFreeHost(s.h_scalars);
    (void)cudaFreeHost(s.h_points);
  }
  (void)cudaFree(d_table_g1_);
  (void)cudaFree(d_table_g2_);
}

status fixed_base_device::mul_g1(const ec::g1_affine& base, std::span<const ff::fr> k, std::span<ec::g1_affine> out) {
  return run(base, k, out);
}

status fixed_base_device::mul_g2(const ec::g2_affine& base, std::span<const ff::fr> k, std::span<ec::g2_affine> out) {
  return run(base, k, out);
}

template <class Curve>
status fixed_base_device::run(const ec::affine<Curve>& base, std::span<const ff::fr> k,
                              std::span<ec::affine<Curve>> out) {
  if (k.size() != out.size()) {
    return invalid_argument("fixed_base_device: " + std::to_string(k.size()) + " scalars but room for " +
                            std::to_string(out.size()) + " points");
  }
  if (k.empty()) return ok_status();
  PP_CUDA_TRY(cudaSetDevice(config_.device));
  // No chunk is in flight between calls, so the table can be replaced in place.
  ec::affine<Curve>* d_table;
  std::optional<ec::affine<Curve>>* held;
  if constexpr (std::is_same_v<Curve, ec::g1_curve>) {
    d_table = d_table_g1_;
    held = &table_base_g1_;
  } else {
    d_table = d_table_g2_;
    held = &table_base_g2_;
  }
  if (!*held || !(**held == base)) {
    held->reset();
    const groth16::fixed_base_table<Curve> table(base);
    const auto pts = table.points();
    // On a slot's stream and waited for: a plain cudaMemcpy from pageable memory may return before its
    // DMA lands, and the legacy stream does not order the non-blocking slot streams.
    cudaStream_t st = slots_[0].stream;
    PP_CUDA_TRY(cudaMemcpyAsync(d_table, pts.data(), pts.size_bytes(), cudaMemcpyHostToDevice, st));
    PP_CUDA_TRY(cudaStreamSynchronize(st));
    *held = base;
  }
  const status st = run_chunks(d_table, k, out);
  if (!st.ok()) abandon();
  return st;
}

template <class Curve>
status fixed_base_device::run_chunks(const ec::affine<Curve>* d_table, std::span<const ff::fr> k,
                                     std::span<ec::affine<Curve>> out) {
  using point = ec::affine<Curve>;
  const uint64_t n = k.size(), chunk = config_.chunk;
  const uint64_t chunks = (n + chunk - 1) / chunk;
  for (uint64_t c = 0; c < chunks; ++c) {
    slot& s = slots_[c & 1];
    PP_RETURN_IF_ERROR(finish(s, out));  // chunk c - 2, while chunk c - 1 runs in the other slot
    const uint64_t begin = c * chunk, count = std::min(chunk, n - begin);
    parallel_copy(s.h_scalars, k.data() + begin, count * sizeof(ff::fr));
    PP_CUDA_TRY(cudaMemcpyAsync(s.d_scalars, s.h_scalars, count * sizeof(ff::fr), cudaMemcpyHostToDevice, s.stream));
    PP_RETURN_IF_ERROR(
        fixed_base_detail::launch<Curve>(d_table, s.d_scalars, count, static_cast<point*>(s.d_points), s.stream));
    PP_CUDA_TRY(cudaMemcpyAsync(s.h_points, s.d_points, count * sizeof(point), cudaMemcpyDeviceToHost, s.stream));
    s.begin = begin;
    s.count = count;
  }
  PP_RETURN_IF_ERROR(finish(slots_[chunks & 1], out));  // the older of the last two chunks first
  return finish(slots_[(chunks + 1) & 1], out);
}

template <class Curve>
status fixed_base_device::finish(slot& s, std::span<ec::affine<Curve>> out) {
  if (s.count == 0) return ok_status();
  PP_CUDA_TRY(cudaStreamSynchronize(s.stream));
  parallel_copy(out.data() + s.begin, s.h_points, s.count * sizeof(ec::affine<Curve>));
  s.count = 0;
  return ok_status();
}

void fixed_base_device::abandon() {
  for (slot& s : slots_) {
    if (s.stream.get() != nullptr) (void)cudaStreamSynchronize(s.stream);
    s.count = 0;
  }
  // A failed call may have left a table half-copied: upload again next time.
  table_base_g1_.reset();
  table_base_g2_.reset();
}

}  // namespace pp::cuda
