// host_check: runs the groups of checks (checks.hpp) in the report's order.
#include "doctor/host_check.hpp"

#include "doctor/checks.hpp"

namespace pp::doctor {

report check_host(const doctor_input& in, host_probes& probes, const key_vram_planner& plan_key) {
  report r;
  const std::vector<key_files> keys = check_key_files(in.config, probes, r);
  const serving s = check_gpus(in, keys, probes, plan_key, r);
  check_pinning(in.config, s, keys, probes, r);
  check_host_memory(in.config, keys, probes, r);
  check_huge_pages(probes, r);
  check_socket_directory(in.config, probes, r);
  check_token_file(in.config, probes, r);
  return r;
}

}  // namespace pp::doctor
