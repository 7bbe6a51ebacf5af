// The extern "C" entry points of proofpipe_c2.h. One process-wide context (configuration, key
// budget, key store, SRS cache) made on first use: a C ABI has no other place to keep it. Nothing
// throws across these functions: every error, allocation failures included, is a RustError.
// The C++ declarations in proofpipe_c2.h take references; these definitions take the same
// arguments as pointers (one ABI) so a null SRS from C is checked, not assumed away.
#define PROOFPIPE_C2_POINTERS
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "c2/abi_layout.hpp"
#include "c2/assignment.hpp"
#include "c2/c2_config.hpp"
#include "c2/proofpipe_c2.h"
#include "c2/srs.hpp"
#include "core/status_macros.hpp"
#include "engine/key_store.hpp"
#include "engine/memory_budget.hpp"
#include "groth16/evaluation_prover.hpp"

namespace pp::c2 {
namespace {

struct context {
  explicit context(const c2_config& c) : config(c), budget(c.key_budget_bytes), store(budget), cache(store) {}
  c2_config config;
  engine::memory_budget budget;
  engine::key_store store;
  srs_cache cache;  // destroyed first: its SRS objects lease from store
};

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
    g_context = new context(*cfg);
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
  ret->ptr = cache ? ctx->cache.lookup(path) : new srs_object(ctx->store, path);
  return ok_status();
}

status generate(const Assignment provers[], size_t num_circuits, const fr_t r_s[], const fr_t s_s[],
                groth16_proof proofs[], SRS* srs) {
  srs_object* obj = object_of(srs);
  if (obj == nullptr) return invalid_argument("srs is null or was dropped");
  if (num_circuits > 0) {
    if (provers == nullptr) return invalid_argument("provers is null");
    if (r_s == nullptr) return invalid_argument("r_s is null");
    if (s_s == nullptr) return invalid_argument("s_s is null");
    if (proofs == nullptr) return invalid_argument("proofs is null");
  }
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
  for (size_t i = 0; i < num_circuits; ++i) {
    auto pi = groth16::prove_from_evaluations(reqs[i]);
    if (!pi.ok()) return std::move(pi).take_status().with_context("provers[" + std::to_string(i) + "]");
    out[i] = *pi;
  }
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
