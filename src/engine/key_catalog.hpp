// key_catalog: turns an engine key_source (zkey file, bellperson params + r1cs, in-memory) into a
// key_store descriptor: a loader that yields a loaded_key (the proving key and its circuit in host
// memory) and the bytes it will be charged.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "core/result.hpp"
#include "engine/engine_types.hpp"
#include "engine/key_store.hpp"

namespace pp::engine {

// The key store's handle for a key resident in host memory.
struct loaded_key {
  std::shared_ptr<const groth16::proving_key> pk;
  std::shared_ptr<const r1cs::constraint_system> cs;
};

// Bytes a key and circuit occupy in memory (point vectors, matrices), computed exactly.
uint64_t key_bytes(const groth16::proving_key& pk, const r1cs::constraint_system& cs);

// What a key read from files of `file_bytes` in all (a zkey, or bellperson params and their r1cs) is
// charged until it is loaded: its files' size and a quarter more.
constexpr uint64_t file_key_charge(uint64_t file_bytes) { return file_bytes + file_bytes / 4; }

// The descriptor for key_store::add. Files are checked to exist now (not_found with the path) and
// charged file_key_charge of their size until loaded; memory sources are checked with
// groth16::check_key_matches_circuit and charged key_bytes().
result<key_descriptor> describe_key(const std::string& id, const key_source& source);

}  // namespace pp::engine
