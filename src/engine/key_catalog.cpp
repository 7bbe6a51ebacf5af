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

uint64_t matrix_bytes(const r1cs::csr_matrix& m) {
  return vec_bytes(m.row_ptr) + vec_bytes(m.cols) + vec_bytes(m.coeffs);
}

result<uint64_t> file_size(const std::filesystem::path& p, std::string_view what) {
  if (status s = refuse_embedded_nul(p); !s.ok()) return s.with_context(what);
  std::error_code ec;
  const auto n = std::filesystem::file_size(p, ec);
  if (ec) return not_found(std::string(what) + " " + p.string() + ": " + ec.message());
  return static_cast<uint64_t>(n);
}

key_handle to_handle(loaded_key k) {
  auto holder = std::make_shared<const loaded_key>(std::move(k));
  return std::static_pointer_cast<const void>(holder);
}

result<key_handle> load_key_files(const formats::key_files& f) {
  PP_ASSIGN_OR_RETURN(formats::key_and_circuit k, formats::read_key_files(f, {}, {.checked = false}));
  return to_handle({std::make_shared<const groth16::proving_key>(std::move(k.pk)),
                    std::make_shared<const r1cs::constraint_system>(std::move(k.cs))});
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
    d.load = [path = z->zkey] { return load_key_files({.key = path}); };
  } else if (const auto* b = std::get_if<bellperson_file_source>(&source)) {
    PP_ASSIGN_OR_RETURN(const uint64_t n1, file_size(b->params, "key '" + id + "': bellperson params"));
    PP_ASSIGN_OR_RETURN(const uint64_t n2, file_size(b->r1cs, "key '" + id + "': r1cs"));
    d.bytes = file_key_charge(n1 + n2);
    d.load = [params = b->params, r1cs_path = b->r1cs] {
      return load_key_files({.key = params, .r1cs = r1cs_path, .bellperson = true});
    };
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
