// The extern "C" entry points of proofpipe_c2.h. One process-wide context (configuration, key
// budget, key store, SRS cache, the GPUs' provers) made on first use: a C ABI has no other place to
// keep it. Nothing throws across these functions: every error, allocation failures included, is a
// RustError. A call's circuits go to every GPU lane at once (one thread per lane, each taking the
// next circuit); there is no process-wide lock, so two calling threads share the lanes.
// The C++ declarations in proofpipe_c2.h take references; these definitions take the same
// arguments as pointers (one ABI) so a null SRS from C is checked, not assumed away.
#define PROOFPIPE_C2_POINTERS
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "c2/abi_layout.hpp"
#include "c2/assignment.hpp"
#include "c2/c2_config.hpp"
#include "c2/proofpipe_c2.h"
#include "c2/srs.hpp"
#include "core/log.hpp"
#include "core/status_macros.hpp"
#include "devices/gpu_evaluation.hpp"
#include "ec/subgroup.hpp"
#include "engine/key_store.hpp"
#include "engine/memory_budget.hpp"
#include "groth16/evaluation_prover.hpp"

namespace pp::c2 {
namespace {

struct context {
  explicit context(const c2_config& c)
      : config(c), budget(c.key_budget_bytes), store(budget), cache(store, [this](const groth16::proving_key& pk) {
          release_key(pk);
        }) {}
  // The GPUs drop their copies of a key an SRS lets go of (the key store may free it next).
  void release_key(const groth16::proving_key& pk) {
    for (auto& g : gpus) g->forget(pk);
  }
  c2_config config;
  engine::memory_budget budget;
  engine::key_store store;
  // Every GPU's prover from evaluations; empty: the CPU proves (prove_from_evaluations).
  std::vector<std::unique_ptr<groth16::evaluation_backend>> gpus;
  srs_cache cache;  // destroyed first: its SRS objects lease from store and release keys to gpus
};

// The GPUs engine.backend asks for: none for "cpu"; for "auto" the GPUs present, else none (the
// CPU proves); for "cuda" the GPUs present, else the error every call then returns.
status open_gpus(context& ctx) {
  if (ctx.config.backend == "cpu") return ok_status();
  auto g = devices::make_gpu_evaluation_backends(ctx.config.gpu);
  if (g.ok()) {
    ctx.gpus = std::move(g).value();
    log::get("c2")->info("proving on {} GPU(s)", ctx.gpus.size());
    return ok_status();
  }
  if (ctx.config.backend == "cuda") return std::move(g).take_status().with_context("engine.backend = \"cuda\"");
  log::get("c2")->info("proving on the CPU: {}", g.error().message());
  return ok_status();
}

// Made once; never destroyed (SRS handles may outlive static destruction in the caller's process).
std::once_flag g_context_once;
context* g_context = nullptr;
status g_context_status;

result<context*> get_context() {
  std::call_once(g_context_once, [] {
    const char* path = std::getenv(config_env);
    auto cfg = load_c2_config(path == nullptr ? std::string() : std::string(path));
    if (!cfg.ok()) {
      g_context_status = std::move(cfg).take_status().with_context(std::string(config_env));
      return;
    }
    auto* ctx = new context(*cfg);
    if (status st = open_gpus(*ctx); !st.ok()) {
      g_context_status = std::move(st).with_context(std::string(config_env));
      delete ctx;
      return;
    }
    g_context = ctx;
  });
  if (g_context == nullptr) return g_context_status;
  return g_context;
}

int errno_for(status_code c) {
  switch (c) {
    case status_code::ok: return 0;
    case status_code::not_found: return ENOENT;
    case status_code::resource_exhausted: return ENOMEM;
    case status_code::permission_denied: return EACCES;
    case status_code::invalid_argument:
    case status_code::out_of_range:
    case status_code::failed_precondition:
    case status_code::data_loss: return EINVAL;
    default: return EIO;
  }
}

RustError error(int code, const std::string& message) {
  const std::string m = "proofpipe_c2: " + message;
  return RustError{code, strdup(m.c_str())};
}
RustError to_rust_error(const status& s) {
  if (s.ok()) return RustError{0, nullptr};
  return error(errno_for(s.code()), s.message());
}

srs_object* object_of(const SRS* s) { return s == nullptr ? nullptr : static_cast<srs_object*>(s->ptr); }

status create(SRS* ret, const char* path, bool cache) {
  if (ret == nullptr) return invalid_argument("create_SRS: ret is null");
  if (path == nullptr) return invalid_argument("create_SRS: srs_path is null");
  PP_ASSIGN_OR_RETURN(context* ctx, get_context());
  // As the reference: a file that cannot be opened fails here; reading it happens in the background.
  const int fd = ::open(path, O_RDONLY);
  if (fd < 0) {
    const int e = errno;
    return status(e == ENOENT ? status_code::not_found : status_code::permission_denied,
                  std::string("open(\"") + path + "\") failed: " + std::strerror(e));
  }
  ::close(fd);
  ret->ptr = cache ? ctx->cache.lookup(path)
                  : new srs_object(ctx->store, path, [ctx](const groth16::proving_key& pk) { ctx->release_key(pk); });
  return ok_status();
}

// Circuit i on the CPU: its values checked, then proved with every core.
status prove_on_cpu(const groth16::evaluation_request& req, size_t i, groth16::proof& out) {
  PP_RETURN_IF_ERROR(check_reduced(req, i, scalar_vectors::all));
  auto pi = groth16::prove_from_evaluations(req);
  if (!pi.ok()) return std::move(pi).take_status().with_context("provers[" + std::to_string(i) + "]");
  out = *pi;
  return ok_status();
}

// Circuit i on a GPU, in the lane's thread (its witness checked here, a, b, c as the GPU stages
// them, all while the other lanes' circuits run); on the CPU instead when the GPU cannot take it
// (unhealthy, or the key does not fit it). Other errors (bad input, a proof that fails
// verification) are the circuit's; a value the GPU refuses is named as the CPU check names it.
status prove_one(groth16::evaluation_backend& gpu, const groth16::evaluation_request& req, size_t i,
                 groth16::proof& out) {
  try {
    PP_RETURN_IF_ERROR(check_reduced(req, i, scalar_vectors::witness));
    auto r = gpu.prove(req);
    if (r.ok()) {
      out = *r;
      return ok_status();
    }
    const status_code c = r.error().code();
    if (c == status_code::invalid_argument) {
      PP_RETURN_IF_ERROR(check_reduced(req, i, scalar_vectors::all));
    }
    if (c != status_code::unavailable && c != status_code::failed_precondition &&
        c != status_code::resource_exhausted) {
      return std::move(r).take_status().with_context("provers[" + std::to_string(i) + "]");
    }
    log::get("c2")->warn("proving on the CPU instead: {}", r.error().message());
    return prove_on_cpu(req, i, out);
  } catch (const std::bad_alloc&) {
    return resource_exhausted("out of host memory");
  } catch (const std::exception& e) {
    return internal_error(e.what());
  }
}

// A proved circuit's last check: its points in the prime-order subgroups. The pairing check need
// not see a component outside them, which a query point outside the subgroup puts there (when its
// scalar is not 0); a verifier that checks the subgroups would refuse such a proof. When a proof
// fails this or its verification, the SRS's query points are checked (once per SRS): one outside
// the subgroup is the error then, named (check_query_subgroups).
status check_proof(srs_object& srs, status proved, const groth16::proof& pi, size_t i) {
  try {
    if (proved.ok() && !(ec::is_in_subgroup(pi.a) && ec::is_in_subgroup(pi.b) && ec::is_in_subgroup(pi.c))) {
      proved = internal_error("provers[" + std::to_string(i) +
                              "]: the proof's points are not all in the prime-order subgroups");
    }
    if (proved.ok() || proved.code() != status_code::internal) return proved;
    PP_RETURN_IF_ERROR(srs.check_queries_after_failed_proof());
    return proved;
  } catch (const std::bad_alloc&) {
    return resource_exhausted("out of host memory");
  } catch (const std::exception& e) {
    return internal_error(e.what());
  }
}

// Every circuit of a call, on the GPUs' lanes (one thread per lane, each taking the next circuit)
// or, without GPUs, one after another on the CPU (which uses every core for one).
status prove_all(context& ctx, srs_object& srs, const std::vector<groth16::evaluation_request>& reqs,
                 std::vector<groth16::proof>& out) {
  const size_t n = reqs.size();
  if (ctx.gpus.empty()) {
    for (size_t i = 0; i < n; ++i) PP_RETURN_IF_ERROR(check_proof(srs, prove_on_cpu(reqs[i], i, out[i]), out[i], i));
    return ok_status();
  }
  std::vector<groth16::evaluation_backend*> workers;  // one per lane, the GPUs interleaved
  for (uint32_t lane = 0; workers.size() < n; ++lane) {
    const size_t before = workers.size();
    for (auto& g : ctx.gpus) {
      if (lane < g->lanes() && workers.size() < n) workers.push_back(g.get());
    }
    if (workers.size() == before) break;
  }
  std::atomic<size_t> next{0};
  std::vector<status> errors(n);
  const auto work = [&](groth16::evaluation_backend* gpu) {
    for (size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < n;) {
      errors[i] = check_proof(srs, prove_one(*gpu, reqs[i], i, out[i]), out[i], i);
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(workers.size() - 1);
  for (size_t w = 1; w < workers.size(); ++w) threads.emplace_back(work, workers[w]);
  work(workers[0]);
  for (std::thread& t : threads) t.join();
  for (size_t i = 0; i < n; ++i) PP_RETURN_IF_ERROR(std::move(errors[i]));
  return ok_status();
}

// The most circuits one call proves: far above any caller's (a PoRep C2 call is 10), and low enough
// that the call's per-circuit vectors always fit; a larger count is a bad argument, not an
// allocation failure deep in the call.
constexpr size_t max_circuits = size_t{1} << 20;

status generate(const Assignment provers[], size_t num_circuits, const fr_t r_s[], const fr_t s_s[],
                groth16_proof proofs[], SRS* srs) {
  srs_object* obj = object_of(srs);
  if (obj == nullptr) return invalid_argument("srs is null or was dropped");
  if (num_circuits > max_circuits) {
    return invalid_argument("num_circuits: " + std::to_string(num_circuits) + ", more than one call proves (at most " +
                            std::to_string(max_circuits) + ")");
  }
  if (num_circuits > 0) {
    if (provers == nullptr) return invalid_argument("provers is null");
    if (r_s == nullptr) return invalid_argument("r_s is null");
    if (s_s == nullptr) return invalid_argument("s_s is null");
    if (proofs == nullptr) return invalid_argument("proofs is null");
  }
  PP_ASSIGN_OR_RETURN(context* ctx, get_context());
  PP_ASSIGN_OR_RETURN(const std::shared_ptr<const groth16::proving_key> pk, obj->wait());
  std::vector<groth16::evaluation_request> reqs;
  reqs.reserve(num_circuits);
  for (size_t i = 0; i < num_circuits; ++i) {
    PP_ASSIGN_OR_RETURN(groth16::evaluation_request req, to_evaluation_request(provers[i], i, *pk));
    req.rs = {*reinterpret_cast<const ff::fr*>(&r_s[i]), *reinterpret_cast<const ff::fr*>(&s_s[i])};
    reqs.push_back(req);
  }
  // Every proof is made (and verified) before any is written: a failed call leaves proofs[] as it was.
  std::vector<groth16::proof> out(num_circuits);
  PP_RETURN_IF_ERROR(prove_all(*ctx, *obj, reqs, out));
  if (num_circuits > 0) std::memcpy(proofs, out.data(), num_circuits * sizeof(groth16_proof));
  return ok_status();
}

}  // namespace
}  // namespace pp::c2

using pp::c2::error;
using pp::c2::to_rust_error;

#define PP_C2_EXPORT extern "C" __attribute__((visibility("default")))

PP_C2_EXPORT RustError create_SRS(SRS* ret, const char* srs_path, bool cache) {
  try {
    return to_rust_error(pp::c2::create(ret, srs_path, cache));
  } catch (const std::bad_alloc&) {
    return RustError{ENOMEM, nullptr};
  } catch (const std::exception& e) {
    return error(EIO, std::string("create_SRS: ") + e.what());
  }
}

PP_C2_EXPORT void evict_SRS(const SRS* ref) {
  try {
    if (pp::c2::srs_object* obj = pp::c2::object_of(ref)) {
      if (auto ctx = pp::c2::get_context(); ctx.ok()) (*ctx)->cache.evict(obj->path());
    }
  } catch (...) {
    // void in the reference: nothing to report to; the entry stays cached.
  }
}

PP_C2_EXPORT void drop_SRS(SRS* ref) {
  if (ref == nullptr) return;
  pp::c2::srs_object::release(pp::c2::object_of(ref));
  ref->ptr = nullptr;
}

PP_C2_EXPORT SRS clone_SRS(const SRS* rhs) {
  pp::c2::srs_object* obj = pp::c2::object_of(rhs);
  if (obj != nullptr) obj->retain();
  return SRS{obj};
}

PP_C2_EXPORT RustError generate_groth16_proofs_c(const Assignment provers[], size_t num_circuits, const fr_t r_s[],
                                                 const fr_t s_s[], groth16_proof proofs[], SRS* srs) {
  try {
    return to_rust_error(pp::c2::generate(provers, num_circuits, r_s, s_s, proofs, srs));
  } catch (const std::bad_alloc&) {
    return error(ENOMEM, "generate_groth16_proofs_c: out of host memory");
  } catch (const std::exception& e) {
    return error(EIO, std::string("generate_groth16_proofs_c: ") + e.what());
  }
}
