// c2_fixture: inputs for driving proofpipe_c2.h from C, and the independent check of its proofs.
//   c2_fixture make DIR LOG_N CIRCUITS SEED|random
//     a PoRep-shaped synthetic circuit filling 2^LOG_N (r1cs/synthetic.hpp), an insecure bellperson
//     key for it (DIR/params.bin), and DIR/assign.bin: what bellperson hands supraseal-c2 for
//     CIRCUITS proofs of that circuit (A w, B w, C w over constraints + inputs, the input and aux
//     assignments, the three density vectors) with a fresh (r, s) each. Layout: c2_fixture_format.h.
//   c2_fixture verify DIR PROOFS
//     PROOFS holds CIRCUITS groth16_proofs (384 B each, the ABI's layout); each is checked with
//     groth16::verify (points on curve and in the subgroup, then the pairing) under the verifying
//     key read back from DIR/params.bin. Exit 0 only when all verify.
//   c2_fixture export DIR PROOFS OUT
//     for `proofpipe verify`: OUT/verification_key.json (snarkjs layout, from DIR/params.bin's
//     verifying key), OUT/public.json (the circuits' public inputs) and OUT/proof.K.bin, proof K of
//     PROOFS in bellperson's 192-byte encoding (`proofpipe verify --proof-format bellperson`). The
//     proofs are only re-encoded, not checked: the installed binary judges them
//     (tests/packaging/install_test.sh).
//   c2_fixture poison DIR OUT torsion|replace
//     OUT/params.bin: DIR's with one L point on the curve but outside the prime-order subgroup, the
//     first whose aux value is 1 (so the proof sees it): L + T with T of order dividing the cofactor
//     (torsion: the pairing check need not see it, a subgroup check does), or a point outside
//     the subgroup in its place (replace: the proof also fails verification); OUT/assign.bin: DIR's.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "c2_fixture_format.h"
#include "ec/affine.hpp"
#include "ec/jacobian.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/subgroup.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/bellperson_proof.hpp"
#include "formats/snarkjs_json.hpp"
#include "groth16/qap.hpp"
#include "devices/gpu_devices.hpp"
#include "groth16/setup_insecure.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/synthetic.hpp"

