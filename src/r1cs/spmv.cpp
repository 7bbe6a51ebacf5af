// Row-parallel SpMV over CSR matrices with oneTBB, plus zero padding of the outputs.
#include "r1cs/spmv.hpp"

#include <algorithm>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "r1cs/witness.hpp"

namespace pp::r1cs {

namespace {

using ff::fr;

status check_output(const constraint_system& cs, std::span<fr> out, const char* name) {
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

void zero_tail(std::span<fr> out, std::size_t from, const spmv_options& opt) {
  const std::size_t n = out.size() - from;
  // The tail can be most of a 2^27 domain (4 GiB): fill it in parallel too.
  spmv_options fill = opt;
  fill.grain_rows = std::max<std::size_t>(opt.grain_rows, 1 << 16);
  for_rows(n, fill, [&](std::size_t b, std::size_t e) { std::fill(out.begin() + from + b, out.begin() + from + e, fr::zero()); });
}

template <bool Fast>
void run_abc(const constraint_system& cs, const fr* w, fr* a, fr* b, fr* c, const spmv_options& opt) {
  for_rows(cs.num_constraints(), opt, [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r) {
      a[r] = row_dot<Fast>(cs.a(), r, w);
      b[r] = row_dot<Fast>(cs.b(), r, w);
      c[r] = row_dot<Fast>(cs.c(), r, w);
    }
  });
}

template <bool Fast>
void run_one(const csr_matrix& m, const fr* w, fr* out, const spmv_options& opt) {
  for_rows(m.rows(), opt, [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r) out[r] = row_dot<Fast>(m, r, w);
  });
}

}  // namespace

status spmv(const constraint_system& cs, matrix_id m, std::span<const fr> w, std::span<fr> out,
            const spmv_options& opt) {
  if (status s = check_witness_size(cs, w.size()); !s.ok()) return s;
  if (status s = check_output(cs, out, "out"); !s.ok()) return s;
  if (opt.fast_paths) {
    run_one<true>(cs.matrix(m), w.data(), out.data(), opt);
  } else {
    run_one<false>(cs.matrix(m), w.data(), out.data(), opt);
  }
  zero_tail(out, cs.num_constraints(), opt);
  return ok_status();
}

status evaluate_abc(const constraint_system& cs, std::span<const fr> w, std::span<fr> a, std::span<fr> b,
                    std::span<fr> c, const spmv_options& opt) {
  if (status s = check_witness_size(cs, w.size()); !s.ok()) return s;
  if (status s = check_output(cs, a, "a"); !s.ok()) return s;
  if (status s = check_output(cs, b, "b"); !s.ok()) return s;
  if (status s = check_output(cs, c, "c"); !s.ok()) return s;
  if (opt.fast_paths) {
    run_abc<true>(cs, w.data(), a.data(), b.data(), c.data(), opt);
  } else {
    run_abc<false>(cs, w.data(), a.data(), b.data(), c.data(), opt);
  }
  zero_tail(a, cs.num_constraints(), opt);
  zero_tail(b, cs.num_constraints(), opt);
  zero_tail(c, cs.num_constraints(), opt);
  return ok_status();
}

namespace reference {

std::vector<fr> naive_spmv(const constraint_system& cs, matrix_id id, std::span<const fr> w) {
  const csr_matrix& m = cs.matrix(id);
  std::vector<fr> out(m.rows(), fr::zero());
  for (std::size_t r = 0; r < m.rows(); ++r) {
    for (uint64_t k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) out[r] += m.coeffs[k] * w[m.cols[k]];
  }
  return out;
}

}  // namespace reference
}  // namespace pp::r1cs
