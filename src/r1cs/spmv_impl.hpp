// Row-parallel SpMV over CSR matrices with oneTBB, plus zero padding of the outputs.
// Included only by the instantiation files (r1cs/instantiate.hpp).
#pragma once
#include "r1cs/spmv.hpp"

#include <algorithm>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "r1cs/witness_impl.hpp"

namespace pp::r1cs {

namespace spmv_detail {

template <class Fr>
status check_output(const basic_constraint_system<Fr>& cs, std::span<Fr> out, const char* name) {
  if (out.size() >= cs.num_constraints()) return ok_status();
  return invalid_argument(std::string("output ") + name + " has " + std::to_string(out.size()) +
                          " entries, expected at least " + std::to_string(cs.num_constraints()) + " constraints");
}

// Runs body(begin, end) over [0, n), in parallel or not.
template <class Body>
void for_rows(std::size_t n, const spmv_options& opt, const Body& body) {
  if (n == 0) return;
  if (!opt.parallel) {
    body(std::size_t{0}, n);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, std::max<std::size_t>(opt.grain_rows, 1)),
                    [&](const tbb::blocked_range<std::size_t>& r) { body(r.begin(), r.end()); });
}

template <class Fr>
void zero_tail(std::span<Fr> out, std::size_t from, const spmv_options& opt) {
  const std::size_t n = out.size() - from;
  // The tail can be most of a 2^27 domain (4 GiB): fill it in parallel too.
  spmv_options fill = opt;
  fill.grain_rows = std::max<std::size_t>(opt.grain_rows, 1 << 16);
  for_rows(n, fill, [&](std::size_t b, std::size_t e) { std::fill(out.begin() + from + b, out.begin() + from + e, Fr::zero()); });
}

template <bool Fast, class Fr>
void run_abc(const basic_constraint_system<Fr>& cs, const Fr* w, Fr* a, Fr* b, Fr* c, const spmv_options& opt) {
  for_rows(cs.num_constraints(), opt, [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r) {
      a[r] = row_dot<Fast>(cs.a(), r, w);
      b[r] = row_dot<Fast>(cs.b(), r, w);
      c[r] = row_dot<Fast>(cs.c(), r, w);
    }
  });
}

template <bool Fast, class Fr>
void run_one(const basic_csr_matrix<Fr>& m, const Fr* w, Fr* out, const spmv_options& opt) {
  for_rows(m.rows(), opt, [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r) out[r] = row_dot<Fast>(m, r, w);
  });
}

}  // namespace spmv_detail

template <class Fr>
status spmv(const basic_constraint_system<Fr>& cs, matrix_id m, std::span<const std::type_identity_t<Fr>> w,
            std::span<std::type_identity_t<Fr>> out, const spmv_options& opt) {
  using namespace spmv_detail;
  if (status s = check_witness_size<Fr>(cs, w.size()); !s.ok()) return s;
  if (status s = check_output<Fr>(cs, out, "out"); !s.ok()) return s;
  if (opt.fast_paths) {
    run_one<true>(cs.matrix(m), w.data(), out.data(), opt);
  } else {
    run_one<false>(cs.matrix(m), w.data(), out.data(), opt);
  }
  zero_tail<Fr>(out, cs.num_constraints(), opt);
  return ok_status();
}

template <class Fr>
status evaluate_abc(const basic_constraint_system<Fr>& cs, std::span<const std::type_identity_t<Fr>> w,
                    std::span<std::type_identity_t<Fr>> a, std::span<std::type_identity_t<Fr>> b,
                    std::span<std::type_identity_t<Fr>> c, const spmv_options& opt) {
  using namespace spmv_detail;
  if (status s = check_witness_size<Fr>(cs, w.size()); !s.ok()) return s;
  if (status s = check_output<Fr>(cs, a, "a"); !s.ok()) return s;
  if (status s = check_output<Fr>(cs, b, "b"); !s.ok()) return s;
  if (status s = check_output<Fr>(cs, c, "c"); !s.ok()) return s;
  if (opt.fast_paths) {
    run_abc<true>(cs, w.data(), a.data(), b.data(), c.data(), opt);
  } else {
    run_abc<false>(cs, w.data(), a.data(), b.data(), c.data(), opt);
  }
  zero_tail<Fr>(a, cs.num_constraints(), opt);
  zero_tail<Fr>(b, cs.num_constraints(), opt);
  zero_tail<Fr>(c, cs.num_constraints(), opt);
  return ok_status();
}

namespace reference {

template <class Fr>
std::vector<Fr> naive_spmv(const basic_constraint_system<Fr>& cs, matrix_id id, std::span<const std::type_identity_t<Fr>> w) {
  const basic_csr_matrix<Fr>& m = cs.matrix(id);
  std::vector<Fr> out(m.rows(), Fr::zero());
  for (std::size_t r = 0; r < m.rows(); ++r) {
    for (uint64_t k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) out[r] += m.coeffs[k] * w[m.cols[k]];
  }
  return out;
}

}  // namespace reference
}  // namespace pp::r1cs
