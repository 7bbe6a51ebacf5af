// key_catalog (src/engine/key_catalog.hpp): what each key source is charged before and after it is
// read, that files are checked to exist at once but read only by the loader, and that a key that
// does not fit its circuit is refused, in memory at once and from a file when it is loaded; a key's
// curve (a BN254 key from memory or from its zkey's header), and a zkey that became the other
// curve's after registration refused by its loader.
#include "engine/key_catalog.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "formats/key_circuit.hpp"
#include "formats/snarkjs_zkey.hpp"
#include "groth16/setup_insecure.hpp"
#include "groth16/test_circuits.hpp"
#include "r1cs/synthetic.hpp"
#include "support/files.hpp"
#include "support/status_matchers.hpp"
#include "tiny_circuit.hpp"

namespace pp::engine {
namespace {

namespace fs = std::filesystem;
using testing::tiny_circuit;
using testing::tiny_key;

bool mentions(const status& s, const std::string& what) { return s.message().find(what) != std::string::npos; }

fs::path scratch() { return pp::test::binary_temp_dir("engine_key_catalog"); }

// The tiny circuit's key as a snarkjs .zkey file.
fs::path tiny_zkey() {
  const fs::path path = scratch() / "tiny.zkey";
  if (!fs::exists(path)) {
    formats::snarkjs_zkey z;
    z.pk = *tiny_circuit().pk;
    z.coefficients = formats::zkey_coefficients(*tiny_circuit().cs);
    EXPECT_THAT(formats::write_snarkjs_zkey_file(z, path), IsOk());
  }
  return path;
}

// A random BN254 circuit's insecure key (fresh each run) and the circuit.
struct bn254_key {
  groth16::bn254::proving_key pk;
  r1cs::bn254::constraint_system cs;
};
bn254_key random_bn254_key() {
  using bn = ec::bn254::family;
  uint64_t state = pp::test::test_seed();
  auto tc = groth16::testing::random_circuit<bn::fr>(state, 12, 2);
  auto pk = groth16::setup_insecure<bn>(tc.cs, groth16::h_basis::odd_coset_lagrange,
                                        groth16::toxic_waste_from_seed_insecure<bn::fr>(state));
  EXPECT_THAT(pk, IsOk());
  return {pk.ok() ? std::move(pk).value() : groth16::bn254::proving_key{}, std::move(tc.cs)};
}

fs::path write_bn254_zkey(const bn254_key& k, const fs::path& path) {
  formats::bn254::snarkjs_zkey z;
  z.pk = k.pk;
  z.coefficients = formats::zkey_coefficients(k.cs);
  EXPECT_THAT(formats::write_snarkjs_zkey_file(z, path), IsOk());
  return path;
}

TEST(KeyCatalog, AnEmptyIdIsRefused) {
  EXPECT_THAT(describe_key("", tiny_key()), StatusIs(status_code::invalid_argument));
}

TEST(KeyCatalog, AMemoryKeyIsChargedItsBytesAndLoadsAsItIs) {
  auto d = describe_key("tiny", tiny_key());
  ASSERT_THAT(d, IsOk());
  EXPECT_EQ(d->curve, ec::curve_id::bls12_381);
  EXPECT_EQ(d->descriptor.id, "tiny");
  EXPECT_EQ(d->descriptor.bytes, key_bytes(*tiny_circuit().pk, *tiny_circuit().cs));
  ASSERT_TRUE(d->descriptor.load);
  auto h = d->descriptor.load();
  ASSERT_THAT(h, IsOk());
  const auto* k = static_cast<const loaded_key*>(h->get())->as<ec::bls12_381::family>();
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->pk, tiny_circuit().pk);  // the caller's objects, not copies
  EXPECT_EQ(k->cs, tiny_circuit().cs);
}

TEST(KeyCatalog, AMemoryKeyThatDoesNotFitItsCircuitIsRefusedAtOnce) {
  EXPECT_THAT(describe_key("null", memory_key_source{nullptr, tiny_circuit().cs}),
              StatusIs(status_code::invalid_argument));
  r1cs::synthetic_params p;
  p.num_constraints = 32;
  p.num_public = 1;
  p.num_aux = 40;
  auto other = r1cs::make_synthetic(p);
  ASSERT_THAT(other, IsOk());
  auto d = describe_key("mismatch", memory_key_source{tiny_circuit().pk,
                                                      std::make_shared<const r1cs::constraint_system>(other->cs)});
  ASSERT_THAT(d, StatusIs(status_code::invalid_argument));
  EXPECT_TRUE(mentions(d.error(), "register_key 'mismatch'")) << d.error().message();
}

TEST(KeyCatalog, MissingFilesAreNotFoundNamingThem) {
  const fs::path none = scratch() / "absent.zkey";
  auto z = describe_key("z", zkey_file_source{none});
  ASSERT_THAT(z, StatusIs(status_code::not_found));
  EXPECT_TRUE(mentions(z.error(), none.string())) << z.error().message();

  const fs::path zkey = tiny_zkey();  // a file that exists, standing in for either of the pair
  auto p = describe_key("b", bellperson_file_source{scratch() / "absent.params", zkey});
  ASSERT_THAT(p, StatusIs(status_code::not_found));
  EXPECT_TRUE(mentions(p.error(), "bellperson params")) << p.error().message();
  auto r = describe_key("b", bellperson_file_source{zkey, scratch() / "absent.r1cs"});
  ASSERT_THAT(r, StatusIs(status_code::not_found));
  EXPECT_TRUE(mentions(r.error(), "r1cs")) << r.error().message();
}

TEST(KeyCatalog, AZkeyIsChargedItsFileAndAQuarterUntilTheLoaderReadsIt) {
  const fs::path path = tiny_zkey();
  auto d = describe_key("tiny", zkey_file_source{path});
  ASSERT_THAT(d, IsOk());
  EXPECT_EQ(d->curve, ec::curve_id::bls12_381);
  EXPECT_EQ(d->descriptor.bytes, file_key_charge(fs::file_size(path)));
  auto h = d->descriptor.load();
  ASSERT_THAT(h, IsOk());
  const auto* k = static_cast<const loaded_key*>(h->get())->as<ec::bls12_381::family>();
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->pk->n_vars, tiny_circuit().pk->n_vars);
  EXPECT_EQ(k->cs->num_variables(), tiny_circuit().cs->num_variables());
}

