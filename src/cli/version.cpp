// version: the text of `proofpipe --version`. PP_VERSION and PP_CUDA_ARCHITECTURES come from
// src/cli/CMakeLists.txt (the project's version, CMAKE_CUDA_ARCHITECTURES); PP_BUILD_COMMIT from the
// header cmake/build_commit.cmake writes at every build.
#include "cli/version.hpp"

#include "cli/build_commit.hpp"
#include "devices/gpu_devices.hpp"

namespace pp::cli {

std::string version_text() {
  std::string text = std::string("proofpipe ") + PP_VERSION + "\n";
  text += std::string("commit: ") + PP_BUILD_COMMIT + "\n";
  const std::string archs = PP_CUDA_ARCHITECTURES;
  text += "CUDA architectures: " + (archs.empty() ? std::string("none (built without the CUDA backend)") : archs) + "\n";
  if (!devices::gpu_support_built()) {
    text += "GPUs: none (this build has no CUDA backend)";
    return text;
  }
  const result<int> n = devices::gpu_count();
  if (!n.ok()) {
    text += "GPUs: none found (" + n.error().message() + ")";
  } else if (*n == 0) {
    text += "GPUs: none found";
  } else {
    text += "GPUs: " + std::to_string(*n) + " found";
  }
  return text;
}

}  // namespace pp::cli
