#include "engine/key_records.hpp"

#include <algorithm>
#include <utility>

namespace pp::engine {

key_records::key_records(uint64_t configured_partition_bytes, std::vector<const groth16::backend*> backends)
    : configured_(configured_partition_bytes), backends_(std::move(backends)) {}

key_records::record key_records::measure(const groth16::proving_key& pk, const r1cs::constraint_system& cs) const {
  if (configured_) return {cs.num_variables(), configured_};
  uint64_t bytes = 0;
  for (const groth16::backend* b : backends_) {
    bytes = std::max(bytes, b->host_bytes_per_partition(cs.num_variables(), pk.domain_size));
  }
  return {cs.num_variables(), bytes};
}

void key_records::set(const std::string& id, record r) {
  mutex_lock lock(mu_);
  records_[id] = r;
}

key_records::record key_records::note(const std::string& id, const loaded_key& k) {
  const record r = measure(*k.pk, *k.cs);
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
