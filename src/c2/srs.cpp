#include "c2/srs.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include "core/log.hpp"
#include "core/status_macros.hpp"
#include "ec/affine.hpp"
#include "ec/subgroup.hpp"
#include "formats/bellperson_params.hpp"

namespace pp::c2 {

namespace {

// The first index whose point fails `holds`, or points.size(); in parallel, `grain` points a task.
template <class Curve, class Pred>
size_t first_failing(std::span<const ec::affine<Curve>> points, size_t grain, Pred holds) {
  return tbb::parallel_reduce(
      tbb::blocked_range<size_t>(0, points.size(), grain), points.size(),
      [&](const tbb::blocked_range<size_t>& r, size_t first) {
        for (size_t i = r.begin(); i < r.end() && i < first; ++i) {
          if (!holds(points[i])) return i;
        }
        return first;
      },
      [](size_t x, size_t y) { return std::min(x, y); });
}

// invalid_argument "bellperson params NAME[i]: WHAT" for the first point that fails `holds`.
template <class Curve, class Pred>
status check_every(const char* name, std::span<const ec::affine<Curve>> points, size_t grain, Pred holds,
                   const char* what) {
  const size_t i = first_failing(points, grain, holds);
  if (i == points.size()) return ok_status();
  return invalid_argument(std::string("bellperson params ") + name + "[" + std::to_string(i) + "]: " + what);
}

template <class Curve>
status check_on_curve(const char* name, std::span<const ec::affine<Curve>> points) {
  return check_every(name, points, 4096, [](const ec::affine<Curve>& p) { return ec::is_on_curve(p); },
                     "point not on the BLS12-381 curve");
}

// For on-curve points; a subgroup check costs ~1,000 field multiplications, hence the smaller grain.
template <class Curve>
status check_vector_subgroup(const char* name, std::span<const ec::affine<Curve>> points) {
  return check_every(name, points, 256, [](const ec::affine<Curve>& p) { return ec::is_in_subgroup(p); },
                     "point on the curve but not in the prime-order subgroup");
}

// For an on-curve point.
template <class Curve>
status check_in_subgroup(const std::string& name, const ec::affine<Curve>& p) {
  if (ec::is_in_subgroup(p)) return ok_status();
  return invalid_argument("bellperson params " + name + ": point on the curve but not in the prime-order subgroup");
}

// The verifying key's points, which every proof is checked against, on the curve and in the
// prime-order subgroup; the queries' points on the curve only (their subgroup checks would dominate
// the read of a large file; a query point outside the subgroup gives a proof that fails the check).
status check_key_points(const groth16::proving_key& pk) {
  const groth16::verifying_key& vk = pk.vk;
  const std::vector<ec::g1_affine> vk_g1 = {vk.alpha_g1, vk.beta_g1, vk.delta_g1};
  const std::vector<ec::g2_affine> vk_g2 = {vk.beta_g2, vk.gamma_g2, vk.delta_g2};
  PP_RETURN_IF_ERROR(check_on_curve<ec::g1_curve>("vk (alpha_g1, beta_g1, delta_g1)", vk_g1));
  PP_RETURN_IF_ERROR(check_on_curve<ec::g2_curve>("vk (beta_g2, gamma_g2, delta_g2)", vk_g2));
  PP_RETURN_IF_ERROR(check_on_curve<ec::g1_curve>("vk.ic", vk.ic));
  PP_RETURN_IF_ERROR(check_in_subgroup("vk.alpha_g1", vk.alpha_g1));
  PP_RETURN_IF_ERROR(check_in_subgroup("vk.beta_g1", vk.beta_g1));
  PP_RETURN_IF_ERROR(check_in_subgroup("vk.delta_g1", vk.delta_g1));
  PP_RETURN_IF_ERROR(check_in_subgroup("vk.beta_g2", vk.beta_g2));
  PP_RETURN_IF_ERROR(check_in_subgroup("vk.gamma_g2", vk.gamma_g2));
  PP_RETURN_IF_ERROR(check_in_subgroup("vk.delta_g2", vk.delta_g2));
  for (size_t i = 0; i < vk.ic.size(); ++i) {
    PP_RETURN_IF_ERROR(check_in_subgroup("vk.ic[" + std::to_string(i) + "]", vk.ic[i]));
  }
  PP_RETURN_IF_ERROR(check_on_curve<ec::g1_curve>("h", pk.h));
  PP_RETURN_IF_ERROR(check_on_curve<ec::g1_curve>("l", pk.l));
  PP_RETURN_IF_ERROR(check_on_curve<ec::g1_curve>("a", pk.a));
  PP_RETURN_IF_ERROR(check_on_curve<ec::g1_curve>("b_g1", pk.b_g1));
  return check_on_curve<ec::g2_curve>("b_g2", pk.b_g2);
}

}  // namespace

status check_query_subgroups(const groth16::proving_key& pk) {
  PP_RETURN_IF_ERROR(check_vector_subgroup<ec::g1_curve>("h", pk.h));
  PP_RETURN_IF_ERROR(check_vector_subgroup<ec::g1_curve>("l", pk.l));
  PP_RETURN_IF_ERROR(check_vector_subgroup<ec::g1_curve>("a", pk.a));
  PP_RETURN_IF_ERROR(check_vector_subgroup<ec::g1_curve>("b_g1", pk.b_g1));
  return check_vector_subgroup<ec::g2_curve>("b_g2", pk.b_g2);
}

result<std::shared_ptr<const groth16::proving_key>> read_srs_file(const std::string& path) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  PP_ASSIGN_OR_RETURN(groth16::proving_key pk, formats::read_bellperson_params_file(path, {.checked = false}));
  const auto t1 = clock::now();
  PP_RETURN_IF_ERROR(check_key_points(pk).with_context(path));
  const auto t2 = clock::now();
  const auto sec = [](clock::duration d) { return std::chrono::duration<double>(d).count(); };
  log::get("c2")->info("read {} (domain {}, {} variables): decoded in {:.3f} s, points checked in {:.3f} s", path,
                       pk.domain_size, pk.n_vars, sec(t1 - t0), sec(t2 - t1));
  return std::make_shared<const groth16::proving_key>(std::move(pk));
}

