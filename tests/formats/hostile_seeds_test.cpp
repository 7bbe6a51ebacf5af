// The fuzzers' seeds (fuzz/formats/corpus, written by fuzz/formats/make_seeds.py) in the unit
// suite: every hostile_* header (a size field beyond the file, a count its section cannot hold, a
// missing section) or bellperson parameters file (a lying count, bad points) is refused with a
// precise status, and the others read with the reader of the curve their header names (BLS12-381's
// seeds and the valid_bn254_* ones). A file that fails to parse is never echoed: a key path pointed
// at a password file gets no byte of it back.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ec/curve_id.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/circom_r1cs.hpp"
#include "formats/circom_wtns.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/snarkjs_zkey.hpp"
#include "support/files.hpp"
#include "support/status_matchers.hpp"

namespace pp::formats {
namespace {

using ::testing::Not;
namespace fs = std::filesystem;

fs::path corpus(const char* target) {
  return pp::test::source_dir() / "fuzz/formats/corpus" / target;
}

std::vector<uint8_t> bytes_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

template <class Read>
void check_corpus(const char* target, Read read) {
  size_t hostile = 0, valid = 0;
  for (const auto& e : fs::directory_iterator(corpus(target))) {
    const std::string name = e.path().filename().string();
    SCOPED_TRACE(name);
    const status s = read(bytes_of(e.path()));
    if (name.starts_with("hostile_")) {
      ++hostile;
      ASSERT_THAT(s, Not(IsOk()));
      EXPECT_TRUE(s.code() == status_code::data_loss || s.code() == status_code::invalid_argument ||
                  s.code() == status_code::resource_exhausted)
          << s.to_string();
      EXPECT_FALSE(s.message().empty());
    } else {
      ++valid;
      EXPECT_THAT(s, IsOk());
    }
  }
  EXPECT_GE(hostile, 3u);
  EXPECT_GE(valid + hostile, 4u);
}

// Reads b with the reader of the curve `curve_of` finds in it (its error when it finds none).
template <class CurveOf, class Read>
status read_as_its_curve(const std::vector<uint8_t>& b, CurveOf curve_of, Read read) {
  const result<ec::curve_id> c = curve_of(b);
  if (!c.ok()) return c.error();
  return ec::visit_curve(*c, [&]<class Family>() { return read.template operator()<Family>(b); });
}

TEST(HostileSeeds, R1csHeadersThatLieAreRefused) {
  check_corpus("circom_r1cs_fuzz", [](const std::vector<uint8_t>& b) {
    return read_as_its_curve(b, [](const auto& v) { return read_circom_r1cs_curve(v); },
                             []<class Family>(const std::vector<uint8_t>& v) {
                               return read_circom_r1cs<typename Family::fr>(v).take_status();
                             });
  });
}

TEST(HostileSeeds, WtnsHeadersThatLieAreRefused) {
  check_corpus("circom_wtns_fuzz", [](const std::vector<uint8_t>& b) {
    return read_as_its_curve(b, [](const auto& v) { return read_circom_wtns_curve(v); },
                             []<class Family>(const std::vector<uint8_t>& v) {
                               return read_circom_wtns<typename Family::fr>(v).take_status();
                             });
  });
}

// The zkey target's corpus also seeds its JSON readers (valid_bn254_vk.json, valid_bn254_proof.json).
TEST(HostileSeeds, ZkeyHeadersThatLieAreRefused) {
  check_corpus("zkey_fuzz", [](const std::vector<uint8_t>& b) -> status {
    const std::string_view text(reinterpret_cast<const char*>(b.data()), b.size());
    if (text.starts_with("{")) {
      const result<ec::curve_id> c = read_snarkjs_json_curve(text);
      if (!c.ok()) return c.error();
      return ec::visit_curve(*c, [&]<class Family>() {
        return text.find("\"pi_a\"") != std::string_view::npos ? read_snarkjs_proof_json<Family>(text).take_status()
                                                                  : read_snarkjs_vk_json<Family>(text).take_status();
      });
    }
    return read_as_its_curve(b, [](const auto& v) { return read_snarkjs_zkey_curve(v); },
                             []<class Family>(const std::vector<uint8_t>& v) {
                               return read_snarkjs_zkey<Family>(v).take_status();
                             });
  });
}

TEST(HostileSeeds, BellpersonParamsThatLieAreRefused) {
  check_corpus("bellperson_params_fuzz",
               [](const std::vector<uint8_t>& b) { return read_bellperson_params(b, {.checked = true}).take_status(); });
}

TEST(HostileSeeds, AHeaderClaimingFourBillionWiresWithoutAWireMapAllocatesNothingForThem) {
  // Nothing in the file backs the count, so the reader keeps it as a number: the wire map is
  // absent and the matrices hold the one constraint. (`proofpipe setup` refuses the key it implies.)
  const auto r = read_circom_r1cs(bytes_of(corpus("circom_r1cs_fuzz") / "wide_header_no_wire_map.r1cs"));
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->cs.num_variables(), 0xFFFFFFFFu);
  EXPECT_FALSE(r->wire_labels.has_value());
  EXPECT_EQ(r->cs.num_constraints(), 1u);
}

TEST(HostileSeeds, AFileThatFailsToParseIsNotEchoed) {
  const std::string secret = "root:$6$saltsalt$hash:19000:0:99999:7:::\n";
  const std::vector<uint8_t> b(secret.begin(), secret.end());
  const std::vector<status> errors = {
      read_circom_r1cs(b).take_status(), read_circom_wtns(b).take_status(), read_snarkjs_zkey(b).take_status(),
      read_snarkjs_vk_json(secret).take_status(), read_snarkjs_proof_json(secret).take_status(),
      read_snarkjs_public_json(secret).take_status(), read_bellperson_params(b).take_status()};
  for (const status& s : errors) {
    ASSERT_THAT(s, Not(IsOk()));
    EXPECT_EQ(s.message().find("root"), std::string::npos) << s.to_string();
    EXPECT_EQ(s.message().find("salt"), std::string::npos) << s.to_string();
  }
  // A file of another iden3 kind is named as such: that says nothing about its content.
  std::vector<uint8_t> wtns = bytes_of(corpus("circom_wtns_fuzz") / "valid_mul.wtns");
  EXPECT_EQ(read_circom_r1cs(wtns).error().message(), "not a .r1cs file: it does not start with 'r1cs' (it is a .wtns file)");
}

}  // namespace
}  // namespace pp::formats
