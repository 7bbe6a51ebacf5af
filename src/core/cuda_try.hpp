// PP_CUDA_TRY(call): turns a failed CUDA runtime call into an internal status that keeps the
// expression, file and line. Only for translation units compiled with the CUDA toolkit.
#pragma once
#include <cuda_runtime_api.h>

#include <string>

#include "core/status.hpp"

namespace pp {

inline status cuda_status(cudaError_t err, const char* expr, const char* file, int line) {
  if (err == cudaSuccess) return ok_status();
  return status(status_code::internal, std::string("CUDA error ") + cudaGetErrorName(err) + " (" +
                                           cudaGetErrorString(err) + ") in `" + expr + "` at " + file + ":" +
                                           std::to_string(line));
}

}  // namespace pp

#define PP_CUDA_TRY(expr)                                                              \
  do {                                                                                 \
    ::pp::status pp_cuda_status_ = ::pp::cuda_status((expr), #expr, __FILE__, __LINE__); \
    if (!pp_cuda_status_.ok()) return pp_cuda_status_;                                 \
  } while (0)
