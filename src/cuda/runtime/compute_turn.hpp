// compute_turn: one partition's turn on the GPU's compute (turn_order.hpp), through CUDA events.
// begin() blocks until the partition before has enqueued its last kernel, then makes this lane's
// compute stream wait for that kernel on the device (the host does not wait for the GPU); end(),
// after this partition's last kernel is enqueued, records the lane's turn event behind it for the
// next. A turn that ends any other way (a failure, an exception) is ended by the destructor, so the
// partitions after it are never held up. Each lane's turn event is re-recorded only in the lane's
// next turn, which begins after the next place has enqueued its wait on it.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/result.hpp"
#include "cuda/runtime/cuda_event.hpp"
#include "cuda/runtime/turn_order.hpp"

namespace pp::cuda {

using compute_turns = turn_order<const cuda_event*>;  // nullptr: nothing to wait for

class compute_turn {
 public:
  // Claims the next place in `order` for the lane whose compute stream and turn event these are.
  compute_turn(compute_turns& order, cuda_event& lane_end, cudaStream_t compute);
  ~compute_turn();
  compute_turn(const compute_turn&) = delete;
  compute_turn& operator=(const compute_turn&) = delete;

  // Waits (host) for the previous place's end, then queues its device-side wait on the stream.
  [[nodiscard]] status begin();
  // Behind the work enqueued on the stream so far: the next place's compute waits for it.
  [[nodiscard]] status end();

 private:
  compute_turns& order_;
  cuda_event& lane_end_;
  cudaStream_t compute_;
  uint64_t place_;
  bool begun_ = false, ended_ = false;
};

}  // namespace pp::cuda
