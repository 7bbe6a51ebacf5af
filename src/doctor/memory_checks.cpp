// memory_checks: host memory the daemon pins and holds. Pinned: on the GPUs each worker's staging
// (gpu_staging_mb) and the key points streamed from host memory (docs/operations.md, "Size memory
// and workers"), counted here as every key's files; the CPU backend pins nothing. Held: the keys
// against the key share of the host memory budget, charged as the key store charges an unloaded
// key (engine/key_catalog.hpp), the budget against what the host or its cgroup gives
// (engine/host_memory_limit.hpp, the engine's own reading).
#include <algorithm>
#include <string>

#include "doctor/checks.hpp"
#include "engine/key_catalog.hpp"

namespace pp::doctor {
namespace {

std::string limit_text(uint64_t bytes) { return bytes == unlimited_memlock ? "unlimited" : bytes_text(bytes); }

}  // namespace

void check_pinning(const server::server_config& c, const serving& s, const std::vector<key_files>& keys,
                   host_probes& probes, report& r) {
  const result<uint64_t> limit = probes.memlock_limit();
  if (!s.on_gpus()) {
    r.add("memlock", verdict::ok, "not needed: the CPU backend pins no memory (RLIMIT_MEMLOCK " +
          (limit.ok() ? limit_text(*limit) : limit.error().message()) + ")");
    return;
  }
  uint64_t keys_bytes = 0;
  for (const key_files& k : keys) keys_bytes += k.present ? k.bytes : 0;
  const uint64_t need = keys_bytes + s.gpus.size() * s.lanes * c.engine.gpu.staging_bytes;
  const std::string what = bytes_text(need) + " (the keys' " + bytes_text(keys_bytes) + " and " +
                           std::to_string(s.gpus.size() * s.lanes) + " workers' staging of " +
                           bytes_text(c.engine.gpu.staging_bytes) + ")";
  const std::string fix = "LimitMEMLOCK=infinity in the unit (the packaged proofpipe.service has it); in a shell, "
                          "ulimit -l unlimited (raise the hard limit in /etc/security/limits.conf)";
  if (!limit.ok()) {
    r.add("memlock", verdict::warning, "cannot read RLIMIT_MEMLOCK: " + limit.error().message(), fix);
  } else if (*limit < need) {
    r.add("memlock", verdict::problem, "RLIMIT_MEMLOCK " + limit_text(*limit) + " is below what the GPUs pin: " + what, fix);
  } else {
    r.add("memlock", verdict::ok, "RLIMIT_MEMLOCK " + limit_text(*limit) + " covers " + what);
  }
  const uint64_t trial = std::min(need, trial_pin_cap);
  if (const status pinned = probes.trial_pin(trial); !pinned.ok()) {
    r.add("trial pin", verdict::problem, "locking " + bytes_text(trial) + " failed: " + pinned.message(), fix);
  } else {
    r.add("trial pin", verdict::ok, "locked and released " + bytes_text(trial));
  }
}

void check_host_memory(const server::server_config& c, const std::vector<key_files>& keys, host_probes& probes,
                       report& r) {
  const std::string item = "host memory";
  const engine::engine_config& e = c.engine.config;
  const result<engine::host_memory_limit> m = probes.host_memory();
  if (!m.ok()) {
    r.add(item, verdict::problem, "cannot read the host's memory: " + m.error().message(),
          "the daemon reads /proc/meminfo at start: it will not start either");
    return;
  }
  const uint64_t limit = m->cgroup != 0 ? m->cgroup : m->physical;
  const std::string source = m->cgroup != 0 ? "cgroup limit " + bytes_text(m->cgroup) + " (MemTotal " +
                                                  bytes_text(m->physical) + ")"
                                            : "MemTotal " + bytes_text(m->physical) + ", no cgroup limit";
  uint64_t budget = e.host_memory_bytes;
  if (budget == 0) {
    if (e.host_memory_margin >= limit) {
      r.add(item, verdict::problem, source + ": host_memory_margin_mb (" + bytes_text(e.host_memory_margin) +
            ") leaves no budget", "lower engine.host_memory_margin_mb");
      return;
    }
    budget = limit - e.host_memory_margin;
  } else if (budget > limit) {
    r.add(item, verdict::problem, source + ": engine.host_memory_mb (" + bytes_text(budget) + ") is above it, so "
          "the kernel's OOM killer, not the budget, would stop the daemon", "set engine.host_memory_mb below " +
          bytes_text(limit) + ", or 0 (the limit minus host_memory_margin_mb)");
    return;
  }
  const uint64_t key_share = static_cast<uint64_t>(static_cast<double>(budget) * e.key_memory_fraction);
  uint64_t largest = 0, all = 0;
  std::string largest_id;
  for (const key_files& k : keys) {
    if (!k.present) continue;  // its own finding says why
    const uint64_t charge = engine::file_key_charge(k.bytes);
    all += charge;
    if (charge > largest) {
      largest = charge;
      largest_id = k.entry->id;
    }
  }
  const std::string head = source + "; budget " + bytes_text(budget) + ", keys' share " + bytes_text(key_share);
  const std::string fix = "raise engine.key_memory_fraction or engine.host_memory_mb, or add memory";
  if (largest > key_share) {
    r.add(item, verdict::problem, head + ": key " + largest_id + " is charged " + bytes_text(largest) +
          " (its files and a quarter), more than the share: the key store refuses it", fix);
  } else if (all > key_share) {
    r.add(item, verdict::warning, head + ": the keys together are charged " + bytes_text(all) +
          ": they cannot all stay loaded, and an evicted key is read again at its next job", fix);
  } else {
    r.add(item, verdict::ok, head + (keys.empty() ? std::string("; no [[keys]] configured")
                                                  : "; the keys are charged " + bytes_text(all)));
  }
}

void check_huge_pages(host_probes& probes, report& r) {
  const std::string item = "transparent huge pages";
  const result<std::string> mode = probes.transparent_hugepages();
  const std::string fix = "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled (and the kernel command line "
                          "transparent_hugepage=madvise to keep it)";
  if (!mode.ok()) {
    r.add(item, verdict::warning, "cannot read the mode: " + mode.error().message(), fix);
  } else if (*mode == "never") {
    r.add(item, verdict::warning, "never: the keys' memory, which proofpipe asks for in huge pages (madvise), is "
          "faulted in 4 KiB pages", fix);
  } else {
    r.add(item, verdict::ok, *mode);
  }
}

}  // namespace pp::doctor
