// gpu_checks: who would prove (engine/device_choice.hpp's rule: the GPUs for "cuda" and for "auto"
// when there are any, else the CPU backend) and, per GPU that would, its driver, whether the
// binary's kernels run on it, and each key's plan in its VRAM budget (key_vram.hpp).
#include <algorithm>
#include <string>

#include "doctor/checks.hpp"
#include "doctor/cuda_architectures.hpp"

namespace pp::doctor {
namespace {

std::string version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

std::string gpu_name(const devices::gpu_facts& g) {
  return g.name + " (compute capability " + std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor) + ")";
}

void check_driver(const devices::gpu_facts& g, const std::string& item, report& r) {
  const std::string versions = "driver supports CUDA " + version_text(g.driver_version) + ", this binary's runtime is " +
                               version_text(g.runtime_version);
  const std::string fix = "install an NVIDIA driver for CUDA " + version_text(g.runtime_version) + " or newer";
  if (g.driver_version / 1000 < g.runtime_version / 1000) {
    r.add(item, verdict::problem, versions, fix);
  } else if (g.driver_version < g.runtime_version) {
    r.add(item, verdict::warning, versions + ": it runs (minor version compatibility) but cannot compile PTX", fix);
  } else {
    r.add(item, verdict::ok, versions);
  }
}

void check_architecture(const devices::gpu_facts& g, const std::string& architectures, const std::string& item,
                        report& r) {
  const auto built = parse_cuda_architectures(architectures);
  const std::string fix = "build with -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(g.cc_major) +
                          std::to_string(g.cc_minor) + " (or add it to the list)";
  if (!built.ok()) {
    r.add(item, verdict::warning, "cannot tell whether this binary's kernels run on " + gpu_name(g) + ": " +
          built.error().message(), fix);
    return;
  }
  switch (support_for(*built, g.cc_major, g.cc_minor)) {
    case arch_support::native:
      r.add(item, verdict::ok, gpu_name(g) + " runs the kernels built for " + architectures);
      break;
    case arch_support::jit:
      r.add(item, verdict::warning, gpu_name(g) + ": the binary carries only PTX it can use (built for " +
            architectures + "): the driver compiles every kernel at first use, minutes before the first proof", fix);
      break;
    case arch_support::none:
      r.add(item, verdict::problem, gpu_name(g) + ": this binary carries no kernels it can run (built for " +
            architectures + ")", fix);
      break;
  }
}

void check_vram(const server::engine_section& e, const devices::gpu_facts& g, uint32_t lanes,
                const std::vector<key_files>& keys, const key_vram_planner& plan_key, const std::string& item,
                report& r) {
  uint64_t budget = static_cast<uint64_t>(static_cast<double>(g.free_bytes) * e.gpu.vram_share);
  if (e.gpu.max_vram_bytes != 0) budget = std::min(budget, e.gpu.max_vram_bytes);
  const std::string head = bytes_text(g.free_bytes) + " free of " + bytes_text(g.total_bytes) + ", budget " +
                           bytes_text(budget) + " (gpu_vram_share" + (e.gpu.max_vram_bytes ? ", gpu_vram_max_mb" : "") +
                           ")";
  if (std::none_of(keys.begin(), keys.end(), [](const key_files& k) { return k.present; })) {
    r.add(item, verdict::ok, head + "; no key to plan (a key registered later is planned at its first partition)");
  }
  for (const key_files& k : keys) {
    if (!k.present) continue;  // its own finding says why
    const key_vram_plan p = plan_key({*k.entry, k.bytes, budget, lanes, e.gpu.h_copies});
    const std::string detail = head + "; key " + k.entry->id + ": " + p.summary;
    switch (p.placement) {
      case key_placement::resident:
      case key_placement::streamed:
        r.add(item, verdict::ok, detail);
        break;
      case key_placement::unknown:
        r.add(item, verdict::warning, detail, "make the key's files readable and matching (the key's own line)");
        break;
      case key_placement::refused:
        r.add(item, verdict::problem, detail + "; it needs at least " + bytes_text(p.least_bytes),
              "free the GPU's memory or raise gpu_vram_share / gpu_vram_max_mb to at least " + bytes_text(p.least_bytes) +
                  ", or prove this key on another GPU or the CPU (engine.gpus, engine.backend)");
        break;
    }
  }
}

}  // namespace

serving check_gpus(const doctor_input& in, const std::vector<key_files>& keys, host_probes& probes,
                   const key_vram_planner& plan_key, report& r) {
  const server::engine_section& e = in.config.engine;
  const std::string item = "GPUs";
  const bool required = e.backend == "cuda";
  serving s;
  if (e.backend == "cpu") {
    r.add(item, verdict::ok, "engine.backend = \"cpu\": the CPU backend will serve");
    return s;
  }
  if (!in.gpu_support_built) {
    if (required) {
      r.add(item, verdict::problem, "engine.backend = \"cuda\" but this build has no CUDA backend",
            "install a build with the CUDA backend (nvcc present when it was built), or set engine.backend = \"auto\"");
    } else {
      r.add(item, verdict::ok, "this build has no CUDA backend: the CPU backend will serve");
    }
    return s;
  }
  const result<std::vector<devices::gpu_facts>> found = probes.gpus();
  if (!found.ok() || found->empty()) {
    const std::string why = found.ok() ? "no GPU found (no NVIDIA device, or no driver for it)"
                                       : "the CUDA runtime failed: " + found.error().message();
    if (required) {
      r.add(item, verdict::problem, "engine.backend = \"cuda\" but " + why,
            "install the NVIDIA driver (nvidia-smi must list the GPU), or set engine.backend = \"auto\"");
    } else {
      r.add(item, found.ok() ? verdict::ok : verdict::warning, why + ": the CPU backend will serve",
            found.ok() ? "" : "check the NVIDIA driver with nvidia-smi");
    }
    return s;
  }
  for (const int ord : e.gpu.ordinals) {
    if (std::none_of(found->begin(), found->end(), [ord](const devices::gpu_facts& g) { return g.ordinal == ord; })) {
      r.add(item, verdict::problem, "engine.gpus lists GPU " + std::to_string(ord) + ", which is not present (" +
            std::to_string(found->size()) + " found)", "list the GPUs nvidia-smi shows (CUDA ordinals), or leave engine.gpus empty");
      return s;
    }
  }
  for (const devices::gpu_facts& g : *found) {
    if (e.gpu.ordinals.empty() || std::find(e.gpu.ordinals.begin(), e.gpu.ordinals.end(), g.ordinal) != e.gpu.ordinals.end()) {
      s.gpus.push_back(g);
    }
  }
  s.lanes = e.workers_per_device != 0 ? e.workers_per_device : 2;
  std::string names;
  for (const devices::gpu_facts& g : s.gpus) names += (names.empty() ? "" : ", ") + std::to_string(g.ordinal) + " " + g.name;
  r.add(item, verdict::ok, std::to_string(s.gpus.size()) + " will serve, " + std::to_string(s.lanes) + " workers each: " + names);
  for (const devices::gpu_facts& g : s.gpus) {
    const std::string gpu = "GPU " + std::to_string(g.ordinal);
    check_driver(g, gpu + " driver", r);
    check_architecture(g, in.cuda_architectures, gpu + " architecture", r);
    check_vram(e, g, s.lanes, keys, plan_key, gpu + " VRAM", r);
  }
  return s;
}

}  // namespace pp::doctor
