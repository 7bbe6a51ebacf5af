#include "engine/key_catalog.hpp"

#include <filesystem>
#include <system_error>
#include <type_traits>

#include "core/status_macros.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/circom_r1cs.hpp"
#include "formats/key_circuit.hpp"
#include "formats/snarkjs_zkey.hpp"
#include "groth16/backend.hpp"

namespace pp::engine {
namespace {

template <class T>
uint64_t vec_bytes(const std::vector<T>& v) {
  return v.size() * sizeof(T);
}

uint64_t matrix_bytes(const r1cs::csr_matrix& m) {
  return vec_bytes(m.row_ptr) + vec_bytes(m.cols) + vec_bytes(m.coeffs);
}

result<uint64_t> file_size(const std::filesystem::path& p, std::string_view what) {
  std::error_code ec;
  const auto n = std::filesystem::file_size(p, ec);
  if (ec) return not_found(std::string(what) + " " + p.string() + ": " + ec.message());
  return static_cast<uint64_t>(n);
}

key_handle to_handle(loaded_key k) {
  auto holder = std::make_shared<const loaded_key>(std::move(k));
  return std::static_pointer_cast<const void>(holder);
}

result<key_handle> load_zkey(const std::filesystem::path& path) {
  PP_ASSIGN_OR_RETURN(auto z, formats::read_snarkjs_zkey_file(path));
  auto cs = formats::circuit_from_zkey(z);
  if (!cs.ok()) return cs.error().with_context("circuit of " + path.string());
  PP_RETURN_IF_ERROR(groth16::check_key_matches_circuit(z.pk, *cs).with_context(path.string()));
  return to_handle({std::make_shared<const groth16::proving_key>(std::move(z.pk)),
                    std::make_shared<const r1cs::constraint_system>(std::move(cs).value())});
}

result<key_handle> load_bellperson(const std::filesystem::path& params, const std::filesystem::path& r1cs_path) {
  PP_ASSIGN_OR_RETURN(auto pk, formats::read_bellperson_params_file(params, {.checked = false}));
  PP_ASSIGN_OR_RETURN(auto r, formats::read_circom_r1cs_file(r1cs_path));
  PP_RETURN_IF_ERROR(formats::fill_bellperson_density(pk, r.cs).with_context(params.string()));
  PP_RETURN_IF_ERROR(groth16::check_key_matches_circuit(pk, r.cs).with_context(params.string()));
  return to_handle({std::make_shared<const groth16::proving_key>(std::move(pk)),
                    std::make_shared<const r1cs::constraint_system>(std::move(r.cs))});
}

}  // namespace

uint64_t key_bytes(const groth16::proving_key& pk, const r1cs::constraint_system& cs) {
  return vec_bytes(pk.a) + vec_bytes(pk.b_g1) + vec_bytes(pk.b_g2) + vec_bytes(pk.l) + vec_bytes(pk.h) +
         vec_bytes(pk.vk.ic) + matrix_bytes(cs.a()) + matrix_bytes(cs.b()) + matrix_bytes(cs.c()) + 4096;
}

result<key_descriptor> describe_key(const std::string& id, const key_source& source) {
  if (id.empty()) return invalid_argument("register_key: empty key id");
  key_descriptor d;
  d.id = id;
  if (const auto* z = std::get_if<zkey_file_source>(&source)) {
    PP_ASSIGN_OR_RETURN(const uint64_t n, file_size(z->zkey, "key '" + id + "': zkey"));
    d.bytes = file_key_charge(n);
    d.load = [path = z->zkey] { return load_zkey(path); };
  } else if (const auto* b = std::get_if<bellperson_file_source>(&source)) {
    PP_ASSIGN_OR_RETURN(const uint64_t n1, file_size(b->params, "key '" + id + "': bellperson params"));
    PP_ASSIGN_OR_RETURN(const uint64_t n2, file_size(b->r1cs, "key '" + id + "': r1cs"));
    d.bytes = file_key_charge(n1 + n2);
    d.load = [params = b->params, r1cs_path = b->r1cs] { return load_bellperson(params, r1cs_path); };
  } else {
    const auto& m = std::get<memory_key_source>(source);
    if (!m.pk || !m.cs) return invalid_argument("register_key '" + id + "': null proving key or circuit");
    PP_RETURN_IF_ERROR(groth16::check_key_matches_circuit(*m.pk, *m.cs).with_context("register_key '" + id + "'"));
    d.bytes = key_bytes(*m.pk, *m.cs);
    d.load = [k = loaded_key{m.pk, m.cs}]() -> result<key_handle> { return to_handle(k); };
  }
  return d;
}

}  // namespace pp::engine
