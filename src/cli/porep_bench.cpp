// `proofpipe bench --porep`: whole PoRep C2 proofs (10 partitions of the PoRep-shaped circuit,
// INSECURE key in bellperson's layout with its points made on the GPU, every proof self-verified)
// through the engine, the
// daemon's path. Per configuration (each VRAM budget x host-to-device cap x H copies x partitions
// taken together, a fresh engine over
// the same key): the key's load (host preload, then one untimed proof of one partition per worker:
// the device upload and the kernels' first launches), then `proofs` proofs submitted at once:
// seconds per C2 proof from the first witness in to the last verified proof out, partitions per
// hour, the GPUs' busy fraction over that window (CUDA events) and the bytes each partition copied
// host to device. Lines "result NAME VALUE" feed scripts/h200_json.py (the first configuration).
//   proofpipe bench --porep                                     # 2^27, 3 proofs, every GPU
//   proofpipe bench --porep --vram-gib 0,24,16 --h2d-gib-s 0,25  # what a 24 / 16 GiB PCIe 4.0 card gets
//   proofpipe bench --porep --h-copies 1,4                      # precomputed copies of H where memory is left
//   proofpipe bench --porep --vram-gib 16 --h2d-gib-s 25 --together 1,3  # one streamed copy for 3 partitions
//   proofpipe bench --porep --log-constraints 12 --backend cpu   # the same run at CI's size
//   proofpipe bench --porep --vram-gib 0,24 --trace c2.json     # c2-vram0-h2d0-copies1-k1.json, ...
//   proofpipe bench --porep --vram-gib 16 --matrix-chunk-mib 512  # a row chunk size against the tuning's
//   proofpipe bench --porep --vram-gib 24 --together 5 --key-memory-fraction 0.7  # more partitions in flight
// Each configuration also prints its backend steps' medians (porep_step lines): where a partition's
// time goes, to compare two configurations step by step.
#include "cli/porep_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "cli/bench_workload.hpp"
#include "cli/command_run.hpp"
#include "cli/proof_batch_figures.hpp"
#include "core/status_macros.hpp"
#include "cuda/plan/together_plan.hpp"
#include "cuda/plan/witness_layout.hpp"
#include "devices/gpu_devices.hpp"
#include "engine/device_choice.hpp"
#include "engine/engine.hpp"

namespace pp::cli {
namespace {

constexpr double gib = 1073741824.0;
using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// One configuration: one value of each list of porep_bench_args.
struct porep_configuration {
  double vram_gib = 0, h2d_gib_s = 0;  // 0: unlimited, uncapped
  uint32_t h_copies = 1;               // asked for: the plan keeps fewer where memory is short
  uint32_t together = 1;               // engine.partitions_together
  uint32_t together_wait_ms = 0;       // engine.together_wait_ms
};

// Every combination of the lists, the first list outermost (the order the rows print in).
std::vector<porep_configuration> configurations_of(const porep_bench_args& a) {
  std::vector<porep_configuration> out;
  for (const double vram : a.vram_gib) {
    for (const double cap : a.h2d_gib_s) {
      for (const uint32_t copies : a.h_copies) {
        for (const uint32_t k : a.together) {
          for (const uint32_t wait_ms : a.together_wait_ms) out.push_back({vram, cap, copies, k, wait_ms});
        }
      }
    }
  }
  return out;
}

// One configuration's figures.
struct porep_row {
  porep_configuration c;
  double key_load_s = 0;
  proof_batch_figures batch;
  double gpu_busy = -1;        // -1: no GPU
  double h2d_gib_per_partition = -1;
  double region_gib = -1;      // the GPUs' device regions, summed
  std::vector<step_median> steps;  // the backend's steps over the timed partitions
};

// The devices an engine made, kept as they were handed to it (the engine owns them and outlives
// every use here), for their own measures.
struct device_watch {
  std::vector<devices::device*> list;

