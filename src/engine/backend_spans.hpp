// backend_spans: a backend's own intervals of work that ran off the calling thread (a GPU lane's
// upload, key copies and kernels: groth16::prove_timings::span, on the steady clock) recorded in the
// engine's trace, on tracks under the device's name ("gpu0/lane1/compute", beside the worker tracks)
// and converted to the trace recorder's clock, each with the job and partition it belongs to.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/trace_recorder.hpp"
#include "engine/job.hpp"
#include "groth16/backend.hpp"

namespace pp::engine {

void record_backend_spans(trace_recorder& trace, std::string_view device,
                          const std::vector<groth16::prove_timings::span>& spans, job_id job, uint32_t partition);

}  // namespace pp::engine