namespace {

using pp::ff::fr;

int fail(const std::string& what) {
  std::fprintf(stderr, "c2_fixture: %s\n", what.c_str());
  return 1;
}

void put(std::ofstream& out, const void* p, size_t n) { out.write(static_cast<const char*>(p), static_cast<std::streamsize>(n)); }

// Bits [from, from + count) of d as their own LSB-first vector.
std::vector<uint64_t> bits_of(const pp::groth16::density_bitmap& d, uint64_t from, uint64_t count) {
  std::vector<uint64_t> w((count + 63) / 64, 0);
  for (uint64_t i = 0; i < count; ++i) {
    if (d.get(from + i)) w[i / 64] |= uint64_t{1} << (i % 64);
  }
  return w;
}

uint64_t popcount(const std::vector<uint64_t>& w) {
  uint64_t n = 0;
  for (uint64_t x : w) n += __builtin_popcountll(x);
  return n;
}

int make(const std::string& dir, int log_n, uint64_t circuits, uint64_t seed) {
  using namespace pp;
  auto sc = r1cs::make_synthetic(r1cs::synthetic_params::porep(r1cs::synthetic_params::porep_constraints(log_n), seed));
  if (!sc.ok()) return fail(sc.error().to_string());
  const r1cs::constraint_system& cs = sc->cs;
  // The points on a GPU when there is one (seconds at 2^24 instead of minutes); every multiplier
  // gives the same key.
  const auto tw = groth16::toxic_waste_from_seed_insecure(seed);
  auto gpu = devices::make_gpu_fixed_base_multiplier(0);
  auto pk = gpu.ok() ? groth16::setup_insecure(cs, groth16::h_basis::monomial, tw, **gpu)
                     : groth16::setup_insecure(cs, groth16::h_basis::monomial, tw);
  if (!pk.ok()) return fail(pk.error().to_string());
  // The synthetic generator leaves some aux variables in no constraint: their L point is infinity,
  // which bellperson's layout cannot hold. Such a variable is free, so it gets the value 0 and any
  // L point (the generator): the proof is unchanged by it and the file is a valid bellperson file.
  const uint64_t first_aux = 1 + cs.num_public();
  uint64_t freed = 0;
  for (uint64_t i = 0; i < pk->l.size(); ++i) {
    if (ec::is_infinity(pk->l[i])) {
      pk->l[i] = ec::generator<ec::g1_curve>();
      sc->w[first_aux + i] = fr::zero();
      ++freed;
    }
  }
  // A variable whose terms cancel (the generator's coefficient table allows x - x in one row) has
  // its density bit set but a point at infinity, which the file drops: clear its bit so the
  // densities describe the file (its contribution is zero either way).
  const auto drop_infinite = [](groth16::density_bitmap& d, const std::vector<ec::g1_affine>& points) {
    uint64_t k = 0, cleared = 0;
    for (uint64_t i = 0; i < d.size; ++i) {
      if (!d.get(i)) continue;
      if (ec::is_infinity(points[k++])) {
        d.words[i >> 6] &= ~(uint64_t{1} << (i & 63));
        ++cleared;
      }
    }
    return cleared;
  };
  freed += drop_infinite(*pk->a_density, pk->a) + drop_infinite(*pk->b_density, pk->b_g1);
  if (const status s = formats::write_bellperson_params_file(*pk, dir + "/params.bin"); !s.ok()) return fail(s.to_string());

  auto d = groth16::qap_domain::create(log_n, groth16::root_family_for(groth16::h_basis::monomial));
  if (!d.ok()) return fail(d.error().to_string());
  const uint64_t n = d->size();
  std::vector<fr> a(n), b(n), c(n);
  if (const status s = groth16::evaluate_qap(*d, cs, sc->w, a, b, c); !s.ok()) return fail(s.to_string());

  const uint64_t n_inp = 1 + cs.num_public(), n_aux = cs.num_aux();
  const std::vector<uint64_t> a_aux = bits_of(*pk->a_density, n_inp, n_aux);
  const std::vector<uint64_t> b_inp = bits_of(*pk->b_density, 0, n_inp);
  const std::vector<uint64_t> b_aux = bits_of(*pk->b_density, n_inp, n_aux);
  c2_fixture_header h{};
  std::memcpy(h.magic, C2_FIXTURE_MAGIC, sizeof h.magic);
  h.num_circuits = circuits;
  h.inp_size = n_inp;
  h.aux_size = n_aux;
  h.abc_size = groth16::qap_rows(cs);
  h.a_aux_popcount = popcount(a_aux);
  h.b_inp_popcount = popcount(b_inp);
  h.b_aux_popcount = popcount(b_aux);
  h.log_n = static_cast<uint64_t>(log_n);

  std::ofstream out(dir + "/assign.bin", std::ios::binary);
  put(out, &h, sizeof h);
  put(out, a_aux.data(), a_aux.size() * 8);
  put(out, b_inp.data(), b_inp.size() * 8);
  put(out, b_aux.data(), b_aux.size() * 8);
  // Every circuit is the same witness (one key proves one circuit), stored once; the blinding differs.
  put(out, a.data(), h.abc_size * sizeof(fr));
  put(out, b.data(), h.abc_size * sizeof(fr));
  put(out, c.data(), h.abc_size * sizeof(fr));
  put(out, sc->w.data(), n_inp * sizeof(fr));
  put(out, sc->w.data() + n_inp, n_aux * sizeof(fr));
  uint64_t state = seed ^ 0x9e3779b97f4a7c15ull;
  for (uint64_t k = 0; k < 2 * circuits; ++k) {
    const fr v = r1cs::random_fr(state);
    put(out, &v, sizeof v);
  }
  if (!out) return fail("writing " + dir + "/assign.bin");
  std::printf("c2_fixture: 2^%d domain, %llu constraints, %llu inputs, %llu aux (%llu in no constraint or cancelling), %llu circuits "
              "(seed %llu)\n",
              log_n,
              static_cast<unsigned long long>(cs.num_constraints()), static_cast<unsigned long long>(n_inp),
              static_cast<unsigned long long>(n_aux), static_cast<unsigned long long>(freed),
              static_cast<unsigned long long>(circuits),
              static_cast<unsigned long long>(seed));
  return 0;
}

// What checking DIR's proofs needs: the verifying key, the inputs (the constant 1 first) and the count.
struct proof_context {
  pp::groth16::verifying_key vk;
  std::vector<fr> inputs;  // circuit 0's: every circuit has the same inputs
  uint64_t circuits = 0;
};

pp::result<proof_context> read_proof_context(const std::string& dir) {
  using namespace pp;
  auto pk = formats::read_bellperson_params_file(dir + "/params.bin", {.checked = false});
  if (!pk.ok()) return pk.error();
  std::ifstream in(dir + "/assign.bin", std::ios::binary);
  c2_fixture_header h{};
  in.read(reinterpret_cast<char*>(&h), sizeof h);
  if (!in || std::memcmp(h.magic, C2_FIXTURE_MAGIC, sizeof h.magic) != 0) return invalid_argument("bad " + dir + "/assign.bin");
  const uint64_t words = (h.aux_size + 63) / 64 * 2 + (h.inp_size + 63) / 64;
  in.seekg(static_cast<std::streamoff>(sizeof h + words * 8 + 3 * h.abc_size * sizeof(fr)));
  proof_context c{pk->vk, std::vector<fr>(h.inp_size), h.num_circuits};
  in.read(reinterpret_cast<char*>(c.inputs.data()), static_cast<std::streamsize>(c.inputs.size() * sizeof(fr)));
  if (!in) return invalid_argument("short " + dir + "/assign.bin");
  return c;
}

// The proofs in PROOFS (groth16_proof, 384 B each), `count` of them.
pp::result<std::vector<pp::groth16::proof>> read_proofs(const std::string& path, uint64_t count) {
  std::ifstream pf(path, std::ios::binary);
  std::vector<pp::groth16::proof> out(count);
  static_assert(sizeof(pp::groth16::proof) == 384);
  pf.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(count * sizeof(pp::groth16::proof)));
  if (!pf) return pp::invalid_argument(path + " holds fewer than " + std::to_string(count) + " proofs");
  return out;
}

