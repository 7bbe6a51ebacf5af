// `proofpipe --version`: what a bug report needs to name this binary: the release, the git commit it
// was built from (cmake/build_commit.cmake), the CUDA architectures its kernels were compiled for and
// whether this machine shows it a GPU.
#pragma once
#include <string>

namespace pp::cli {

// The --version text: four lines (no newline after the last). Asks the CUDA driver for GPUs (none in a build
// without the CUDA backend).
[[nodiscard]] std::string version_text();

}  // namespace pp::cli