TEST(KeyCatalog, AFileThatTurnsBadIsTheLoadersErrorNamingIt) {
  const fs::path path = scratch() / "truncated.zkey";
  fs::copy_file(tiny_zkey(), path, fs::copy_options::overwrite_existing);
  auto d = describe_key("t", zkey_file_source{path});
  ASSERT_THAT(d, IsOk());  // registered: files are read lazily
  fs::resize_file(path, fs::file_size(path) / 2);
  auto h = d->descriptor.load();
  ASSERT_FALSE(h.ok());
  EXPECT_TRUE(mentions(h.error(), path.string())) << h.error().message();
}

TEST(KeyCatalog, ABn254KeyIsDescribedAsBn254FromMemoryOrFromItsZkeysHeader) {
  const bn254_key k = random_bn254_key();
  auto m = describe_key("m", bn254::memory_key_source{std::make_shared<const groth16::bn254::proving_key>(k.pk),
                                                      std::make_shared<const r1cs::bn254::constraint_system>(k.cs)});
  ASSERT_THAT(m, IsOk());
  EXPECT_EQ(m->curve, ec::curve_id::bn254);
  EXPECT_EQ(m->descriptor.bytes, key_bytes(k.pk, k.cs));

  const fs::path path = write_bn254_zkey(k, scratch() / "bn.zkey");
  auto d = describe_key("z", zkey_file_source{path});
  ASSERT_THAT(d, IsOk());
  EXPECT_EQ(d->curve, ec::curve_id::bn254);
  auto h = d->descriptor.load();
  ASSERT_THAT(h, IsOk());
  const auto* loaded = static_cast<const loaded_key*>(h->get());
  EXPECT_EQ(loaded->curve(), ec::curve_id::bn254);
  EXPECT_EQ(loaded->as<ec::bls12_381::family>(), nullptr);
  ASSERT_NE(loaded->as<ec::bn254::family>(), nullptr);
  EXPECT_EQ(loaded->as<ec::bn254::family>()->pk->vk.alpha_g1, k.pk.vk.alpha_g1);
  EXPECT_EQ(loaded->num_variables(), k.cs.num_variables());
}

TEST(KeyCatalog, AZkeyThatBecameTheOtherCurvesIsRefusedByTheLoaderNamingBoth) {
  const fs::path path = scratch() / "swapped.zkey";
  fs::copy_file(tiny_zkey(), path, fs::copy_options::overwrite_existing);
  auto d = describe_key("s", zkey_file_source{path});
  ASSERT_THAT(d, IsOk());
  EXPECT_EQ(d->curve, ec::curve_id::bls12_381);
  write_bn254_zkey(random_bn254_key(), path);
  auto h = d->descriptor.load();
  ASSERT_THAT(h, StatusIs(status_code::invalid_argument));
  EXPECT_TRUE(mentions(h.error(), "BN254")) << h.error().message();
  EXPECT_TRUE(mentions(h.error(), "BLS12-381")) << h.error().message();
}

}  // namespace
}  // namespace pp::engine
