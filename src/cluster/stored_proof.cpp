// stored_proof (stored_proof.hpp): the formats' own writers and readers, picked by the curve column.
#include "cluster/stored_proof.hpp"

#include "core/status_macros.hpp"
#include "formats/bellperson_proof.hpp"
#include "formats/snarkjs_json.hpp"

namespace pp::cluster {

std::string curve_column(ec::curve_id c) { return std::string(ec::snarkjs_curve_name(c)); }

result<ec::curve_id> curve_from_column(std::string_view text) {
  for (const ec::curve_id c : {ec::curve_id::bls12_381, ec::curve_id::bn254}) {
    if (text == ec::snarkjs_curve_name(c)) return c;
  }
  return invalid_argument("curve: expected \"bls12381\" or \"bn128\", got \"" + std::string(text) + "\"");
}

partition_output store_proof(const engine::partition_result& proved) {
  partition_output out;
  out.curve = curve_column(proved.curve());
  if (const auto* bls = proved.as<ec::bls12_381::family>()) {
    const auto raw = formats::write_bellperson_proof(bls->proof);
    out.proof.assign(raw.begin(), raw.end());
    out.public_json = formats::write_snarkjs_public_json(bls->public_inputs);
  } else {
    const auto& bn = std::get<engine::bn254::curve_proof>(proved.output);
    const std::string json = formats::write_snarkjs_proof_json(bn.proof);
    out.proof.assign(json.begin(), json.end());
    out.public_json = formats::write_snarkjs_public_json(bn.public_inputs);
  }
  return out;
}

result<stored_output> read_stored_proof(const result_row& row) {
  PP_ASSIGN_OR_RETURN(const ec::curve_id curve, curve_from_column(row.curve));
  return ec::visit_curve(curve, [&]<class Family>() -> result<stored_output> {
    engine::basic_curve_proof<Family> out;
    if constexpr (ec::curve_id_of<Family> == ec::curve_id::bls12_381) {
      PP_ASSIGN_OR_RETURN(out.proof, formats::read_bellperson_proof(row.proof));
    } else {
      const std::string_view json(reinterpret_cast<const char*>(row.proof.data()), row.proof.size());
      PP_ASSIGN_OR_RETURN(out.proof, formats::read_snarkjs_proof_json<Family>(json));
    }
    PP_ASSIGN_OR_RETURN(out.public_inputs, formats::read_snarkjs_public_json<typename Family::fr>(row.public_json));
    return stored_output(std::move(out));
  });
}

std::vector<uint8_t> assemble_job_proof(const std::vector<result_row>& rows) {
  const bool json = !rows.empty() && rows.front().curve == curve_column(ec::curve_id::bn254);
  std::vector<uint8_t> out;
  if (json) out.push_back('[');
  for (const result_row& r : rows) {
    if (json && out.size() > 1) out.push_back(',');
    out.insert(out.end(), r.proof.begin(), r.proof.end());
  }
  if (json) out.push_back(']');
  return out;
}

}  // namespace pp::cluster