  void reset() const {
    for (auto* d : list) d->reset_measures();
  }
  [[nodiscard]] std::optional<devices::device_measures> sum() const {
    std::optional<devices::device_measures> out;
    int measured = 0;  // the GPUs: a CPU device has no measures of its own
    for (const auto* d : list) {
      const auto m = d->measures();
      if (!m) continue;
      if (!out) out = devices::device_measures{};
      ++measured;
      out->busy_fraction += m->busy_fraction;
      out->h2d_bytes += m->h2d_bytes;
      out->region_bytes += m->region_bytes;
    }
    if (out) out->busy_fraction /= measured;
    return out;
  }
};

// The bytes the workload's witness packs to (a lane's staging holds k of them together); 0 for a
// witness read from a file.
uint64_t packed_witness_bytes_of(const bench_workload& w) {
  const auto* witness = std::get_if<engine::witness_ptr<ec::bls12_381::family>>(&w.witness.value);
  return witness != nullptr ? cuda::packed_layout_of(std::span<const ff::fr>(**witness)).bytes : 0;
}

// The trace file of one configuration: "c2.json" -> "c2-vram24-h2d25-copies1-k3-wait20.json" (0: unlimited,
// uncapped; no extension: the suffix is appended).
std::string trace_path_for(const std::string& trace, const porep_configuration& c) {
  char suffix[128];
  std::snprintf(suffix, sizeof suffix, "-vram%g-h2d%g-copies%u-k%u-wait%u", c.vram_gib, c.h2d_gib_s, c.h_copies,
                c.together, c.together_wait_ms);
  const size_t dot = trace.rfind('.');
  const size_t slash = trace.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return trace + suffix;
  return trace.substr(0, dot) + suffix + trace.substr(dot);
}

result<porep_row> run_configuration(command_run& run, const porep_bench_args& a, const bench_workload& w,
                                    uint64_t packed_witness_bytes, const porep_configuration& c) {
  engine::engine_config cfg;
  devices::gpu_device_options g;
  g.ordinals = a.gpus;
  g.max_vram_bytes = uint64_t(c.vram_gib * gib);
  g.h2d_cap_bytes_per_s = c.h2d_gib_s * gib;
  g.h_copies = c.h_copies;
  g.max_matrix_chunk_bytes = uint64_t{a.matrix_chunk_mib} << 20;
  // Partitions together need their packed witnesses in a lane's staging (a 2^27 PoRep witness packs
  // to ~0.45 GiB).
  if (c.together > 1 && packed_witness_bytes != 0) {
    g.staging_bytes = std::max(g.staging_bytes, cuda::together_staging_bytes(c.together, packed_witness_bytes));
  }
  cfg.partitions_together = c.together;
  cfg.together_wait = std::chrono::milliseconds(c.together_wait_ms);
  cfg.bn254_cpu_device = false;  // the PoRep circuit is BLS12-381's: the GPUs alone, and their busy fraction
  PP_ASSIGN_OR_RETURN(const bool gpus, engine::choose_devices(a.backend, a.workers, g, cfg));
  if (!gpus && (c.vram_gib > 0 || c.h2d_gib_s > 0 || c.h_copies > 1 || c.together > 1 || a.matrix_chunk_mib > 0)) {
    return invalid_argument("--vram-gib, --h2d-gib-s, --h-copies, --together and --matrix-chunk-mib need GPUs (--backend "
                            "cuda or auto on a GPU host)");
  }
  auto watch = std::make_shared<device_watch>();
  if (cfg.make_devices) {
    cfg.make_devices = [make = cfg.make_devices, watch]() -> result<std::vector<devices::device_ptr>> {
      PP_ASSIGN_OR_RETURN(auto made, make());
      for (const auto& d : made) watch->list.push_back(d.get());
      return made;
    };
  }
  cfg.witness_threads = a.witness_threads;
  cfg.finish_threads = a.finish_threads;
  cfg.host_memory_bytes = a.memory_mib << 20;
  cfg.key_memory_fraction = a.key_memory_fraction;
  cfg.self_verify = true;
  PP_ASSIGN_OR_RETURN(auto eng, engine::engine::create(cfg));
  porep_row row;
  row.c = c;

  const auto submit = [&](uint32_t partitions) -> result<engine::job_id> {
    engine::submit_request req;
    req.key_id = "porep";
    req.witnesses.assign(partitions, w.witness);
    return eng->submit(std::move(req));
  };
  std::map<std::string, std::vector<double>> step_ms;  // the timed partitions' backend steps
  const auto await_ok = [&](engine::job_id id, bool timed) -> status {
    PP_ASSIGN_OR_RETURN(const engine::job_result r, eng->await(id));
    if (r.state != engine::job_state::succeeded) return r.error.with_context("job " + std::to_string(id));
    if (!timed) return ok_status();
    for (const auto& p : r.partitions) {
      for (const auto& st : p.backend_steps) {
        step_ms[st.stage].push_back(std::chrono::duration<double, std::milli>(st.elapsed).count());
      }
    }
    return ok_status();
  };

  const auto t_load = clock_type::now();
  PP_RETURN_IF_ERROR(eng->register_key("porep", w.key));
  PP_RETURN_IF_ERROR(eng->preload_key("porep"));
  run.progress("key load: one untimed partition per worker (the device upload, the kernels' first launches)");
  {
    const auto workers = uint32_t(std::max<size_t>(watch->list.size(), 1)) * cfg.workers_per_device;
    PP_ASSIGN_OR_RETURN(const engine::job_id id, submit(workers));
    PP_RETURN_IF_ERROR(await_ok(id, false));
  }
  row.key_load_s = seconds_since(t_load);

  watch->reset();
  const auto before = watch->sum();
  run.progress("proving " + std::to_string(a.proofs) + " C2 proofs of " + std::to_string(a.partitions) +
               " partitions (VRAM " + (c.vram_gib > 0 ? std::to_string(c.vram_gib) + " GiB" : "unlimited") +
               ", host-to-device " + (c.h2d_gib_s > 0 ? std::to_string(c.h2d_gib_s) + " GiB/s" : "uncapped") +
               ", H copies " + std::to_string(c.h_copies) + ", " + std::to_string(c.together) + " together)");
  const auto t0 = clock_type::now();
  std::vector<engine::job_id> ids;
  for (uint32_t i = 0; i < a.proofs; ++i) {
    PP_ASSIGN_OR_RETURN(const engine::job_id id, submit(a.partitions));
    ids.push_back(id);
  }
  std::vector<double> done;
  for (const engine::job_id id : ids) {
    PP_RETURN_IF_ERROR(await_ok(id, true));
    done.push_back(seconds_since(t0));
  }
  PP_ASSIGN_OR_RETURN(row.batch, figures_of_batch(done, a.partitions));
  row.steps = step_medians(step_ms);
  if (!a.trace.empty()) {
    const std::string path = trace_path_for(a.trace, c);
    PP_RETURN_IF_ERROR(eng->write_trace(path));
    run.progress("trace written to " + path + " (open in https://ui.perfetto.dev)");
  }
  if (const auto after = watch->sum(); after && before) {
    row.gpu_busy = after->busy_fraction;
    row.h2d_gib_per_partition = double(after->h2d_bytes - before->h2d_bytes) / gib / (double(a.proofs) * a.partitions);
    row.region_gib = double(after->region_bytes) / gib;
  }
  PP_RETURN_IF_ERROR(eng->shutdown());
  return row;
}

std::string gib_label(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return v > 0 ? buf : "-";
}

// One configuration's figures as one line, printed as it ends: a run cut short keeps the rows done.
void print_run_line(const porep_row& r, const porep_bench_args& a) {
  std::printf("porep_run log=%u vram_gib=%g h2d_gib_s=%g h_copies=%u together=%u together_wait_ms=%u proofs=%u "
              "partitions=%u key_load_s=%.3f "
              "c2_proof_s=%.4f steady_s=%.4f first_s=%.4f partitions_per_hour=%.1f gpu_busy=%.4f "
              "h2d_gib_per_partition=%.4f region_gib=%.4f\n",
              a.log_constraints, r.c.vram_gib, r.c.h2d_gib_s, r.c.h_copies, r.c.together, r.c.together_wait_ms, a.proofs,
              a.partitions, r.key_load_s,
              r.batch.seconds_per_proof, r.batch.steady_seconds_per_proof, r.batch.first_proof_s,
              r.batch.partitions_per_hour, r.gpu_busy, r.h2d_gib_per_partition, r.region_gib);
  // Where a partition's time goes under this configuration (the name last: it has spaces).
  for (const step_median& st : r.steps) {
    std::printf("porep_step vram_gib=%g h2d_gib_s=%g h_copies=%u together=%u partitions=%zu median_ms=%.3f step=%s\n",
                r.c.vram_gib, r.c.h2d_gib_s, r.c.h_copies, r.c.together, st.partitions, st.median_ms, st.step.c_str());
  }
  std::fflush(stdout);
}

void print_rows(const std::vector<porep_row>& rows, const porep_bench_args& a, const std::string& label) {
  const std::string chunks =
      a.matrix_chunk_mib > 0 ? ", streamed matrices in row chunks of " + std::to_string(a.matrix_chunk_mib) + " MiB" : "";
  std::printf("workload      %s, C2 proofs of %u partitions, %u proofs per configuration%s\n", label.c_str(),
              a.partitions, a.proofs, chunks.c_str());
  std::printf("%-8s %-8s %-8s %-8s %-7s %10s %10s %10s %10s %12s %8s %12s %10s\n", "vram_gib", "h2d_gib/s", "h_copies",
              "together", "wait_ms", "key_load_s", "s_per_c2", "steady_s", "first_s", "partitions/h", "gpu_busy", "h2d_gib/part", "region_gib");
  for (const porep_row& r : rows) {
    std::printf("%-8s %-8s %-8u %-8u %-7u %10.2f %10.3f %10.3f %10.3f %12.0f %8s %12s %10s\n", gib_label(r.c.vram_gib).c_str(),
                gib_label(r.c.h2d_gib_s).c_str(), r.c.h_copies, r.c.together, r.c.together_wait_ms, r.key_load_s, r.batch.seconds_per_proof,
                r.batch.steady_seconds_per_proof, r.batch.first_proof_s, r.batch.partitions_per_hour,
                r.gpu_busy < 0 ? "-" : (std::to_string(int(100 * r.gpu_busy + 0.5)) + "%").c_str(),
                r.h2d_gib_per_partition < 0 ? "-" : std::to_string(r.h2d_gib_per_partition).substr(0, 6).c_str(),
                r.region_gib < 0 ? "-" : std::to_string(r.region_gib).substr(0, 6).c_str());
  }
  // The first configuration's figures, for scripts/h200_json.py.
  const porep_row& f = rows.front();
  std::printf("result porep_c2_proof_s %.4f\n", f.batch.seconds_per_proof);
  std::printf("result porep_c2_steady_proof_s %.4f\n", f.batch.steady_seconds_per_proof);
  std::printf("result porep_c2_partitions_per_hour %.1f\n", f.batch.partitions_per_hour);
  if (f.gpu_busy >= 0) std::printf("result porep_c2_gpu_busy %.4f\n", f.gpu_busy);
  std::printf("result porep_c2_key_load_s %.3f\n", f.key_load_s);
}

}  // namespace

int run_porep_bench(const porep_bench_args& a, bool quiet) {
  command_run run("bench", quiet);
  if (a.vram_gib.empty() || a.h2d_gib_s.empty() || a.h_copies.empty() || a.together.empty() ||
      a.together_wait_ms.empty()) {
    return run.fail("--vram-gib, --h2d-gib-s, --h-copies, --together and --together-wait-ms need at least one value");
  }
  // The GPU that makes the key's points: the first one used, when GPUs serve.
  int points_gpu = -1;
  if (a.backend != "cpu") {
    auto count = devices::gpu_count();
    if (!count.ok()) return run.fail(count.error());
    if (*count > 0) points_gpu = a.gpus.empty() ? 0 : a.gpus.front();
  }
  // bellperson's layout: what a C2 proof's key is (bench_workload.hpp).
  auto w = make_synthetic_workload(run, a.log_constraints, groth16::h_basis::monomial, points_gpu);
  if (!w.ok()) return run.fail(w.error());
  const bool any_together = std::any_of(a.together.begin(), a.together.end(), [](uint32_t k) { return k > 1; });
  const uint64_t packed_witness_bytes = any_together ? packed_witness_bytes_of(*w) : 0;  // once, not per row
  std::vector<porep_row> rows;
  for (const porep_configuration& c : configurations_of(a)) {
    auto row = run_configuration(run, a, *w, packed_witness_bytes, c);
    if (!row.ok()) return run.fail(row.error());
    print_run_line(*row, a);
    rows.push_back(*row);
  }
  print_rows(rows, a, w->label);
  return 0;
}

}  // namespace pp::cli
