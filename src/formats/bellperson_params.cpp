// bellperson parameters: a cursor over the span with big-endian counts, every count checked against
// the bytes left before allocating; the point vectors sized with their pages faulted in on every
// core (first_touch.hpp) and decoded in parallel (unchecked: a direct path for plain points, ec's
// decoder for anything else and for its named errors).
#include "formats/bellperson_params.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>
#include <string>

#include "core/output_file.hpp"
#include "core/status_macros.hpp"
#include "ec/encoding.hpp"
#include "ff/fp.hpp"
#include "formats/first_touch.hpp"
#include "formats/mapped_file.hpp"

namespace pp::formats {

namespace {

using ec::g1_affine;
using ec::g2_affine;

class be_cursor {
 public:
  explicit be_cursor(std::span<const uint8_t> b) : b_(b) {}
  uint64_t offset() const { return pos_; }
  uint64_t remaining() const { return b_.size() - pos_; }

  status require(uint64_t n, const std::string& what) const {
    if (remaining() >= n) return ok_status();
    return data_loss("bellperson params truncated at offset " + std::to_string(pos_) + ": " + what + " needs " +
                     std::to_string(n) + " bytes, " + std::to_string(remaining()) + " left");
  }
  result<uint32_t> u32(const std::string& what) {
    PP_RETURN_IF_ERROR(require(4, what));
    const uint8_t* p = b_.data() + pos_;
    pos_ += 4;
    return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
  }
  std::span<const uint8_t> take(uint64_t n) {
    auto s = b_.subspan(pos_, n);
    pos_ += n;
    return s;
  }

 private:
  std::span<const uint8_t> b_;
  uint64_t pos_ = 0;
};

// base: the file offset of c's first byte (c may read a sub-span), for the messages.
template <class Curve>
result<ec::affine<Curve>> read_point(be_cursor& c, bool checked, bool reject_infinity, const std::string& what,
                                     uint64_t base = 0) {
  constexpr uint64_t size = ec::encoding_sizes<Curve>::uncompressed;
  PP_RETURN_IF_ERROR(c.require(size, what));
  const uint64_t off = base + c.offset();
  const auto bytes = c.take(size);
  auto p = checked ? ec::decode_uncompressed<Curve>(bytes) : ec::decode_uncompressed_unchecked<Curve>(bytes);
  const std::string where = "bellperson params " + what + " at offset " + std::to_string(off);
  if (!p.ok()) return std::move(p).take_status().with_context(where);
  if (reject_infinity && ec::is_infinity(*p)) return invalid_argument(where + ": point at infinity");
  return p;
}

// Points decoded per task of the parallel read: large enough that scheduling costs nothing next to
// the decoding a task does, small enough to spread 2^27 points over any core count.
constexpr uint64_t decode_grain = uint64_t{1} << 12;

// 48 big-endian bytes to fp: the conversion ff::from_bytes_be makes (the same limbs, the same
// from_canonical_checked), without its result and error text. False when the value is >= p.
bool fp_from_be(const uint8_t* in, ff::fp& out) {
  uint64_t v[6];
  for (int i = 0; i < 6; ++i) {
    uint64_t w;
    std::memcpy(&w, in + 8 * (5 - i), 8);
    v[i] = __builtin_bswap64(w);
  }
  return ff::fp::from_canonical_checked(v, out);
}

// An unchecked point without flags, both coordinates < p and not (0, 0): every point of a good key.
// False for anything else (flags, infinity, a coordinate >= p): ec's decoder then decides, and names
// what is wrong. G2 coordinates are c1 || c0 (ec/encoding.hpp).
bool decode_plain(const uint8_t* in, g1_affine& out) {
  if ((in[0] & 0xe0) != 0) return false;
  return fp_from_be(in, out.x) && fp_from_be(in + 48, out.y) && !ec::is_infinity(out);
}
bool decode_plain(const uint8_t* in, g2_affine& out) {
  if ((in[0] & 0xe0) != 0) return false;
  return fp_from_be(in, out.x.c1) && fp_from_be(in + 48, out.x.c0) && fp_from_be(in + 96, out.y.c1) &&
         fp_from_be(in + 144, out.y.c0) && !ec::is_infinity(out);
}

constexpr uint64_t no_bad_point = ~uint64_t{0};

// One point vector of the file: where its points are (set by the layout pass), where they go, and
// the least index that failed to decode.
template <class Curve>
struct point_vector {
  const char* name;
  bool reject_infinity;
  std::vector<ec::affine<Curve>>* out;
  uint64_t base = 0;  // file offset of the first point
  std::span<const uint8_t> bytes{};
  std::atomic<uint64_t> first_bad{no_bad_point};

