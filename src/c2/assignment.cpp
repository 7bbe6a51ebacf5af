#include "c2/assignment.hpp"

#include <span>
#include <utility>
#include <string>

#include "c2/abi_layout.hpp"
#include "core/status_macros.hpp"

namespace pp::c2 {

namespace {

using ff::fr;

uint64_t popcount_bits(const uint64_t* words, uint64_t bits) {
  uint64_t n = 0;
  for (uint64_t w = 0; w < bits / 64; ++w) n += __builtin_popcountll(words[w]);
  if (bits % 64 != 0) n += __builtin_popcountll(words[bits / 64] & ((uint64_t{1} << (bits % 64)) - 1));
  return n;
}

std::span<const fr> scalars(const fr_t* p, size_t n) { return {reinterpret_cast<const fr*>(p), n}; }

class field_checker {
 public:
  explicit field_checker(size_t index) : prefix_("provers[" + std::to_string(index) + "].") {}

  status non_null(const char* field, const void* p, size_t n) const {
    if (p != nullptr || n == 0) return ok_status();
    return invalid_argument(prefix_ + field + " is null but " + std::to_string(n) + " entries are expected");
  }
  status equal(const char* field, uint64_t got, uint64_t expected, const char* why) const {
    if (got == expected) return ok_status();
    return invalid_argument(prefix_ + field + " is " + std::to_string(got) + ", expected " + std::to_string(expected) +
                            " (" + why + ")");
  }
  status density(const char* words_field, const char* field, const uint64_t* words, size_t bits,
                 size_t declared) const {
    PP_RETURN_IF_ERROR(non_null(words_field, words, bits));
    if (bits == 0) return equal(field, declared, 0, "popcount of an empty bit vector");
    const uint64_t counted = popcount_bits(words, bits);
    if (counted == declared) return ok_status();
    return invalid_argument(prefix_ + field + ": the declared popcount " + std::to_string(declared) +
                            " disagrees with the " + std::to_string(counted) + " bits set");
  }

 private:
  std::string prefix_;
};

}  // namespace

result<groth16::evaluation_request> to_evaluation_request(const Assignment& p, size_t index,
                                                          const groth16::proving_key& pk) {
  const field_checker f(index);
  const size_t n_inp = p.inp_assignment_size;
  const size_t n_aux = p.aux_assignment_size;
  PP_RETURN_IF_ERROR(f.equal("inp_assignment_size", n_inp, pk.vk.ic.size(), "the SRS's vk.ic points"));
  PP_RETURN_IF_ERROR(f.equal("aux_assignment_size", n_aux, pk.l.size(), "the SRS's l points"));
  PP_RETURN_IF_ERROR(f.non_null("inp_assignment_data", p.inp_assignment_data, n_inp));
  PP_RETURN_IF_ERROR(f.non_null("aux_assignment_data", p.aux_assignment_data, n_aux));
  PP_RETURN_IF_ERROR(f.equal("a_aux_bit_len", p.a_aux_bit_len, n_aux, "aux_assignment_size"));
  PP_RETURN_IF_ERROR(f.equal("b_inp_bit_len", p.b_inp_bit_len, n_inp, "inp_assignment_size"));
  PP_RETURN_IF_ERROR(f.equal("b_aux_bit_len", p.b_aux_bit_len, n_aux, "aux_assignment_size"));
  PP_RETURN_IF_ERROR(f.density("a_aux_density", "a_aux_popcount", p.a_aux_density, p.a_aux_bit_len, p.a_aux_popcount));
  PP_RETURN_IF_ERROR(f.density("b_inp_density", "b_inp_popcount", p.b_inp_density, p.b_inp_bit_len, p.b_inp_popcount));
  PP_RETURN_IF_ERROR(f.density("b_aux_density", "b_aux_popcount", p.b_aux_density, p.b_aux_bit_len, p.b_aux_popcount));
  PP_RETURN_IF_ERROR(f.equal("a_aux_popcount", n_inp + p.a_aux_popcount, pk.a.size(),
                             "inputs + a_aux_popcount must equal the SRS's a points"));
  PP_RETURN_IF_ERROR(f.equal("b_aux_popcount", p.b_inp_popcount + p.b_aux_popcount, pk.b_g1.size(),
                             "b_inp_popcount + b_aux_popcount must equal the SRS's b_g1 points"));
  if (p.abc_size < n_inp || p.abc_size > pk.domain_size) {
    return invalid_argument("provers[" + std::to_string(index) + "].abc_size is " + std::to_string(p.abc_size) +
                            ", expected constraints + inputs: at least " + std::to_string(n_inp) +
                            " and at most the SRS's domain of " + std::to_string(pk.domain_size));
  }
  PP_RETURN_IF_ERROR(f.non_null("a", p.a, p.abc_size));
  PP_RETURN_IF_ERROR(f.non_null("b", p.b, p.abc_size));
  PP_RETURN_IF_ERROR(f.non_null("c", p.c, p.abc_size));

  groth16::evaluation_request req;
  req.pk = &pk;
  req.a = scalars(p.a, p.abc_size);
  req.b = scalars(p.b, p.abc_size);
  req.c = scalars(p.c, p.abc_size);
  req.inputs = scalars(p.inp_assignment_data, n_inp);
  req.aux = scalars(p.aux_assignment_data, n_aux);
  const auto words = [](const uint64_t* w, size_t bits) {
    return std::span<const uint64_t>(w, w == nullptr ? 0 : (bits + 63) / 64);
  };
  req.a_aux = {words(p.a_aux_density, n_aux), n_aux};
  req.b_inputs = {words(p.b_inp_density, n_inp), n_inp};
  req.b_aux = {words(p.b_aux_density, n_aux), n_aux};
  PP_RETURN_IF_ERROR(groth16::check_evaluation_request(req).with_context("provers[" + std::to_string(index) + "]"));
  return req;
}

status check_reduced(const groth16::evaluation_request& req, size_t index, scalar_vectors which) {
  const bool abc = which == scalar_vectors::all;
  const std::pair<const char*, std::span<const fr>> vectors[] = {{"a", abc ? req.a : std::span<const fr>()},
                                                                 {"b", abc ? req.b : std::span<const fr>()},
                                                                 {"c", abc ? req.c : std::span<const fr>()},
                                                                 {"inp_assignment_data", req.inputs},
                                                                 {"aux_assignment_data", req.aux}};
  for (const auto& [name, v] : vectors) {
    if (const uint64_t i = groth16::first_unreduced(v); i != v.size()) {
      return groth16::unreduced_scalar("provers[" + std::to_string(index) + "]." + name, i);
    }
  }
  return ok_status();
}

}  // namespace pp::c2
