// compute_turn (compute_turn.hpp).
#include "cuda/runtime/compute_turn.hpp"

#include "core/status_macros.hpp"

namespace pp::cuda {

compute_turn::compute_turn(compute_turns& order, cuda_event& lane_end, cudaStream_t compute)
    : order_(order), lane_end_(lane_end), compute_(compute), place_(order.claim()) {}

status compute_turn::begin() {
  if (begun_) return failed_precondition("compute_turn::begin called twice");
  begun_ = true;
  const cuda_event* before = order_.wait(place_);
  return before == nullptr ? ok_status() : before->wait_on(compute_);
}

status compute_turn::end() {
  if (!begun_ || ended_) return failed_precondition("compute_turn::end without begin, or twice");
  ended_ = true;
  const status st = lane_end_.record(compute_);
  order_.publish(place_, st.ok() ? &lane_end_ : nullptr);
  return st;
}

compute_turn::~compute_turn() {
  if (ended_) return;
  if (!begun_) (void)order_.wait(place_);  // its place comes in order even when it ran nothing
  // Behind whatever this lane enqueued (a failed partition's streams are drained by then); when even
  // the record fails, the next place waits for nothing.
  const bool recorded = lane_end_.record(compute_).ok();
  order_.publish(place_, recorded ? &lane_end_ : nullptr);
}

}  // namespace pp::cuda