int verify(const std::string& dir, const std::string& proofs_path) {
  using namespace pp;
  auto c = read_proof_context(dir);
  if (!c.ok()) return fail(c.error().to_string());
  auto proofs = read_proofs(proofs_path, c->circuits);
  if (!proofs.ok()) return fail(proofs.error().to_string());
  int bad = 0;
  for (uint64_t k = 0; k < c->circuits; ++k) {
    const status s = groth16::verify(c->vk, std::span<const fr>(c->inputs).subspan(1), (*proofs)[k]);
    std::printf("proof %llu: %s\n", static_cast<unsigned long long>(k), s.ok() ? "verifies" : s.to_string().c_str());
    bad += !s.ok();
  }
  return bad == 0 ? 0 : 1;
}

int export_for_cli(const std::string& dir, const std::string& proofs_path, const std::string& out_dir) {
  using namespace pp;
  auto c = read_proof_context(dir);
  if (!c.ok()) return fail(c.error().to_string());
  auto proofs = read_proofs(proofs_path, c->circuits);
  if (!proofs.ok()) return fail(proofs.error().to_string());
  if (status s = formats::write_text_file(out_dir + "/verification_key.json", formats::write_snarkjs_vk_json(c->vk));
      !s.ok()) {
    return fail(s.to_string());
  }
  const std::span<const fr> pub = std::span<const fr>(c->inputs).subspan(1);
  if (status s = formats::write_text_file(out_dir + "/public.json", formats::write_snarkjs_public_json(pub)); !s.ok()) {
    return fail(s.to_string());
  }
  for (uint64_t k = 0; k < c->circuits; ++k) {
    const auto bytes = formats::write_bellperson_proof((*proofs)[k]);
    std::ofstream out(out_dir + "/proof." + std::to_string(k) + ".bin", std::ios::binary);
    put(out, bytes.data(), bytes.size());
    if (!out) return fail("writing " + out_dir + "/proof." + std::to_string(k) + ".bin");
  }
  std::printf("c2_fixture: %llu proof(s), the verifying key and %zu public inputs written to %s\n",
              static_cast<unsigned long long>(c->circuits), pub.size(), out_dir.c_str());
  return 0;
}

