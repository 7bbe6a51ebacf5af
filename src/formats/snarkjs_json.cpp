// snarkjs JSON: nlohmann parses (exceptions caught at this boundary), small typed accessors
// validate with the JSON path in every message, and a bfj-compatible printer writes. Written once
// over the curve family, instantiated for BLS12-381 and BN254 at the end.
#include "formats/snarkjs_json.hpp"

#include <nlohmann/json.hpp>

#include "core/output_file.hpp"
#include "core/status_macros.hpp"
#include "ec/ec.hpp"
#include "ff/field_bytes.hpp"
#include "formats/mapped_file.hpp"
#include "pairing/pairing.hpp"

namespace pp::formats {

namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

// ---- reading -------------------------------------------------------------------------------

result<json> parse(std::string_view text, std::string_view file) {
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    // e.what() quotes the text it choked on: name the place, never the content (the path may be
    // any file, a token or a key).
    return invalid_argument(std::string(file) + ": malformed JSON (syntax error at byte " + std::to_string(e.byte) + ")");
  } catch (const json::exception& e) {
    return invalid_argument(std::string(file) + ": malformed JSON (nlohmann::json error " + std::to_string(e.id) + ")");
  }
}

std::string type_of(const json& j) { return j.type_name(); }

status expect_array(const json& j, std::size_t n, const std::string& path) {
  if (!j.is_array()) return invalid_argument(path + ": expected an array of " + std::to_string(n) + ", got " + type_of(j));
  if (j.size() != n) {
    return invalid_argument(path + ": expected an array of " + std::to_string(n) + ", got " + std::to_string(j.size()) +
                            " elements");
  }
  return ok_status();
}

template <class F>
result<F> read_decimal(const json& j, const std::string& path) {
  if (!j.is_string()) return invalid_argument(path + ": expected a decimal string, got " + type_of(j));
  auto v = ff::from_decimal<F>(j.get_ref<const std::string&>());
  if (!v.ok()) return std::move(v).take_status().with_context(path);
  return v;
}

template <class Fp2>
result<Fp2> read_fp2(const json& j, const std::string& path) {
  using fp = decltype(Fp2{}.c0);
  PP_RETURN_IF_ERROR(expect_array(j, 2, path));
  PP_ASSIGN_OR_RETURN(const fp c0, read_decimal<fp>(j[0], path + "[0]"));
  PP_ASSIGN_OR_RETURN(const fp c1, read_decimal<fp>(j[1], path + "[1]"));
  return Fp2{c0, c1};
}

// z is "1" (affine) or "0" (infinity, snarkjs writes ["0","1","0"] and never anything else).
template <class Curve>
status finish_point(ec::affine<Curve>& p, bool z_is_zero, const std::string& path) {
  if (z_is_zero) {
    p = ec::affine<Curve>::infinity();
    return ok_status();
  }
  if (!ec::is_on_curve(p)) return invalid_argument(path + ": not on the " + std::string(Curve::name) + " curve");
  if (!ec::is_in_subgroup(p)) {
    return invalid_argument(path + ": not in the prime-order " + std::string(Curve::name) + " subgroup");
  }
  return ok_status();
}

template <class Family>
result<ec::affine<typename Family::g1_curve>> read_g1(const json& j, const std::string& path) {
  using fp = typename Family::fp;
  PP_RETURN_IF_ERROR(expect_array(j, 3, path));
  ec::affine<typename Family::g1_curve> p;
  PP_ASSIGN_OR_RETURN(p.x, read_decimal<fp>(j[0], path + "[0]"));
  PP_ASSIGN_OR_RETURN(p.y, read_decimal<fp>(j[1], path + "[1]"));
  PP_ASSIGN_OR_RETURN(const fp z, read_decimal<fp>(j[2], path + "[2]"));
  if (!z.is_zero() && !z.is_one()) return invalid_argument(path + "[2]: z must be \"1\" (affine) or \"0\" (infinity)");
  PP_RETURN_IF_ERROR(finish_point(p, z.is_zero(), path));
  return p;
}

