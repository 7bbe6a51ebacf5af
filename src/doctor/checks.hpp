// checks: the groups of verdicts check_host (host_check.cpp) runs in turn, and what they share.
// Internal to the doctor layer: key files and sockets (access_checks.cpp), GPUs (gpu_checks.cpp),
// memory (memory_checks.cpp).
#pragma once
#include <cstdint>
#include <vector>

#include "devices/gpu_devices.hpp"
#include "doctor/finding.hpp"
#include "doctor/host_check.hpp"

namespace pp::doctor {

// One [[keys]] entry as found on disk.
struct key_files {
  const server::key_entry* entry = nullptr;
  uint64_t bytes = 0;    // its files together (zkey, or params and r1cs)
  bool present = false;  // every file exists and this process can read it
};

// Who would prove: the GPUs (with their lanes each) or, when none, the CPU backend.
struct serving {
  std::vector<devices::gpu_facts> gpus;
  uint32_t lanes = 0;
  [[nodiscard]] bool on_gpus() const { return !gpus.empty(); }
};

// "key <id>": every file of every [[keys]] entry exists, is a regular file and readable.
std::vector<key_files> check_key_files(const server::server_config& c, host_probes& probes, report& r);
// "GPUs", and per serving GPU its driver, architecture and VRAM with each key's plan.
serving check_gpus(const doctor_input& in, const std::vector<key_files>& keys, host_probes& probes,
                   const key_vram_planner& plan_key, report& r);
// "memlock", "trial pin": what the GPUs pin against RLIMIT_MEMLOCK.
void check_pinning(const server::server_config& c, const serving& s, const std::vector<key_files>& keys,
                   host_probes& probes, report& r);
// "host memory": the budget against MemTotal and the cgroup limit, and the keys against its key share.
void check_host_memory(const server::server_config& c, const std::vector<key_files>& keys, host_probes& probes,
                       report& r);
// "transparent huge pages".
void check_huge_pages(host_probes& probes, report& r);
// "socket directory", "token file".
void check_socket_directory(const server::server_config& c, host_probes& probes, report& r);
void check_token_file(const server::server_config& c, host_probes& probes, report& r);

}  // namespace pp::doctor
