// `proofpipe bench`: drives the in-process engine with a workload and reports throughput.
//   proofpipe bench --log-constraints 10 --partitions 2 --proofs 8 --cpu-devices 1 --trace out.json
//   proofpipe bench --zkey circuit.zkey --wtns w.wtns --partitions 4 --proofs 20
//   proofpipe bench --backend cuda --workers 2 --log-constraints 22 --partitions 10 --proofs 4
//   proofpipe bench --porep [--vram-gib 0,24,16] [--h2d-gib-s 0,25] [--h-copies 1,4] [--together 1,3] [--trace c2.json]
//     [--matrix-chunk-mib 256]
//     (whole C2 proofs: porep_bench.cpp)
// Circuits come from the synthetic PoRep-shaped generator at 2^k constraints (insecure setup, said
// so) or from a snarkjs zkey with a witness file (bench_workload.hpp). Prints proofs/hour,
// partitions/s, per-stage medians, each device's busy fraction, and writes the Chrome trace. Flags
// that set an engine knob take the knob table's range (knob_range_check.hpp).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cli/bench_workload.hpp"
#include "cli/command_run.hpp"
#include "cli/commands.hpp"
#include "cli/knob_range_check.hpp"
#include "cli/porep_bench.hpp"
#include "cli/proof_batch_figures.hpp"
#include "core/status_macros.hpp"
#include "devices/gpu_devices.hpp"
#include "engine/device_choice.hpp"
#include "engine/engine.hpp"