srs_object::srs_object(engine::key_store& store, std::string path, key_release_fn on_release)
    : store_(store), path_(std::move(path)), on_release_(std::move(on_release)) {
  std::error_code ec;
  const uint64_t bytes = std::filesystem::file_size(path_, ec);
  engine::key_descriptor d;
  d.id = path_;
  // The decoded key takes what the file takes: 96 B per G1 point, 192 B per G2 point.
  d.bytes = ec ? 0 : bytes;
  d.load = [p = path_]() -> result<engine::key_handle> {
    PP_ASSIGN_OR_RETURN(auto pk, read_srs_file(p));
    return engine::key_handle(std::move(pk));
  };
  // already_exists: another SRS named this path first; they share its entry.
  store_.add(std::move(d)).ignore();
  loader_ = std::thread([this] {
    auto lease = store_.acquire(path_, engine::no_deadline());
    pp::mutex_lock lock(mu_);
    if (lease.ok()) {
      lease_ = std::move(lease).value();
      key_ = std::static_pointer_cast<const groth16::proving_key>(lease_.handle());
    } else {
      load_status_ = std::move(lease).take_status();
    }
    done_ = true;
    done_cv_.notify_all();
  });
}

srs_object::~srs_object() {
  loader_.join();
  std::shared_ptr<const groth16::proving_key> key;
  {
    pp::mutex_lock lock(mu_);
    key = std::move(key_);
  }
  if (key != nullptr && on_release_) on_release_(*key);
  key.reset();
  {
    pp::mutex_lock lock(mu_);
    lease_.reset();
  }
  // Frees the copy unless another SRS still leases it (then failed_precondition, as intended).
  store_.evict(path_).ignore();
}

void srs_object::release(srs_object* p) {
  if (p != nullptr && p->refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete p;
}

result<std::shared_ptr<const groth16::proving_key>> srs_object::wait() {
  std::shared_ptr<const groth16::proving_key> key;
  {
    pp::mutex_lock lock(mu_);
    while (!done_) lock.wait(done_cv_);
    if (!load_status_.ok()) return load_status_;
    key = key_;
  }
  pp::mutex_lock lock(queries_mu_);
  if (queries_.has_value() && !queries_->ok()) return *queries_;
  return key;
}

status srs_object::check_queries_after_failed_proof() {
  std::shared_ptr<const groth16::proving_key> key;
  {
    pp::mutex_lock lock(mu_);
    if (!done_ || !load_status_.ok()) return ok_status();
    key = key_;
  }
  pp::mutex_lock lock(queries_mu_);
  if (!queries_.has_value()) {
    const auto t0 = std::chrono::steady_clock::now();
    queries_ = check_query_subgroups(*key).with_context(path_);
    log::get("c2")->warn("a proof made with {} failed its checks; its query points checked for the subgroup in {:.3f} s: {}",
                         path_, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                         queries_->ok() ? std::string("all in it") : queries_->message());
  }
  return *queries_;
}

srs_cache::~srs_cache() {
  pp::mutex_lock lock(mu_);
  for (auto& e : entries_) srs_object::release(e.second);
}

srs_object* srs_cache::lookup(const std::string& path) {
  srs_object* dropped = nullptr;
  srs_object* found = nullptr;
  {
    pp::mutex_lock lock(mu_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first == path) {
        entries_.splice(entries_.begin(), entries_, it);
        found = it->second;
        break;
      }
    }
    if (found == nullptr) {
      if (entries_.size() >= capacity) {
        dropped = entries_.back().second;
        entries_.pop_back();
      }
      found = new srs_object(store_, path, on_release_);
      entries_.emplace_front(path, found);
    }
    found->retain();
  }
  srs_object::release(dropped);  // outside the lock: it may join a loader
  return found;
}

void srs_cache::evict(const std::string& path) {
  std::vector<srs_object*> dropped;
  {
    pp::mutex_lock lock(mu_);
    for (auto it = entries_.begin(); it != entries_.end();) {
      if (it->first == path) {
        dropped.push_back(it->second);
        it = entries_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (srs_object* p : dropped) srs_object::release(p);
}

}  // namespace pp::c2
