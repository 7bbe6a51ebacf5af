// host_check: `proofpipe doctor`'s verdicts. Given a configuration (server_config.hpp, as the daemon
// and libproofpipe_c2 read it), what this build carries and the host as host_probes reads it, says
// per item whether the daemon can serve here: the GPUs that would serve (driver, architecture, VRAM
// and each key's plan in it) or that the CPU backend will, pinned memory (RLIMIT_MEMLOCK and a trial
// pin) against the keys, host memory and its cgroup limit against the keys, transparent huge pages,
// the key files, the socket's directory and the TCP token file. docs/operations.md, "Check a host",
// lists each verdict and its fix.
#pragma once
#include <string>

#include "doctor/finding.hpp"
#include "doctor/host_probes.hpp"
#include "doctor/key_vram.hpp"
#include "server/server_config.hpp"

namespace pp::doctor {

struct doctor_input {
  server::server_config config;
  bool gpu_support_built = false;  // devices::gpu_support_built()
  std::string cuda_architectures;  // the build's list (cuda_architectures.hpp); empty without CUDA
};

// At most this much is locked by the trial pin: enough to show the kernel lets the process lock
// memory at all, without faulting in a key's size of RAM (the limit itself is compared with that).
inline constexpr uint64_t trial_pin_cap = uint64_t{64} << 20;

report check_host(const doctor_input& in, host_probes& probes, const key_vram_planner& plan_key = plan_key_vram);

}  // namespace pp::doctor
