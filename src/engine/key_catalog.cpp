#include "engine/key_catalog.hpp"

#include <filesystem>
#include <system_error>
#include <type_traits>

#include "core/file_type.hpp"
#include "core/status_macros.hpp"
#include "formats/key_circuit.hpp"
#include "groth16/backend.hpp"

namespace pp::engine {
namespace {

template <class T>
uint64_t vec_bytes(const std::vector<T>& v) {
  return v.size() * sizeof(T);
}

template <class Fr>
uint64_t matrix_bytes(const r1cs::basic_csr_matrix<Fr>& m) {
  return vec_bytes(m.row_ptr) + vec_bytes(m.cols) + vec_bytes(m.coeffs);
}

result<uint64_t> file_size(const std::filesystem::path& p, std::string_view what) {
  if (status s = refuse_embedded_nul(p); !s.ok()) return s.with_context(what);
  std::error_code ec;
  const auto n = std::filesystem::file_size(p, ec);
  if (ec) return not_found(std::string(what) + " " + p.string() + ": " + ec.message());
  return static_cast<uint64_t>(n);
}

template <class Family>
key_handle to_handle(basic_loaded_key<Family> k) {
  auto holder = std::make_shared<const loaded_key>(loaded_key{std::move(k)});
  return std::static_pointer_cast<const void>(holder);
}

template <class Family>
result<key_handle> load_pair(groth16::basic_proving_key<Family> pk,
                             r1cs::basic_constraint_system<typename Family::fr> cs) {
  return to_handle<Family>({std::make_shared<const groth16::basic_proving_key<Family>>(std::move(pk)),
                            std::make_shared<const r1cs::basic_constraint_system<typename Family::fr>>(std::move(cs))});
}

// A zkey of Family and the circuit it implies; the reader refuses a file of the other curve naming both.
template <class Family>
result<key_handle> load_zkey(const std::filesystem::path& path) {
  if constexpr (std::is_same_v<Family, ec::bls12_381::family>) {
    PP_ASSIGN_OR_RETURN(formats::key_and_circuit k, formats::read_key_files({.key = path}));
    return load_pair<Family>(std::move(k.pk), std::move(k.cs));
  } else {
    PP_ASSIGN_OR_RETURN(formats::basic_snarkjs_zkey<Family> z, formats::read_snarkjs_zkey_file<Family>(path));
    auto cs = formats::circuit_from_zkey(z);
    if (!cs.ok()) return cs.error().with_context("circuit of " + path.string());
    PP_RETURN_IF_ERROR(groth16::check_key_matches_circuit(z.pk, *cs).with_context(path.string()));
    return load_pair<Family>(std::move(z.pk), std::move(cs).value());
  }
}

result<key_handle> load_bellperson(const std::filesystem::path& params, const std::filesystem::path& r1cs_path) {
  PP_ASSIGN_OR_RETURN(formats::key_and_circuit k,
                      formats::read_key_files({.key = params, .r1cs = r1cs_path, .bellperson = true}, {}, {.checked = false}));
  return load_pair<ec::bls12_381::family>(std::move(k.pk), std::move(k.cs));
}

template <class Family>
result<key_description> describe_memory(const std::string& id, const basic_memory_key_source<Family>& m) {
  if (!m.pk || !m.cs) return invalid_argument("register_key '" + id + "': null proving key or circuit");
  PP_RETURN_IF_ERROR(groth16::check_key_matches_circuit(*m.pk, *m.cs).with_context("register_key '" + id + "'"));
  key_description out;
  out.descriptor.bytes = key_bytes(*m.pk, *m.cs);
  out.descriptor.load = [m]() -> result<key_handle> { return to_handle<Family>(m); };
  out.curve = ec::curve_id_of<Family>;
  return out;
}

}  // namespace

template <class Family>
uint64_t key_bytes(const groth16::basic_proving_key<Family>& pk,
                   const r1cs::basic_constraint_system<typename Family::fr>& cs) {
  return vec_bytes(pk.a) + vec_bytes(pk.b_g1) + vec_bytes(pk.b_g2) + vec_bytes(pk.l) + vec_bytes(pk.h) +
         vec_bytes(pk.vk.ic) + matrix_bytes(cs.a()) + matrix_bytes(cs.b()) + matrix_bytes(cs.c()) + 4096;
}
template uint64_t key_bytes(const groth16::proving_key&, const r1cs::constraint_system&);
template uint64_t key_bytes(const groth16::bn254::proving_key&, const r1cs::bn254::constraint_system&);

result<key_description> describe_key(const std::string& id, const key_source& source) {
  if (id.empty()) return invalid_argument("register_key: empty key id");
  key_description d;
  if (const auto* z = std::get_if<zkey_file_source>(&source)) {
    const std::string what = "key '" + id + "': zkey";
    PP_ASSIGN_OR_RETURN(const uint64_t n, file_size(z->zkey, what));
    auto curve = formats::read_snarkjs_zkey_curve_file(z->zkey);
    if (!curve.ok()) return curve.error().with_context("key '" + id + "'");
    d.curve = *curve;
    d.descriptor.bytes = file_key_charge(n);
    d.descriptor.load = ec::visit_curve(d.curve, [&]<class Family>() -> std::function<result<key_handle>()> {
      return [path = z->zkey] { return load_zkey<Family>(path); };
    });
  } else if (const auto* b = std::get_if<bellperson_file_source>(&source)) {
    PP_ASSIGN_OR_RETURN(const uint64_t n1, file_size(b->params, "key '" + id + "': bellperson params"));
    PP_ASSIGN_OR_RETURN(const uint64_t n2, file_size(b->r1cs, "key '" + id + "': r1cs"));
    d.descriptor.bytes = file_key_charge(n1 + n2);
    d.descriptor.load = [params = b->params, r1cs_path = b->r1cs] { return load_bellperson(params, r1cs_path); };
  } else if (const auto* m = std::get_if<memory_key_source>(&source)) {
    PP_ASSIGN_OR_RETURN(d, describe_memory(id, *m));
  } else {
    PP_ASSIGN_OR_RETURN(d, describe_memory(id, std::get<bn254::memory_key_source>(source)));
  }
  d.descriptor.id = id;
  return d;
}

}  // namespace pp::engine
