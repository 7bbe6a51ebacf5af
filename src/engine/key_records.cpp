#include "engine/key_records.hpp"

#include <algorithm>
#include <utility>
#include <variant>

namespace pp::engine {

key_records::key_records(uint64_t configured_partition_bytes, std::vector<const groth16::backend*> backends,
                         std::vector<const groth16::bn254::backend*> bn254_backends)
    : configured_(configured_partition_bytes), backends_(std::move(backends)), bn254_backends_(std::move(bn254_backends)) {}

template <class Family>
key_records::record key_records::measure(const groth16::basic_proving_key<Family>& pk,
                                         const r1cs::basic_constraint_system<typename Family::fr>& cs) const {
  constexpr ec::curve_id curve = ec::curve_id_of<Family>;
  if (configured_) return {cs.num_variables(), configured_, curve};
  uint64_t bytes = 0;
  const auto ask = [&](const auto& backends) {
    for (const auto* b : backends) bytes = std::max(bytes, b->host_bytes_per_partition(cs.num_variables(), pk.domain_size));
  };
  if constexpr (curve == ec::curve_id::bn254) {
    ask(bn254_backends_);
  } else {
    ask(backends_);
  }
  return {cs.num_variables(), bytes, curve};
}
template key_records::record key_records::measure(const groth16::proving_key&, const r1cs::constraint_system&) const;
template key_records::record key_records::measure(const groth16::bn254::proving_key&,
                                                  const r1cs::bn254::constraint_system&) const;

void key_records::set(const std::string& id, record r) {
  mutex_lock lock(mu_);
  records_[id] = r;
}

key_records::record key_records::note(const std::string& id, const loaded_key& k) {
  const record r = std::visit([&](const auto& key) { return measure(*key.pk, *key.cs); }, k.value);
  set(id, r);
  return r;
}

std::optional<key_records::record> key_records::find(const std::string& id) const {
  mutex_lock lock(mu_);
  const auto it = records_.find(id);
  if (it == records_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> key_records::ids() const {
  mutex_lock lock(mu_);
  std::vector<std::string> out;
  out.reserve(records_.size());
  for (const auto& [id, r] : records_) out.push_back(id);
  return out;
}

uint64_t key_records::largest_partition_bytes() const {
  mutex_lock lock(mu_);
  uint64_t most = 0;
  for (const auto& [id, r] : records_) most = std::max(most, r.partition_bytes);
  return most;
}

}  // namespace pp::engine
