// cuda_architectures: which GPUs the kernels this binary carries can run on. The build lists its
// architectures as CMAKE_CUDA_ARCHITECTURES does ("80;86-real;90a;100-virtual", or with ", " as
// `proofpipe --version` prints them): "NN" is machine code (SASS) for sm_NN and PTX for compute_NN,
// "-real" the SASS alone, "-virtual" the PTX alone, a suffix "a" code for exactly that GPU.
// SASS for sm_XY runs on compute capability X.Z with Z >= Y; PTX for compute_XY is compiled by the
// driver for any later GPU; "a" code (SASS and PTX) runs on its own compute capability alone.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace pp::doctor {

struct cuda_arch {
  int cc = 0;              // major * 10 + minor: 90 for sm_90
  bool sass = false;       // machine code for sm_<cc>
  bool ptx = false;        // PTX for compute_<cc>
  bool specific = false;   // "90a": only compute capability 9.0 runs it
  std::string text;        // as listed ("90a")
};

// invalid_argument naming the entry for one that is not "<digits>[a][-real|-virtual]" (e.g. "native").
result<std::vector<cuda_arch>> parse_cuda_architectures(std::string_view list);

enum class arch_support {
  native,  // machine code for this GPU
  jit,     // PTX only: the driver compiles the kernels at their first use
  none,    // nothing this GPU can run
};
arch_support support_for(std::span<const cuda_arch> built, int cc_major, int cc_minor);

}  // namespace pp::doctor