  // Reads the count and takes the points' bytes, or says where the file is short.
  status take(be_cursor& c) {
    constexpr uint64_t size = ec::encoding_sizes<Curve>::uncompressed;
    PP_ASSIGN_OR_RETURN(const uint32_t n, c.u32(std::string(name) + " count"));
    PP_RETURN_IF_ERROR(c.require(uint64_t{n} * size, std::string(name) + " (" + std::to_string(n) + " points)"));
    base = c.offset();
    bytes = c.take(uint64_t{n} * size);
    return ok_status();
  }
  uint64_t count() const { return bytes.size() / ec::encoding_sizes<Curve>::uncompressed; }

  // Points [lo, hi) into out (sized already). A task stops only past a failure already seen, so
  // every point below the least failing index is decoded and first_bad ends as that index.
  void decode(uint64_t lo, uint64_t hi, bool checked) {
    constexpr uint64_t size = ec::encoding_sizes<Curve>::uncompressed;
    ec::affine<Curve>* const dst = out->data();
    for (uint64_t i = lo; i < hi; ++i) {
      if (i > first_bad.load(std::memory_order_relaxed)) return;
      const uint8_t* const in = bytes.data() + i * size;
      if (!checked && decode_plain(in, dst[i])) continue;
      auto p = checked ? ec::decode_uncompressed<Curve>({in, size}) : ec::decode_uncompressed_unchecked<Curve>({in, size});
      if (p.ok() && !(reject_infinity && ec::is_infinity(*p))) {
        dst[i] = *p;
        continue;
      }
      uint64_t seen = first_bad.load(std::memory_order_relaxed);
      while (i < seen && !first_bad.compare_exchange_weak(seen, i, std::memory_order_relaxed)) {
      }
      return;
    }
  }