template <class Family>
result<ec::affine<typename Family::g2_curve>> read_g2(const json& j, const std::string& path) {
  using fp2 = typename Family::g2_curve::field;
  PP_RETURN_IF_ERROR(expect_array(j, 3, path));
  ec::affine<typename Family::g2_curve> p;
  PP_ASSIGN_OR_RETURN(p.x, read_fp2<fp2>(j[0], path + "[0]"));
  PP_ASSIGN_OR_RETURN(p.y, read_fp2<fp2>(j[1], path + "[1]"));
  PP_ASSIGN_OR_RETURN(const fp2 z, read_fp2<fp2>(j[2], path + "[2]"));
  if (!z.is_zero() && !z.is_one()) {
    return invalid_argument(path + "[2]: z must be [\"1\",\"0\"] (affine) or [\"0\",\"0\"] (infinity)");
  }
  PP_RETURN_IF_ERROR(finish_point(p, z.is_zero(), path));
  return p;
}

result<const json*> member(const json& obj, const char* key) {
  const auto it = obj.find(key);
  if (it == obj.end()) return invalid_argument(std::string("missing \"") + key + "\"");
  return &*it;
}

// "protocol" must be "groth16"; "curve" one of snarkjs's names for a supported curve. Messages
// get the document's name as context from from_text.
result<ec::curve_id> protocol_and_curve(const json& obj) {
  PP_ASSIGN_OR_RETURN(const json* protocol, member(obj, "protocol"));
  if (!protocol->is_string() || protocol->get_ref<const std::string&>() != "groth16") {
    return invalid_argument("protocol is " + protocol->dump() + ", proofpipe handles \"groth16\" only");
  }
  PP_ASSIGN_OR_RETURN(const json* curve, member(obj, "curve"));
  if (!curve->is_string()) return invalid_argument("curve must be a string, got " + type_of(*curve));
  const std::string& c = curve->get_ref<const std::string&>();
  if (c == "bn128" || c == "bn254") return ec::curve_id::bn254;
  if (c == "bls12381") return ec::curve_id::bls12_381;
  return invalid_argument("curve is \"" + c + "\", proofpipe needs \"bls12381\" or \"bn128\"");
}

template <class Family>
status check_protocol_and_curve(const json& obj, std::string_view file) {
  constexpr ec::curve_id want = ec::curve_id_of<Family>;
  PP_ASSIGN_OR_RETURN(const ec::curve_id got, protocol_and_curve(obj));
  if (got == want) return ok_status();
  const std::string f(file);
  return invalid_argument("this " + f + " is for " + ec::curve_name(got) + " (" +
                          obj["curve"].get_ref<const std::string&>() + "), expected " + ec::curve_text(want));
}

