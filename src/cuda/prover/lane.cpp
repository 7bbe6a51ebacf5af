// lane.hpp: a lane's streams and events.
#include "cuda/prover/lane.hpp"

#include <cuda_runtime_api.h>

#include <string>
#include <utility>

#include "core/cuda_try.hpp"
#include "core/status_macros.hpp"

namespace pp::cuda {

result<lane> lane::create(uint32_t id, std::span<std::byte> staging, const link_pace& pace) {
  lane l;
  l.id = id;
  l.staging = staging;
  l.copy_track = "lane" + std::to_string(id) + "/copy";
  l.compute_track = "lane" + std::to_string(id) + "/compute";
  // Paced, the copy stream carries the pacer's one-thread kernels: the highest priority lets them
  // take the next free SM slot instead of queueing behind an MSM's blocks.
  int least = 0, greatest = 0;
  PP_CUDA_TRY(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  PP_ASSIGN_OR_RETURN(l.copy, cuda_stream::create(pace.paced() ? greatest : 0));
  l.pace = pace;
  PP_ASSIGN_OR_RETURN(l.compute, cuda_stream::create());
  for (cuda_event& e : l.events) {
    PP_ASSIGN_OR_RETURN(e, cuda_event::create(/*timing=*/true));
  }
  PP_ASSIGN_OR_RETURN(l.stream_begin, cuda_event::create(/*timing=*/true));
  PP_ASSIGN_OR_RETURN(l.stream_end, cuda_event::create(/*timing=*/true));
  PP_ASSIGN_OR_RETURN(l.again_begin, cuda_event::create(/*timing=*/true));
  PP_ASSIGN_OR_RETURN(l.again_end, cuda_event::create(/*timing=*/true));
  PP_ASSIGN_OR_RETURN(l.turn_end, cuda_event::create());
  for (size_t s = 0; s < l.slot_loaded.size(); ++s) {
    PP_ASSIGN_OR_RETURN(l.slot_loaded[s], cuda_event::create());
    PP_ASSIGN_OR_RETURN(l.slot_freed[s], cuda_event::create());
  }
  return l;
}

}  // namespace pp::cuda
