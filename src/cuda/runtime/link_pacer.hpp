// link_pacer: host-to-device copies held to a set rate, so that one machine measures what a slower
// link gives a plan that streams its key (PCIe 4.0 x16 moves ~25 GiB/s, the H200's PCIe 5.0 ~51:
// docs/perf/vram-budgets.md). A measurement aid (cuda_backend_config::h2d_cap_bytes_per_s), off by
// default. Every paced copy takes its turn on one timeline of the link, kept in device memory in the
// device's global nanosecond timer: a one-thread kernel queued before the copy on its stream reserves
// [start, start + bytes / rate), start no earlier than the end of the link's last reservation, and
// one queued after the copy holds the stream until that end, so whatever waits for the copy (the
// event recorded next) sees its data when the slower link would have delivered it. Copies of
// several streams (lanes) share the one timeline, as they share a link. The kernels run on the copy
// streams, which the backend gives the highest priority while paced so that they find an SM soon.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/result.hpp"

namespace pp::cuda {

// One stream's handle on the link: the shared clock, the stream's own reservation slot and the
// rate. Default: unpaced (begin and end queue nothing).
struct link_pace {
  unsigned long long* d_clock = nullptr;  // the end of the link's last reservation (ns, global timer)
  unsigned long long* d_slot = nullptr;   // this stream's current reservation's end
  double ns_per_byte = 0;
  [[nodiscard]] bool paced() const { return ns_per_byte > 0 && d_clock != nullptr && d_slot != nullptr; }
};

// Device bytes a pacer of `streams` streams keeps (the clock and one slot each).
constexpr uint64_t link_pacer_bytes(uint32_t streams) { return 8 * (uint64_t{streams} + 1); }

// The handle of stream `index` (< streams) over state of link_pacer_bytes(streams) bytes at d_state;
// rate 0: unpaced. Zero the state once (link_pacer_clear) before the first paced copy.
link_pace link_pace_for(void* d_state, uint32_t index, double bytes_per_s);
status link_pacer_clear(void* d_state, uint32_t streams, cudaStream_t stream);

// Around one host-to-device copy of `bytes` on `stream`: link_pace_begin before it is queued,
// link_pace_end after. Both queue nothing when unpaced.
status link_pace_begin(const link_pace& p, uint64_t bytes, cudaStream_t stream);
status link_pace_end(const link_pace& p, cudaStream_t stream);

}  // namespace pp::cuda
