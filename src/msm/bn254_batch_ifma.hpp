// BN254's batches of affine bucket additions (msm/affine_buckets.hpp's apply_batch) eight at a time
// on AVX-512 IFMA (ff/bn254_fp_x8_ifma.hpp): a batch's additions are independent by construction, so
// lane i of group g is addition 8g + i. The scalar loops spend ~6 (G1) and ~15 (G2) mulx-bound Fp
// products an addition; here they are 8-lane products. Host only; callers check
// bn254_ifma_available().
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ec/affine.hpp"
#include "ec/bn254_curves.hpp"

namespace pp::msm::detail {

// True when this CPU runs AVX-512F and IFMA (checked once).
bool bn254_ifma_available();

// bucket[index[j]] += q[j] for j < m, with one field inversion for the batch (Montgomery's trick);
// the index[j] are distinct and no bucket or q[j] is infinity. Sets infinity[j] = 1 where the sum is
// the point at infinity (the bucket's value is then unspecified), else 0. scratch is reused.
void bn254_add_batch_ifma(ec::affine<ec::bn254::g1_curve>* bucket, const uint32_t* index,
                          const ec::affine<ec::bn254::g1_curve>* q, std::size_t m, uint8_t* infinity,
                          std::vector<uint64_t>& scratch);
void bn254_add_batch_ifma(ec::affine<ec::bn254::g2_curve>* bucket, const uint32_t* index,
                          const ec::affine<ec::bn254::g2_curve>* q, std::size_t m, uint8_t* infinity,
                          std::vector<uint64_t>& scratch);

}  // namespace pp::msm::detail