template <class Family>
result<groth16::basic_verifying_key<Family>> vk_from_json(const json& j) {
  using fp2 = typename Family::g2_curve::field;
  if (!j.is_object()) return invalid_argument("expected a JSON object, got " + type_of(j));
  PP_RETURN_IF_ERROR(check_protocol_and_curve<Family>(j, "verification key"));
  groth16::basic_verifying_key<Family> vk;
  PP_ASSIGN_OR_RETURN(const json* alpha, member(j, "vk_alpha_1"));
  PP_ASSIGN_OR_RETURN(vk.alpha_g1, read_g1<Family>(*alpha, "vk_alpha_1"));
  PP_ASSIGN_OR_RETURN(const json* beta, member(j, "vk_beta_2"));
  PP_ASSIGN_OR_RETURN(vk.beta_g2, read_g2<Family>(*beta, "vk_beta_2"));
  PP_ASSIGN_OR_RETURN(const json* gamma, member(j, "vk_gamma_2"));
  PP_ASSIGN_OR_RETURN(vk.gamma_g2, read_g2<Family>(*gamma, "vk_gamma_2"));
  PP_ASSIGN_OR_RETURN(const json* delta, member(j, "vk_delta_2"));
  PP_ASSIGN_OR_RETURN(vk.delta_g2, read_g2<Family>(*delta, "vk_delta_2"));
  PP_ASSIGN_OR_RETURN(const json* ic, member(j, "IC"));
  if (!ic->is_array() || ic->empty()) return invalid_argument("IC: expected a non-empty array of G1 points");
  vk.ic.reserve(ic->size());
  for (std::size_t i = 0; i < ic->size(); ++i) {
    PP_ASSIGN_OR_RETURN(const auto p, read_g1<Family>((*ic)[i], "IC[" + std::to_string(i) + "]"));
    vk.ic.push_back(p);
  }
  PP_ASSIGN_OR_RETURN(const json* n_public, member(j, "nPublic"));
  if (!n_public->is_number_unsigned() || n_public->get<uint64_t>() != ic->size() - 1) {
    return invalid_argument("nPublic is " + n_public->dump() + ", expected " + std::to_string(ic->size() - 1) +
                            " (IC has " + std::to_string(ic->size()) + " points)");
  }
  if (const auto ab = j.find("vk_alphabeta_12"); ab != j.end()) {
    PP_RETURN_IF_ERROR(expect_array(*ab, 2, "vk_alphabeta_12"));
    for (int a = 0; a < 2; ++a) {
      const std::string pa = "vk_alphabeta_12[" + std::to_string(a) + "]";
      PP_RETURN_IF_ERROR(expect_array((*ab)[a], 3, pa));
      for (int b = 0; b < 3; ++b) {
        auto e = read_fp2<fp2>((*ab)[a][b], pa + "[" + std::to_string(b) + "]");
        if (!e.ok()) return std::move(e).take_status();
      }
    }
  }
  return vk;
}

template <class Family>
result<groth16::basic_proof<Family>> proof_from_json(const json& j) {
  if (!j.is_object()) return invalid_argument("expected a JSON object, got " + type_of(j));
  PP_RETURN_IF_ERROR(check_protocol_and_curve<Family>(j, "proof"));
  groth16::basic_proof<Family> p;
  PP_ASSIGN_OR_RETURN(const json* a, member(j, "pi_a"));
  PP_ASSIGN_OR_RETURN(p.a, read_g1<Family>(*a, "pi_a"));
  PP_ASSIGN_OR_RETURN(const json* b, member(j, "pi_b"));
  PP_ASSIGN_OR_RETURN(p.b, read_g2<Family>(*b, "pi_b"));
  PP_ASSIGN_OR_RETURN(const json* c, member(j, "pi_c"));
  PP_ASSIGN_OR_RETURN(p.c, read_g1<Family>(*c, "pi_c"));
  return p;
}

template <class Fr>
result<std::vector<Fr>> public_from_json(const json& j) {
  if (!j.is_array()) return invalid_argument("expected an array of decimal strings, got " + type_of(j));
  std::vector<Fr> out;
  out.reserve(j.size());
  for (std::size_t i = 0; i < j.size(); ++i) {
    PP_ASSIGN_OR_RETURN(const Fr v, read_decimal<Fr>(j[i], "[" + std::to_string(i) + "]"));
    out.push_back(v);
  }
  return out;
}

// Parse + convert, with every nlohmann exception (none expected past parse) kept inside.
template <class T, class F>
result<T> from_text(std::string_view text, std::string_view file, F convert) {
  try {
    PP_ASSIGN_OR_RETURN(const json j, parse(text, file));
    auto r = convert(j);
    if (!r.ok()) return std::move(r).take_status().with_context(file);
    return r;
  } catch (const std::exception& e) {
    return invalid_argument(std::string(file) + ": " + e.what());
  }
}

// ---- writing ---------------------------------------------------------------------------------

