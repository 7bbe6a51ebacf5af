// Options shared by every host MSM entry point (pippenger, split_msm): window size, thread cap and
// the G1 endomorphism. Zero means "choose": the window from n (msm/window.hpp), the thread count
// from oneTBB.
#pragma once

namespace pp::msm {

struct msm_options {
  int window_bits = 0;  // 0 = choose from n; otherwise clamped to [1, max_window_bits]
  int max_threads = 0;  // 0 = all threads oneTBB offers
  // Pippenger splits each scalar in two 128-bit halves (msm/glv.hpp) up to glv_max_points
  // points, where the curve has the endomorphism (G1, BN254's G2); false keeps whole scalars (the
  // tests compare both).
  bool glv = true;
  // BN254's batch additions (G1 and G2) run eight at a time on AVX-512 IFMA where the CPU has it
  // (msm/bn254_batch_ifma.hpp); false keeps the scalar loop (the tests compare both).
  bool avx512_ifma = true;
};

}  // namespace pp::msm
