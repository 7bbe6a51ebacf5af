// Prime identification for circom headers: circom's -p choices, matched by value; the two that
// proofpipe proves over map to their curve.
#include "formats/circom_field.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pp::formats {

namespace {

struct known_prime {
  const char* name;
  const char* hex;  // big-endian, no prefix
  std::optional<ec::curve_id> curve;
};

// The primes circom -p can produce (docs: "circom --help", option -p).
const known_prime known_primes[] = {
    {"BLS12-381", "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", ec::curve_id::bls12_381},
    {"BN254", "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001", ec::curve_id::bn254},
    {"Grumpkin", "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47", std::nullopt},
    {"Goldilocks", "ffffffff00000001", std::nullopt},
    {"Pallas", "40000000000000000000000000000000224698fc094cf91b992d30ed00000001", std::nullopt},
    {"Vesta", "40000000000000000000000000000000224698fc0994a8dd8c46eb2100000001", std::nullopt},
};

// Little-endian bytes without high zero bytes.
std::vector<uint8_t> trim(const uint8_t* p, std::size_t n) {
  while (n > 0 && p[n - 1] == 0) --n;
  return {p, p + n};
}

std::vector<uint8_t> from_hex(const char* hex) {
  std::string h(hex);
  std::vector<uint8_t> le;
  for (std::size_t i = h.size(); i > 0; i -= 2) {
    le.push_back(static_cast<uint8_t>(std::stoul(h.substr(i - 2, 2), nullptr, 16)));
  }
  return trim(le.data(), le.size());
}

// Decimal of a little-endian integer by repeated division by 10 (small inputs only).
std::string to_decimal(std::vector<uint8_t> le) {
  std::string digits;
  while (!le.empty()) {
    unsigned rem = 0;
    for (std::size_t i = le.size(); i > 0; --i) {
      const unsigned cur = (rem << 8) | le[i - 1];
      le[i - 1] = static_cast<uint8_t>(cur / 10);
      rem = cur % 10;
    }
    digits += static_cast<char>('0' + rem);
    le = trim(le.data(), le.size());
  }
  if (digits.empty()) digits = "0";
  return {digits.rbegin(), digits.rend()};
}

// circom's -p value(s) that fix the input: the expected curve's, or both.
std::string fix_text(std::string_view fix_prefix, std::optional<ec::curve_id> expected) {
  std::string f(fix_prefix);
  if (expected) return f + std::string(ec::snarkjs_curve_name(*expected));
  return f + "bls12381 or -p bn128";
}

result<ec::curve_id> read_curve(byte_reader& rd, std::string_view kind, std::string_view fix_prefix,
                                std::optional<ec::curve_id> expected) {
  auto n8 = rd.u32("field size n8");
  if (!n8.ok()) return std::move(n8).take_status();
  if (*n8 == 0 || *n8 % 8 != 0) {
    return invalid_argument("field size n8 at offset " + std::to_string(rd.offset() - 4) + " is " +
                            std::to_string(*n8) + ", expected a positive multiple of 8 (32 for BLS12-381 and BN254)");
  }
  const uint64_t prime_at = rd.offset();
  if (status s = rd.require(*n8, "prime"); !s.ok()) return s;
  const std::vector<uint8_t> prime = trim(rd.bytes_unchecked(*n8), *n8);
  const known_prime* known = nullptr;
  for (const known_prime& k : known_primes) {
    if (from_hex(k.hex) == prime) known = &k;
  }
  const std::string value = prime.size() <= 64 ? "prime " + to_decimal(prime)
                                                : "a " + std::to_string(prime.size()) + "-byte prime";
  if (known != nullptr && known->curve) {
    if (*n8 != 32) {
      return invalid_argument("field size n8 is " + std::to_string(*n8) + ", expected 32 for " + known->name);
    }
    if (expected && *known->curve != *expected) {
      return invalid_argument("this " + std::string(kind) + " is for " + known->name + " (" + value + "), expected " +
                              ec::curve_name(*expected) + "; " + fix_text(fix_prefix, expected));
    }
    return *known->curve;
  }
  if (known != nullptr) {
    return invalid_argument("this " + std::string(kind) + " is for " + known->name + " (" + value +
                            "), proofpipe proves over BLS12-381 and BN254; " + fix_text(fix_prefix, expected));
  }
  return invalid_argument("this " + std::string(kind) + " has an unknown field (" + value + ", n8 " +
                          std::to_string(*n8) + ", at offset " + std::to_string(prime_at) +
                          "), proofpipe proves over BLS12-381 and BN254; " + fix_text(fix_prefix, expected));
}

}  // namespace

result<ec::curve_id> read_circom_curve(byte_reader& rd, std::string_view kind, std::string_view fix_prefix) {
  return read_curve(rd, kind, fix_prefix, std::nullopt);
}

status read_circom_field(byte_reader& rd, ec::curve_id expected, std::string_view kind, std::string_view fix_prefix) {
  auto c = read_curve(rd, kind, fix_prefix, expected);
  return c.ok() ? ok_status() : std::move(c).take_status();
}

}  // namespace pp::formats
