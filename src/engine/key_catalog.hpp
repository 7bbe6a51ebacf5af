// key_catalog: turns an engine key_source (zkey file, bellperson params + r1cs, in-memory; either
// curve) into a key_store descriptor: a loader that yields a loaded_key (the proving key and its
// circuit in host memory) and the bytes it will be charged, and the key's curve.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <variant>

#include "core/result.hpp"
#include "ec/curve_id.hpp"
#include "engine/engine_types.hpp"
#include "engine/key_store.hpp"

namespace pp::engine {

// The proving key and circuit of one curve, resident in host memory.
template <class Family>
using basic_loaded_key = basic_memory_key_source<Family>;

// The key store's handle for a key resident in host memory: the key of its curve.
struct loaded_key {
  std::variant<basic_loaded_key<ec::bls12_381::family>, basic_loaded_key<ec::bn254::family>> value;

  [[nodiscard]] ec::curve_id curve() const {
    return value.index() == 0 ? ec::curve_id::bls12_381 : ec::curve_id::bn254;
  }
  // The key as Family's; null when it is the other curve's.
  template <class Family>
  [[nodiscard]] const basic_loaded_key<Family>* as() const {
    return std::get_if<basic_loaded_key<Family>>(&value);
  }
  [[nodiscard]] uint64_t num_variables() const {
    return std::visit([](const auto& k) -> uint64_t { return k.cs->num_variables(); }, value);
  }
};

// Bytes a key and circuit occupy in memory (point vectors, matrices), computed exactly.
template <class Family>
uint64_t key_bytes(const groth16::basic_proving_key<Family>& pk,
                   const r1cs::basic_constraint_system<typename Family::fr>& cs);

// What a key read from files of `file_bytes` in all (a zkey, or bellperson params and their r1cs) is
// charged until it is loaded: its files' size and a quarter more.
constexpr uint64_t file_key_charge(uint64_t file_bytes) { return file_bytes + file_bytes / 4; }

// A key as key_store::add takes it, and its curve.
struct key_description {
  key_descriptor descriptor;
  ec::curve_id curve = ec::curve_id::bls12_381;
};

// The description of a key source. Files are checked to exist now (not_found with the path) and
// charged file_key_charge of their size until loaded; a zkey's curve is read from its header now
// (the reader's error with the path), and its loader refuses a file that became another curve's
// since. Memory sources are checked with groth16::check_key_matches_circuit and charged key_bytes().
result<key_description> describe_key(const std::string& id, const key_source& source);

}  // namespace pp::engine