namespace pp::cli {
namespace {

struct bench_args {
  uint32_t log_constraints = 10;
  std::string zkey;
  std::string wtns;
  uint32_t partitions = 2;
  uint32_t proofs = 8;
  std::string backend = "cpu";
  // The engine's knobs start at the engine's own defaults (engine_config, gpu_device_options).
  uint32_t cpu_devices = engine::engine_config{}.cpu_devices;
  uint32_t workers = 0;  // 0: 2 per GPU, 1 per CPU device
  double gpu_vram_share = devices::gpu_device_options{}.vram_share;
  std::vector<int> gpus;        // GPU ordinals to use; empty: all
  std::string fail_device;      // a device whose first partition fails (test hook): out of rotation
  int warmup = -1;              // untimed proofs first; -1: 1 with GPUs (each uploads the key once), else 0
  uint32_t witness_threads = engine::engine_config{}.witness_threads;
  uint32_t finish_threads = engine::engine_config{}.finish_threads;
  uint64_t memory_mib = 0;
  bool no_verify = false;
  std::string trace;
  bool porep = false;  // --porep: porep_bench.hpp
  std::vector<double> vram_gib;
  std::vector<double> h2d_gib_s;
  std::vector<uint32_t> h_copies;
  std::vector<uint32_t> together;
  std::vector<uint32_t> together_wait_ms;
  double key_memory_fraction = 0;
  uint32_t matrix_chunk_mib = 0;
};

double ms(std::chrono::nanoseconds d) { return std::chrono::duration<double, std::milli>(d).count(); }

// What the timed proofs gave.
struct bench_tally {
  std::map<std::string, std::vector<double>> run_ms, wait_ms;  // per stage
  std::vector<double> gpu_ms;  // per partition: the sum of the backend's "gpu ..." steps
  uint32_t failed = 0;
};

// Submits `count` proofs of the "bench" key, each of a.partitions copies of the witness.
status submit_proofs(engine::engine& eng, const bench_args& a, const engine::witness_source& witness, uint32_t count,
                     std::vector<engine::job_id>& out) {
  for (uint32_t i = 0; i < count; ++i) {
    engine::submit_request req;
    req.key_id = "bench";
    req.witnesses.assign(a.partitions, witness);
    PP_ASSIGN_OR_RETURN(const engine::job_id id, eng.submit(std::move(req)));
    out.push_back(id);
  }
  return ok_status();
}

// Untimed proofs first: a GPU uploads the key at its first partition, which is setup, not throughput.
status warm_up(engine::engine& eng, const bench_args& a, const engine::witness_source& witness, uint32_t count,
               command_run& run) {
  if (count == 0) return ok_status();
  run.progress("warm-up: " + std::to_string(count) + " untimed proof(s) (each device takes the key)");
  std::vector<engine::job_id> ids;
  PP_RETURN_IF_ERROR(submit_proofs(eng, a, witness, count, ids));
  for (engine::job_id id : ids) PP_RETURN_IF_ERROR(eng.await(id).take_status());
  return ok_status();
}

// Awaits every job; a job that failed is counted and named on stderr, an await that failed ends it.
result<bench_tally> await_all(engine::engine& eng, const std::vector<engine::job_id>& ids) {
  bench_tally t;
  for (engine::job_id id : ids) {
    PP_ASSIGN_OR_RETURN(const engine::job_result r, eng.await(id));
    if (r.state != engine::job_state::succeeded) {
      ++t.failed;
      std::fprintf(stderr, "proofpipe bench: job %llu: %s\n", static_cast<unsigned long long>(id),
                   r.error.to_string().c_str());
      continue;
    }
    for (const auto& p : r.partitions) {
      double gpu = 0;
      for (const auto& st : p.backend_steps) {
        if (st.stage.rfind("gpu ", 0) == 0) gpu += ms(st.elapsed);
      }
      if (gpu > 0) t.gpu_ms.push_back(gpu);
      for (const auto& st : p.stages) {
        t.run_ms[st.stage].push_back(ms(st.elapsed));
        t.wait_ms[st.stage].push_back(ms(st.queued));
      }
    }
  }
  return t;
}

// The report: workload, wall time, throughput, per-stage medians, GPU time, devices, memory.
void print_report(const bench_args& a, const std::string& label, const std::string& devices, uint32_t workers,
                  double secs, const bench_tally& t, const engine::engine_status& st) {
  const auto median_of = [](const std::map<std::string, std::vector<double>>& by_stage, const char* stage) {
    const auto it = by_stage.find(stage);
    return it == by_stage.end() ? 0.0 : upper_median(it->second);
  };
  const uint32_t ok = a.proofs - t.failed;
  std::printf("workload      %s, %u proofs x %u partitions, %s x %u worker(s)\n", label.c_str(), a.proofs, a.partitions,
              devices.c_str(), workers);
  std::printf("wall          %.3f s, %u ok, %u failed\n", secs, ok, t.failed);
  std::printf("throughput    %.1f proofs/hour, %.2f partitions/s\n", ok * 3600.0 / secs, ok * a.partitions / secs);
  std::printf("stage         median run ms   median queued ms\n");
  for (const char* stage : {"witness", "device", "finish"}) {
    std::printf("  %-10s  %13.2f   %16.2f\n", stage, median_of(t.run_ms, stage), median_of(t.wait_ms, stage));
  }
  if (!t.gpu_ms.empty()) {
    std::printf("gpu time      %.2f ms per partition (median of the summed GPU steps, CUDA events)\n",
                upper_median(t.gpu_ms));
  }
  for (const auto& d : st.devices) {
    std::printf("device %-6s %s busy %.1f%%, %llu partitions, %llu failures%s%s\n", d.name.c_str(),
                d.kind == "cuda" ? "GPU (kernel intervals, CUDA events)" : "(>= 1 worker in start())", 100 * d.busy_fraction,
                static_cast<unsigned long long>(d.partitions_done), static_cast<unsigned long long>(d.failures),
                d.healthy ? "" : ", OUT OF ROTATION: ", d.healthy ? "" : d.fault.c_str());
  }
  std::printf("memory        partitions peak %llu of %llu bytes\n", static_cast<unsigned long long>(st.memory.partitions_peak),
              static_cast<unsigned long long>(st.memory.partitions_total));
}

int run_bench(const bench_args& a, bool quiet) {
  command_run run("bench", quiet);
  engine::engine_config cfg;
  devices::gpu_device_options g;
  g.vram_share = a.gpu_vram_share;
  g.ordinals = a.gpus;
  auto chosen = engine::choose_devices(a.backend, a.workers, g, cfg);
  if (!chosen.ok()) return run.fail(chosen.error().with_context("--backend"));
  const bool gpus = *chosen;
  const std::string devices =
      gpus ? (a.gpus.empty() ? std::string("every GPU") : std::to_string(a.gpus.size()) + " GPU(s)")
           : std::to_string(a.cpu_devices) + " CPU device(s)";
  // The key is made before the engine reserves the GPUs' memory (bench_workload.hpp).
  auto w = a.zkey.empty()
               ? make_synthetic_workload(run, a.log_constraints, groth16::h_basis::odd_coset_lagrange,
                                         gpus ? (a.gpus.empty() ? 0 : a.gpus.front()) : -1)
               : make_zkey_workload(a.zkey, a.wtns);
  if (!w.ok()) return run.fail(w.error());
  cfg.cpu_devices = a.cpu_devices;
  cfg.witness_threads = a.witness_threads;
  cfg.finish_threads = a.finish_threads;
  cfg.host_memory_bytes = a.memory_mib << 20;
  cfg.self_verify = !a.no_verify;
  auto created = engine::engine::create(cfg);
  if (!created.ok()) return run.fail(created.error());
  auto& eng = **created;

  if (auto s = eng.register_key("bench", w->key); !s.ok()) return run.fail(s);
  if (auto s = run.step("preload", "loading the key", [&] { return eng.preload_key("bench"); }); !s.ok()) {
    return run.fail(s);
  }
  const uint32_t warmup = a.warmup >= 0 ? uint32_t(a.warmup) : gpus ? 1 : 0;
  if (auto s = warm_up(eng, a, w->witness, warmup, run); !s.ok()) return run.fail(s);
  if (!a.fail_device.empty()) {
    if (auto s = eng.inject_device_failure(a.fail_device, 1); !s.ok()) return run.fail(s);
    run.progress("device " + a.fail_device + " will fail its next partition (injected) and leave rotation");
  }
  run.progress("proving " + std::to_string(a.proofs) + " proofs of " + std::to_string(a.partitions) + " partitions on " +
               devices + " x " + std::to_string(cfg.workers_per_device) + " worker(s)");
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<engine::job_id> ids;
  if (auto s = submit_proofs(eng, a, w->witness, a.proofs, ids); !s.ok()) return run.fail(s);
  auto tally = await_all(eng, ids);
  if (!tally.ok()) return run.fail(tally.error());
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  print_report(a, w->label, devices, cfg.workers_per_device, secs, *tally, eng.status());
  if (!a.trace.empty()) {
    if (auto s = eng.write_trace(a.trace); !s.ok()) return run.fail(s);
    run.progress("trace written to " + a.trace + " (open in https://ui.perfetto.dev)");
  }
  if (auto s = eng.shutdown(); !s.ok()) return run.fail(s);
  return tally->failed == 0 ? 0 : 1;
}

}  // namespace

void add_bench_command(CLI::App& app, cli_state& state) {
  auto args = std::make_shared<bench_args>();
  auto* cmd = app.add_subcommand("bench", "drive the in-process engine with a workload; print throughput, write a trace");
  cmd->add_option("--log-constraints", args->log_constraints, "synthetic circuit of 2^k constraints (default 10)");
  cmd->add_option("--zkey", args->zkey, "benchmark this snarkjs zkey instead of a synthetic circuit");
  cmd->add_option("--wtns", args->wtns, "witness for --zkey (every partition uses it)");
  cmd->add_option("--partitions", args->partitions, "partitions per proof (default 2)")
      ->check(CLI::Range(1u, engine::max_partitions));
  cmd->add_option("--proofs", args->proofs, "proofs to run (default 8)")->check(CLI::Range(1, 1000000));
  cmd->add_option("--backend", args->backend, "cpu (default), cuda, or auto (cuda when a GPU is present)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  cmd->add_option("--cpu-devices", args->cpu_devices, "CPU devices")
      ->capture_default_str()
      ->check(knob_range_check("engine.cpu_devices"));
  cmd->add_option("--warmup", args->warmup, "untimed proofs first (default: 1 with GPUs, 0 on CPUs)")
      ->check(CLI::Range(0, 1000));
  cmd->add_option("--gpus", args->gpus, "GPU ordinals to use, e.g. --gpus 0 1 (default: every GPU)")
      ->check(knob_range_check("engine.gpus"));
  cmd->add_option("--fail-device", args->fail_device,
                  "inject a failure into this device's first timed partition (gpu0, cpu0): it leaves rotation and its "
                  "partition is retried elsewhere");
  cmd->add_option("--gpu-vram-share", args->gpu_vram_share, "share of each GPU's free memory to reserve")
      ->capture_default_str()
      ->check(knob_range_check("engine.gpu_vram_share"));
  cmd->add_option("--workers", args->workers, "workers per device (default 0: 2 per GPU, 1 per CPU device)")
      ->check(knob_range_check("engine.workers_per_device"));
  cmd->add_option("--witness-threads", args->witness_threads, "witness pool threads")
      ->capture_default_str()
      ->check(knob_range_check("engine.witness_threads"));
  cmd->add_option("--finish-threads", args->finish_threads, "finalizer pool threads")
      ->capture_default_str()
      ->check(knob_range_check("engine.finish_threads"));
  cmd->add_option("--memory-mib", args->memory_mib,
                  "host memory budget in MiB (default 0: the cgroup limit, else MemTotal, minus the engine's margin)")
      ->check(knob_range_check("engine.host_memory_mb"));
  cmd->add_flag("--no-verify", args->no_verify, "skip the per-proof self-verification");
  cmd->add_option("--trace", args->trace,
                  "write the Chrome trace (Perfetto) of every stage here (--porep: one a configuration, named by it)");
  auto* porep = cmd->add_flag("--porep", args->porep,
                              "whole PoRep C2 proofs: 10 partitions of the 2^27 PoRep-shaped circuit (--log-constraints "
                              "and --partitions change them), 3 proofs at once (--proofs), per configuration of "
                              "--vram-gib x --h2d-gib-s; prints seconds per C2 proof");
  cmd->add_option("--vram-gib", args->vram_gib,
                  "--porep: each GPU's device region in GiB, one run per value, e.g. 0,24,16 (0: unlimited)")
      ->delimiter(',')
      ->check(CLI::Range(0.0, 1024.0))
      ->needs(porep);
  cmd->add_option("--h2d-gib-s", args->h2d_gib_s,
                  "--porep: cap host-to-device copies at this rate, one run per value, e.g. 0,25 (0: the link's own); "
                  "a measurement aid for slower links (PCIe 4.0 x16 ~25)")
      ->delimiter(',')
      ->check(CLI::Range(0.0, 1024.0))
      ->needs(porep);
  cmd->add_option("--h-copies", args->h_copies,
                  "--porep: copies of H's points a resident key may keep (engine.gpu_h_copies), one run per value, "
                  "e.g. 1,4; the plan keeps fewer where the budget is short")
      ->delimiter(',')
      ->check(knob_range_check("engine.gpu_h_copies"))
      ->needs(porep);
  cmd->add_option("--together", args->together,
                  "--porep: partitions of one key a GPU worker starts together (engine.partitions_together), one run "
                  "per value, e.g. 1,3; each lane's staging is sized for k of the witness's packed values")
      ->delimiter(',')
      ->check(knob_range_check("engine.partitions_together"))
      ->needs(porep);
  cmd->add_option("--together-wait-ms", args->together_wait_ms,
                  "--porep: how long a worker that found fewer of the key queued than --together waits for more "
                  "(engine.together_wait_ms), one run per value, e.g. 0,20")
      ->delimiter(',')
      ->check(knob_range_check("engine.together_wait_ms"))
      ->needs(porep);
  cmd->add_option("--key-memory-fraction", args->key_memory_fraction,
                  "--porep: the host budget's share for keys (engine.key_memory_fraction; the rest holds partitions in "
                  "flight, so it bounds how many a GPU can take together)")
      ->check(knob_range_check("engine.key_memory_fraction"))
      ->needs(porep);
  cmd->add_option("--matrix-chunk-mib", args->matrix_chunk_mib,
                  "--porep: row chunks of streamed matrices in MiB, the only size every configuration's plan may "
                  "take (default 0: spmv_tuning's, wider where the plan's workspace holds them); a measurement aid")
      ->check(CLI::Range(0, 4096))
      ->needs(porep);
  for (const char* name : {"--zkey", "--wtns", "--warmup", "--fail-device", "--no-verify", "--gpu-vram-share",
                           "--cpu-devices"}) {
    cmd->get_option(name)->excludes(porep);
  }
  cmd->callback([&state, args, cmd] {
    if (!args->porep) {
      state.exit_code = run_bench(*args, state.quiet);
      return;
    }
    porep_bench_args p;  // its own defaults where the command line is silent
    const auto given = [&](const char* name) { return cmd->get_option(name)->count() > 0; };
    if (given("--log-constraints")) p.log_constraints = args->log_constraints;
    if (given("--partitions")) p.partitions = args->partitions;
    if (given("--proofs")) p.proofs = args->proofs;
    if (given("--backend")) p.backend = args->backend;
    if (given("--vram-gib")) p.vram_gib = args->vram_gib;
    if (given("--h2d-gib-s")) p.h2d_gib_s = args->h2d_gib_s;
    if (given("--h-copies")) p.h_copies = args->h_copies;
    if (given("--together")) p.together = args->together;
    if (given("--together-wait-ms")) p.together_wait_ms = args->together_wait_ms;
    if (given("--key-memory-fraction")) p.key_memory_fraction = args->key_memory_fraction;
    p.matrix_chunk_mib = args->matrix_chunk_mib;
    p.workers = args->workers;
    p.gpus = args->gpus;
    p.witness_threads = args->witness_threads;
    p.finish_threads = args->finish_threads;
    p.memory_mib = args->memory_mib;
    p.trace = args->trace;
    state.exit_code = run_porep_bench(p, state.quiet);
  });
}

}  // namespace pp::cli
