// job_ids: where job ids come from. Ids are 53 random bits from the kernel's CSPRNG, never 0, never
// a count: a count restarts with the daemon, so an id from before a restart would name another
// client's job after it. Random, an old id names no job of the new run (a clash is a 1-in-2^53 draw
// per retained job) and no client can guess another's. 53 bits keep every id exact wherever it
// travels as a double or a JSON number (JavaScript clients, the trace's args, a SQL bigint).
#pragma once
#include "core/result.hpp"
#include "engine/job.hpp"

namespace pp::engine {

inline constexpr job_id max_job_id = (job_id{1} << 53) - 1;

// A fresh id in [1, max_job_id]; unavailable when the kernel's random source fails.
[[nodiscard]] result<job_id> random_job_id();

}  // namespace pp::engine
