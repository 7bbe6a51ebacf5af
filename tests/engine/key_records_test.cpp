// key_records (src/engine/key_records.hpp): a partition's host bytes are the configured figure when
// there is one, else the largest any backend reports for the circuit's variables and domain; keys
// are recorded, re-recorded when loaded, and listed with the largest partition figure.
#include "engine/key_records.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fake_device.hpp"
#include "tiny_circuit.hpp"

namespace pp::engine {
namespace {

using testing::tiny_circuit;

// A backend that reports `per_variable` bytes per variable plus `per_domain` per domain element,
// and remembers what it was asked.
class sizing_backend final : public testing::stub_backend {
 public:
  sizing_backend(uint64_t per_variable, uint64_t per_domain) : per_variable_(per_variable), per_domain_(per_domain) {}
  [[nodiscard]] uint64_t host_bytes_per_partition(uint64_t variables, uint64_t domain) const override {
    asked_variables = variables;
    asked_domain = domain;
    return per_variable_ * variables + per_domain_ * domain;
  }
  mutable uint64_t asked_variables = 0, asked_domain = 0;

 private:
  uint64_t per_variable_, per_domain_;
};

TEST(KeyRecords, TheLargestBackendFigureSizesAPartition) {
  const sizing_backend cpu(256, 256), gpu(32, 0);
  const key_records records(0, {&gpu, &cpu});
  const auto& c = tiny_circuit();
  const auto r = records.measure(*c.pk, *c.cs);
  EXPECT_EQ(r.num_variables, c.cs->num_variables());
  EXPECT_EQ(r.partition_bytes, 256 * (c.cs->num_variables() + c.pk->domain_size));
  EXPECT_EQ(cpu.asked_variables, c.cs->num_variables());
  EXPECT_EQ(cpu.asked_domain, c.pk->domain_size);
}

TEST(KeyRecords, AConfiguredFigureWins) {
  const sizing_backend cpu(256, 256);
  const key_records records(12345, {&cpu});
  const auto r = records.measure(*tiny_circuit().pk, *tiny_circuit().cs);
  EXPECT_EQ(r.partition_bytes, 12345u);
  EXPECT_EQ(r.num_variables, tiny_circuit().cs->num_variables());
  EXPECT_EQ(cpu.asked_variables, 0u) << "the backend is not asked";
}

TEST(KeyRecords, KeysAreRecordedNotedAndListed) {
  const sizing_backend cpu(1, 0);
  key_records records(0, {&cpu});
  EXPECT_FALSE(records.find("a").has_value());
  EXPECT_EQ(records.largest_partition_bytes(), 0u);
  records.set("b", {});  // a file key: nothing known until it is loaded
  records.set("a", {.num_variables = 10, .partition_bytes = 700});
  EXPECT_EQ(records.ids(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(records.find("b")->num_variables, 0u);
  EXPECT_EQ(records.largest_partition_bytes(), 700u);
  const loaded_key k{memory_key_source{tiny_circuit().pk, tiny_circuit().cs}};
  const auto noted = records.note("b", k);
  EXPECT_EQ(noted.num_variables, tiny_circuit().cs->num_variables());
  EXPECT_EQ(records.find("b")->partition_bytes, tiny_circuit().cs->num_variables());
  EXPECT_EQ(records.largest_partition_bytes(), 700u);
}

}  // namespace
}  // namespace pp::engine