template <class Curve>
ordered_json g1_json(const ec::affine<Curve>& p) {
  if (ec::is_infinity(p)) return ordered_json::array({"0", "1", "0"});
  return ordered_json::array({ff::to_decimal(p.x), ff::to_decimal(p.y), "1"});
}

template <class T>
ordered_json fp2_json(const ff::fp2_t<T>& a) {
  return ordered_json::array({ff::to_decimal(a.c0), ff::to_decimal(a.c1)});
}

template <class Curve>
ordered_json g2_json(const ec::affine<Curve>& p) {
  using fp2 = typename Curve::field;
  if (ec::is_infinity(p)) return ordered_json::array({fp2_json(fp2::zero()), fp2_json(fp2::one()), fp2_json(fp2::zero())});
  return ordered_json::array({fp2_json(p.x), fp2_json(p.y), fp2_json(fp2::one())});
}

template <class T>
ordered_json fp6_json(const ff::fp6_t<T>& a) {
  return ordered_json::array({fp2_json(a.c0), fp2_json(a.c1), fp2_json(a.c2)});
}

// bfj's layout with space 1: one value per line, nesting indented by one space, "key": value.
void print(const ordered_json& j, int depth, std::string& out) {
  const std::string pad(depth + 1, ' ');
  if (j.is_object()) {
    out += "{\n";
    std::size_t i = 0;
    for (const auto& [k, v] : j.items()) {
      out += pad + ordered_json(k).dump() + ": ";
      print(v, depth + 1, out);
      out += ++i < j.size() ? ",\n" : "\n";
    }
    out += std::string(depth, ' ') + "}";
  } else if (j.is_array()) {
    out += "[\n";
    for (std::size_t i = 0; i < j.size(); ++i) {
      out += pad;
      print(j[i], depth + 1, out);
      out += i + 1 < j.size() ? ",\n" : "\n";
    }
    out += std::string(depth, ' ') + "]";
  } else {
    out += j.dump();
  }
}

std::string print(const ordered_json& j) {
  std::string out;
  print(j, 0, out);
  return out;
}

result<std::string> read_text(const std::filesystem::path& path) {
  return read_mapped(path, [](std::span<const uint8_t> b) -> result<std::string> {
    return std::string(reinterpret_cast<const char*>(b.data()), b.size());
  });
}

template <class T, class F>
result<T> from_file(const std::filesystem::path& path, F read) {
  PP_ASSIGN_OR_RETURN(const std::string text, read_text(path));
  auto r = read(text);
  if (!r.ok()) return std::move(r).take_status().with_context("reading " + path.string());
  return r;
}

}  // namespace

result<ec::curve_id> read_snarkjs_json_curve(std::string_view text, std::string_view file) {
  return from_text<ec::curve_id>(text, file, [&](const json& j) -> result<ec::curve_id> {
    if (!j.is_object()) return invalid_argument("expected a JSON object, got " + type_of(j));
    return protocol_and_curve(j);
  });
}

result<ec::curve_id> read_snarkjs_json_curve_file(const std::filesystem::path& path) {
  return from_file<ec::curve_id>(path, [](std::string_view text) { return read_snarkjs_json_curve(text); });
}

template <class Family>
result<groth16::basic_verifying_key<Family>> read_snarkjs_vk_json(std::string_view text) {
  return from_text<groth16::basic_verifying_key<Family>>(text, "verification key", vk_from_json<Family>);
}

template <class Family>
result<groth16::basic_proof<Family>> read_snarkjs_proof_json(std::string_view text) {
  return from_text<groth16::basic_proof<Family>>(text, "proof", proof_from_json<Family>);
}

template <class Fr>
result<std::vector<Fr>> read_snarkjs_public_json(std::string_view text) {
  return from_text<std::vector<Fr>>(text, "public signals", public_from_json<Fr>);
}

