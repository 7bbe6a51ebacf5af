// cuda_stream (cuda_stream.hpp).
#include "cuda/runtime/cuda_stream.hpp"

#include <utility>

#include "core/cuda_try.hpp"

namespace pp::cuda {

cuda_stream::~cuda_stream() {
  if (s_ != nullptr) cudaStreamDestroy(s_);
}

cuda_stream& cuda_stream::operator=(cuda_stream&& o) noexcept {
  if (this != &o) {
    if (s_ != nullptr) cudaStreamDestroy(s_);
    s_ = std::exchange(o.s_, nullptr);
  }
  return *this;
}

result<cuda_stream> cuda_stream::create(int priority) {
  cudaStream_t s = nullptr;
  PP_CUDA_TRY(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, priority));
  return cuda_stream(s);
}

}  // namespace pp::cuda