int poison(const std::string& dir, const std::string& out_dir, const std::string& mode) {
  using namespace pp;
  if (mode != "torsion" && mode != "replace") return fail("poison: the mode is torsion or replace, not " + mode);
  auto pk = formats::read_bellperson_params_file(dir + "/params.bin", {.checked = false});
  if (!pk.ok()) return fail(pk.error().to_string());
  std::ifstream in(dir + "/assign.bin", std::ios::binary);
  const std::vector<char> assign((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  c2_fixture_header h{};
  if (assign.size() < sizeof h) return fail("bad " + dir + "/assign.bin");
  std::memcpy(&h, assign.data(), sizeof h);
  const uint64_t words = (h.aux_size + 63) / 64 * 2 + (h.inp_size + 63) / 64;
  const uint64_t aux_at = sizeof h + words * 8 + (3 * h.abc_size + h.inp_size) * sizeof(fr);
  if (assign.size() < aux_at + h.aux_size * sizeof(fr)) return fail("short " + dir + "/assign.bin");
  uint64_t j = 0;
  for (fr v; j < h.aux_size; ++j) {
    std::memcpy(&v, assign.data() + aux_at + j * sizeof(fr), sizeof v);
    if (v == fr::one()) break;
  }
  if (j == h.aux_size || j >= pk->l.size()) return fail("poison: no aux value is 1");
  // A point on the curve outside the subgroup; [r] of it keeps only its cofactor part, not O.
  ec::g1_affine q;
  ff::fp x = ff::fp::from_uint(1);
  while (!ec::lift_x(x, q) || ec::is_in_subgroup(q)) x += ff::fp::one();
  const ec::g1_affine t = ec::to_affine(ec::mul_limbs(q, ff::fr_params::modulus, ff::fr::n64));
  pk->l[j] = mode == "torsion" ? ec::to_affine(ec::add(ec::to_jacobian(pk->l[j]), t)) : q;
  if (const status s = formats::write_bellperson_params_file(*pk, out_dir + "/params.bin"); !s.ok()) {
    return fail(s.to_string());
  }
  std::ofstream out(out_dir + "/assign.bin", std::ios::binary);
  put(out, assign.data(), assign.size());
  if (!out) return fail("writing " + out_dir + "/assign.bin");
  std::printf("c2_fixture: l[%llu] %s\n", static_cast<unsigned long long>(j),
              mode == "torsion" ? "plus a point of the cofactor's order" : "replaced by a point outside the subgroup");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "make" && argc == 6) {
    const std::string seed_arg = argv[5];
    const uint64_t seed = seed_arg == "random" ? (uint64_t{std::random_device{}()} << 32) | std::random_device{}()
                                               : std::stoull(seed_arg);
    return make(argv[2], std::stoi(argv[3]), std::stoull(argv[4]), seed);
  }
  if (mode == "verify" && argc == 4) return verify(argv[2], argv[3]);
  if (mode == "export" && argc == 5) return export_for_cli(argv[2], argv[3], argv[4]);
  if (mode == "poison" && argc == 5) return poison(argv[2], argv[3], argv[4]);
  return fail("usage: c2_fixture make DIR LOG_N CIRCUITS SEED|random | c2_fixture verify DIR PROOFS | "
              "c2_fixture poison DIR OUT torsion|replace");
}