template <class Family>
std::string write_snarkjs_vk_json(const groth16::basic_verifying_key<Family>& vk) {
  ordered_json j;
  j["protocol"] = "groth16";
  j["curve"] = ec::snarkjs_curve_name(ec::curve_id_of<Family>);
  j["nPublic"] = vk.n_public();
  j["vk_alpha_1"] = g1_json(vk.alpha_g1);
  j["vk_beta_2"] = g2_json(vk.beta_g2);
  j["vk_gamma_2"] = g2_json(vk.gamma_g2);
  j["vk_delta_2"] = g2_json(vk.delta_g2);
  const pairing::gt_field<Family> ab = pairing::pairing(vk.alpha_g1, vk.beta_g2);
  j["vk_alphabeta_12"] = ordered_json::array({fp6_json(ab.c0), fp6_json(ab.c1)});
  ordered_json ic = ordered_json::array();
  for (const auto& p : vk.ic) ic.push_back(g1_json(p));
  j["IC"] = std::move(ic);
  return print(j);
}

template <class Family>
std::string write_snarkjs_proof_json(const groth16::basic_proof<Family>& proof) {
  ordered_json j;
  j["pi_a"] = g1_json(proof.a);
  j["pi_b"] = g2_json(proof.b);
  j["pi_c"] = g1_json(proof.c);
  j["protocol"] = "groth16";
  j["curve"] = ec::snarkjs_curve_name(ec::curve_id_of<Family>);
  return print(j);
}

namespace {
template <class Fr>
std::string public_json(std::span<const Fr> public_signals) {
  ordered_json j = ordered_json::array();
  for (const Fr& v : public_signals) j.push_back(ff::to_decimal(v));
  return print(j);
}
}  // namespace

std::string write_snarkjs_public_json(std::span<const ff::fr> public_signals) { return public_json(public_signals); }
std::string write_snarkjs_public_json(std::span<const ff::bn254::fr> public_signals) {
  return public_json(public_signals);
}

template <class Family>
result<groth16::basic_verifying_key<Family>> read_snarkjs_vk_json_file(const std::filesystem::path& path) {
  return from_file<groth16::basic_verifying_key<Family>>(path, read_snarkjs_vk_json<Family>);
}

template <class Family>
result<groth16::basic_proof<Family>> read_snarkjs_proof_json_file(const std::filesystem::path& path) {
  return from_file<groth16::basic_proof<Family>>(path, read_snarkjs_proof_json<Family>);
}

template <class Fr>
result<std::vector<Fr>> read_snarkjs_public_json_file(const std::filesystem::path& path) {
  return from_file<std::vector<Fr>>(path, read_snarkjs_public_json<Fr>);
}

status write_text_file(const std::filesystem::path& path, std::string_view text) {
  return write_output_file(path, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

#define PP_INSTANTIATE(Family)                                                                                   \
  template result<groth16::basic_verifying_key<Family>> read_snarkjs_vk_json<Family>(std::string_view);         \
  template std::string write_snarkjs_vk_json<Family>(const groth16::basic_verifying_key<Family>&);              \
  template result<groth16::basic_proof<Family>> read_snarkjs_proof_json<Family>(std::string_view);              \
  template std::string write_snarkjs_proof_json<Family>(const groth16::basic_proof<Family>&);                   \
  template result<std::vector<Family::fr>> read_snarkjs_public_json<Family::fr>(std::string_view);              \
  template result<groth16::basic_verifying_key<Family>> read_snarkjs_vk_json_file<Family>(                      \
      const std::filesystem::path&);                                                                            \
  template result<groth16::basic_proof<Family>> read_snarkjs_proof_json_file<Family>(const std::filesystem::path&); \
  template result<std::vector<Family::fr>> read_snarkjs_public_json_file<Family::fr>(const std::filesystem::path&);
PP_INSTANTIATE(ec::bls12_381::family)
PP_INSTANTIATE(ec::bn254::family)
#undef PP_INSTANTIATE

}  // namespace pp::formats
