// job: names and validation of the engine's job types.
#include "engine/job.hpp"

#include <string>

namespace pp::engine {

std::string_view job_state_name(job_state s) {
  switch (s) {
    case job_state::queued: return "QUEUED";
    case job_state::running: return "RUNNING";
    case job_state::succeeded: return "SUCCEEDED";
    case job_state::failed: return "FAILED";
    case job_state::cancelled: return "CANCELLED";
  }
  return "UNKNOWN";
}

status validate(const job_spec& spec) {
  if (spec.key_id.empty()) return invalid_argument("job: expected a key_id, got an empty one");
  if (spec.num_partitions < 1 || spec.num_partitions > max_partitions) {
    return invalid_argument("job: expected 1.." + std::to_string(max_partitions) + " partitions, got " +
                            std::to_string(spec.num_partitions));
  }
  if (static_cast<size_t>(spec.prio) >= priority_count) {
    return invalid_argument("job: unknown priority " + std::to_string(static_cast<int>(spec.prio)));
  }
  return ok_status();
}

}  // namespace pp::engine
