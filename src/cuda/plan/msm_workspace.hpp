// msm_workspace: the GPU MSM's plan (msm_plan.hpp) made on the host alone: its shape, CUB's temp sizes
// from cub_temp_model and the workspace layout. The one plan both the device side (msm_run.cuh lays
// every MSM out with it) and the VRAM plan (chunking_options sizes the lanes with it) use, the same on
// every host with or without a GPU. Plain C++.
#pragma once
#include <cstdint>
#include <type_traits>

#include "core/result.hpp"
#include "cuda/plan/cub_temp_model.hpp"
#include "cuda/plan/msm_plan.hpp"
#include "ec/bls12_381_curves.hpp"
#include "ec/bn254_curves.hpp"

namespace pp::cuda {

// A group the GPU MSM runs over, as its plan sees it: the bytes of an affine point (the points'
// storage, two coordinates) and of an XYZZ bucket (msm_kernels.cuh: four coordinates), over Fp (G1)
// or Fp2 (G2: the tuning's other chunk limit, msm_tuning.hpp). msm_run.cuh checks these against the
// kernels' types. Unqualified names are BLS12-381's (docs/design.md, "Curve families").
struct msm_group {
  const char* name;
  uint64_t point_bytes;
  uint64_t bucket_bytes;
  bool over_fp2;
};
inline constexpr msm_group msm_g1{"G1", 2 * 48, 4 * 48, false};
inline constexpr msm_group msm_g2{"G2", 2 * 96, 4 * 96, true};
inline constexpr msm_group msm_bn254_g1{"BN254 G1", 2 * 32, 4 * 32, false};
inline constexpr msm_group msm_bn254_g2{"BN254 G2", 2 * 64, 4 * 64, true};

// The group of Curve (G1 or G2 of BLS12-381 or BN254): what the VRAM plan sizes a key's tables with
// (key_sizing.cpp) and what the kernels check their point and bucket types against (msm_run.cuh).
template <class Curve>
constexpr msm_group msm_group_of() {
  using family = typename Curve::family;
  constexpr bool bn254 = std::is_same_v<family, ec::bn254::family>;
  static_assert(bn254 || std::is_same_v<family, ec::bls12_381::family>, "a curve family the host plan knows");
  constexpr bool g1 = std::is_same_v<Curve, typename family::g1_curve>;
  return bn254 ? (g1 ? msm_bn254_g1 : msm_bn254_g2) : (g1 ? msm_g1 : msm_g2);
}

// The config's chunk limit, else the tuning's for g's field. BN254's groups take BLS12-381's limits
// (not measured on BN254): the same sort keys a point, smaller buckets, so a chunk's workspace is
// at most BLS12-381's.
uint64_t msm_chunk_limit(const msm_config& config, msm_group g, const msm_tuning& tuning = msm_tuning_sm90);

// Bytes of the sort's and of the selections' temp storage (the larger of the two selections over
// slots and of the index selection of a split MSM), as msm_run.cuh's query_cub_temp asks CUB for them.
struct cub_temp_bytes {
  uint64_t sort = 0, select = 0;
  friend bool operator==(const cub_temp_bytes&, const cub_temp_bytes&) = default;
};

// Those of one pass of shape s on code of architecture family a.
cub_temp_bytes msm_cub_temp_bytes(const msm_shape& s, msm_group g, cub_arch a);
// The most any family asks (each of sort and select): what plans give the passes, so that one plan
// fits every GPU the backend runs on. At 2^27-point G1 chunks of 2^25 that is ~3 MiB above sm_90's
// own (sm_80's smaller sort tiles, sm_86's selection tiles).
cub_temp_bytes msm_cub_temp_bound(const msm_shape& s, msm_group g);

// The plan of an MSM of n points over g: make_msm_shape with the chunk limit above, the temp sizes
// of the bound for a full and for the last chunk (the larger of each), make_msm_plan's layout.
// make_msm_shape's errors.
result<msm_plan> plan_gpu_msm(uint64_t n, bool split, const msm_config& config, msm_group g);

// Its workspace: plan_gpu_msm(...).layout.total.
result<uint64_t> gpu_msm_workspace_bytes(uint64_t n, bool split, const msm_config& config, msm_group g);

}  // namespace pp::cuda
