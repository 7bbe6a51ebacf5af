// bellperson parameters: a cursor over the span with big-endian counts, point vectors decoded with
// ec/encoding (checked or unchecked) in parallel, every count checked against the bytes left before
// allocating.
#include "formats/bellperson_params.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <bit>
#include <string>

#include "core/status_macros.hpp"
#include "ec/encoding.hpp"
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
// the ~0.1 ms of decoding (unchecked) a task does, small enough to spread 2^27 points over any core count.
constexpr uint64_t decode_grain = uint64_t{1} << 12;

// The vector's points are decoded in parallel (oneTBB) straight from the span: a 2^27 PoRep key holds
// ~6e8 of them, decoded one by one they took most of its load time. On bad input the error is the
// one a sequential read would give: the first bad point's, found as the least failing index (a task
// stops only past a failure already seen, so every point below the least one was decoded).
template <class Curve>
status read_vector(be_cursor& c, bool checked, bool reject_infinity, const char* name,
                   std::vector<ec::affine<Curve>>& out) {
  constexpr uint64_t size = ec::encoding_sizes<Curve>::uncompressed;
  PP_ASSIGN_OR_RETURN(const uint32_t n, c.u32(std::string(name) + " count"));
  PP_RETURN_IF_ERROR(c.require(uint64_t{n} * size, std::string(name) + " (" + std::to_string(n) + " points)"));
  const uint64_t base = c.offset();
  const std::span<const uint8_t> bytes = c.take(uint64_t{n} * size);
  out.resize(n);
  constexpr uint64_t none = ~uint64_t{0};
  std::atomic<uint64_t> first_bad{none};
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, n, decode_grain), [&](const tbb::blocked_range<uint64_t>& r) {
    for (uint64_t i = r.begin(); i < r.end(); ++i) {
      if (i > first_bad.load(std::memory_order_relaxed)) return;
      const auto in = bytes.subspan(i * size, size);
      auto p = checked ? ec::decode_uncompressed<Curve>(in) : ec::decode_uncompressed_unchecked<Curve>(in);
      if (!p.ok() || (reject_infinity && ec::is_infinity(*p))) {
        uint64_t seen = first_bad.load(std::memory_order_relaxed);
        while (i < seen && !first_bad.compare_exchange_weak(seen, i, std::memory_order_relaxed)) {
        }
        return;
      }
      out[i] = *p;
    }
  });
  const uint64_t bad = first_bad.load();
  if (bad == none) return ok_status();
  be_cursor at_bad(bytes.subspan(bad * size));  // the sequential read's message, with the file offset
  auto p = read_point<Curve>(at_bad, checked, reject_infinity, std::string(name) + "[" + std::to_string(bad) + "]",
                             base + bad * size);
  return p.ok() ? internal_error(std::string("bellperson params: ") + name + "[" + std::to_string(bad) +
                                 "] failed to decode once, then decoded")
                : p.error();
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
  PP_RETURN_IF_ERROR(read_vector(c, chk, false, "vk.ic", vk.ic));
  if (vk.ic.empty()) return invalid_argument("bellperson params: vk.ic is empty (it needs one point for the constant 1)");
  PP_RETURN_IF_ERROR(read_vector(c, chk, true, "h", pk.h));
  PP_RETURN_IF_ERROR(read_vector(c, chk, true, "l", pk.l));
  PP_RETURN_IF_ERROR(read_vector(c, chk, true, "a", pk.a));
  PP_RETURN_IF_ERROR(read_vector(c, chk, true, "b_g1", pk.b_g1));
  PP_RETURN_IF_ERROR(read_vector(c, chk, true, "b_g2", pk.b_g2));
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
  PP_ASSIGN_OR_RETURN(const mapped_file f, mapped_file::open(path));
  auto pk = read_bellperson_params(f.bytes(), options);
  if (!pk.ok()) return std::move(pk).take_status().with_context("reading " + path.string());
  return pk;
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
  return write_file_atomically(path, bytes);
}

}  // namespace pp::formats