  // The error of the least failing point, as a front-to-back read names it (with the file offset).
  status error(bool checked) const {
    constexpr uint64_t size = ec::encoding_sizes<Curve>::uncompressed;
    const uint64_t bad = first_bad.load();
    if (bad == no_bad_point) return ok_status();
    be_cursor at_bad(bytes.subspan(bad * size));
    auto p = read_point<Curve>(at_bad, checked, reject_infinity, std::string(name) + "[" + std::to_string(bad) + "]",
                               base + bad * size);
    return p.ok() ? internal_error(std::string("bellperson params: ") + name + "[" + std::to_string(bad) +
                                   "] failed to decode once, then decoded")
                  : p.error();
  }
};

using clock_type = std::chrono::steady_clock;
double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

void put_u32(std::vector<uint8_t>& out, uint32_t v) {
  const uint8_t b[4] = {static_cast<uint8_t>(v >> 24), static_cast<uint8_t>(v >> 16), static_cast<uint8_t>(v >> 8),
                        static_cast<uint8_t>(v)};
  out.insert(out.end(), b, b + 4);
}

template <class Curve>
void put_point(std::vector<uint8_t>& out, const ec::affine<Curve>& p) {
  const auto e = ec::encode_uncompressed(p);
  out.insert(out.end(), e.begin(), e.end());
}

template <class Curve>
status put_vector(std::vector<uint8_t>& out, const std::vector<ec::affine<Curve>>& v, bool drop_infinity,
                  const char* name) {
  uint64_t n = 0;
  for (const auto& p : v) {
    if (!ec::is_infinity(p)) {
      ++n;
    } else if (!drop_infinity) {
      return invalid_argument(std::string("cannot write bellperson params: ") + name +
                              " holds a point at infinity, which bellperson cannot read");
    }
  }
  if (n > UINT32_MAX) return invalid_argument(std::string("cannot write bellperson params: ") + name + " has more than 2^32 - 1 points");
  put_u32(out, static_cast<uint32_t>(n));
  for (const auto& p : v) {
    if (!ec::is_infinity(p)) put_point(out, p);
  }
  return ok_status();
}

}  // namespace

result<groth16::proving_key> read_bellperson_params(std::span<const uint8_t> bytes,
                                                    const bellperson_read_options& options) {
  const auto t0 = clock_type::now();
  be_cursor c(bytes);
  groth16::proving_key pk;
  groth16::verifying_key& vk = pk.vk;
  const bool chk = options.checked;
  PP_ASSIGN_OR_RETURN(vk.alpha_g1, read_point<ec::g1_curve>(c, chk, false, "vk.alpha_g1"));
  PP_ASSIGN_OR_RETURN(vk.beta_g1, read_point<ec::g1_curve>(c, chk, false, "vk.beta_g1"));
  PP_ASSIGN_OR_RETURN(vk.beta_g2, read_point<ec::g2_curve>(c, chk, false, "vk.beta_g2"));
  PP_ASSIGN_OR_RETURN(vk.gamma_g2, read_point<ec::g2_curve>(c, chk, false, "vk.gamma_g2"));
  PP_ASSIGN_OR_RETURN(vk.delta_g1, read_point<ec::g1_curve>(c, chk, false, "vk.delta_g1"));
  PP_ASSIGN_OR_RETURN(vk.delta_g2, read_point<ec::g2_curve>(c, chk, false, "vk.delta_g2"));
  // The layout first (counts against the bytes left, before anything is allocated), then every
  // vector sized and decoded at once; errors are then taken in file order, so the one reported is
  // the one a front-to-back read meets first (a vector's bad point before a later count's truncation).
  point_vector<ec::g1_curve> g1s[] = {{"vk.ic", false, &vk.ic}, {"h", true, &pk.h}, {"l", true, &pk.l},
                                      {"a", true, &pk.a}, {"b_g1", true, &pk.b_g1}};
  point_vector<ec::g2_curve> g2{"b_g2", true, &pk.b_g2};
  constexpr int n_g1 = 5;
  int laid_out = 0;  // vectors whose bytes are all there (g1s in order, then g2)
  status layout = ok_status();
  while (laid_out < n_g1 + 1) {
    layout = laid_out < n_g1 ? g1s[laid_out].take(c) : g2.take(c);
    if (!layout.ok()) break;
    ++laid_out;
  }
  const auto t1 = clock_type::now();
  tbb::parallel_for(0, laid_out, [&](int v) {
    if (v < n_g1) {
      resize_first_touched(*g1s[v].out, g1s[v].count());
    } else {
      resize_first_touched(*g2.out, g2.count());
    }
  });
  const auto t2 = clock_type::now();
  uint64_t points = 0;
  tbb::parallel_for(0, laid_out, [&](int v) {
    const uint64_t n = v < n_g1 ? g1s[v].count() : g2.count();
    tbb::parallel_for(tbb::blocked_range<uint64_t>(0, n, decode_grain), [&](const tbb::blocked_range<uint64_t>& r) {
      if (v < n_g1) {
        g1s[v].decode(r.begin(), r.end(), chk);
      } else {
        g2.decode(r.begin(), r.end(), chk);
      }
    });
  });
  for (int v = 0; v < laid_out; ++v) points += v < n_g1 ? g1s[v].count() : g2.count();
  if (options.stats != nullptr) {
    *options.stats = {std::chrono::duration<double>(t1 - t0).count(), std::chrono::duration<double>(t2 - t1).count(),
                      seconds_since(t2), points};
  }
  for (int v = 0; v < laid_out; ++v) {
    PP_RETURN_IF_ERROR(v < n_g1 ? g1s[v].error(chk) : g2.error(chk));
    if (v == 0 && vk.ic.empty()) {
      return invalid_argument("bellperson params: vk.ic is empty (it needs one point for the constant 1)");
    }
  }
  PP_RETURN_IF_ERROR(layout);
  if (c.remaining() != 0) {
    return data_loss("bellperson params: " + std::to_string(c.remaining()) + " trailing bytes at offset " +
                     std::to_string(c.offset()));
  }
  const uint64_t n_vars = vk.ic.size() + pk.l.size();
  const uint64_t domain = pk.h.size() + 1;
  if (n_vars > UINT32_MAX) return invalid_argument("bellperson params: |ic| + |l| = " + std::to_string(n_vars) + " variables exceeds 2^32 - 1");
  if (!std::has_single_bit(domain) || domain > (uint64_t{1} << 31)) {
    return invalid_argument("bellperson params: h has " + std::to_string(pk.h.size()) +
                            " points; bellperson's H query has domain size - 1, a power of two minus one");
  }
  if (pk.a.size() > n_vars || pk.b_g1.size() > n_vars) {
    return invalid_argument("bellperson params: a has " + std::to_string(pk.a.size()) + " and b_g1 " +
                            std::to_string(pk.b_g1.size()) + " points, more than the " + std::to_string(n_vars) +
                            " variables (|ic| + |l|)");
  }
  if (pk.b_g1.size() != pk.b_g2.size()) {
    return invalid_argument("bellperson params: b_g1 has " + std::to_string(pk.b_g1.size()) + " points but b_g2 has " +
                            std::to_string(pk.b_g2.size()) + " (both are the non-zero B columns)");
  }
  pk.basis = groth16::h_basis::monomial;
  pk.n_vars = static_cast<uint32_t>(n_vars);
  pk.domain_size = static_cast<uint32_t>(domain);
  pk.a_density = groth16::density_bitmap::all_clear(n_vars);
  pk.b_density = groth16::density_bitmap::all_clear(n_vars);
  return pk;
}

result<groth16::proving_key> read_bellperson_params_file(const std::filesystem::path& path,
                                                         const bellperson_read_options& options) {
  return read_mapped(path, [&](std::span<const uint8_t> bytes) -> result<groth16::proving_key> {
    auto pk = read_bellperson_params(bytes, options);
    if (!pk.ok()) return std::move(pk).take_status().with_context("reading " + path.string());
    return pk;
  });
}

result<std::vector<uint8_t>> write_bellperson_params(const groth16::proving_key& pk) {
  if (pk.basis != groth16::h_basis::monomial) {
    return invalid_argument("cannot write bellperson params: the key's H query is in the snarkjs "
                            "odd-coset Lagrange basis, bellperson needs the monomial basis");
  }
  std::vector<uint8_t> out;
  out.reserve(4 * 96 + 2 * 192 + 24 +
              (pk.vk.ic.size() + pk.h.size() + pk.l.size() + pk.a.size() + pk.b_g1.size()) * 96 + pk.b_g2.size() * 192);
  const groth16::verifying_key& vk = pk.vk;
  put_point(out, vk.alpha_g1);
  put_point(out, vk.beta_g1);
  put_point(out, vk.beta_g2);
  put_point(out, vk.gamma_g2);
  put_point(out, vk.delta_g1);
  put_point(out, vk.delta_g2);
  if (vk.ic.size() > UINT32_MAX) return invalid_argument("cannot write bellperson params: ic has more than 2^32 - 1 points");
  put_u32(out, static_cast<uint32_t>(vk.ic.size()));
  for (const auto& p : vk.ic) put_point(out, p);
  PP_RETURN_IF_ERROR(put_vector(out, pk.h, false, "h"));
  PP_RETURN_IF_ERROR(put_vector(out, pk.l, false, "l"));
  PP_RETURN_IF_ERROR(put_vector(out, pk.a, true, "a"));
  PP_RETURN_IF_ERROR(put_vector(out, pk.b_g1, true, "b_g1"));
  PP_RETURN_IF_ERROR(put_vector(out, pk.b_g2, true, "b_g2"));
  return out;
}

status write_bellperson_params_file(const groth16::proving_key& pk, const std::filesystem::path& path) {
  PP_ASSIGN_OR_RETURN(const std::vector<uint8_t> bytes, write_bellperson_params(pk));
  return write_output_file(path, bytes);
}

}  // namespace pp::formats
