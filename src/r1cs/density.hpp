// Column density of A and B: which variables appear (with a non-zero coefficient) in any row.
// Groth16 needs proving-key points only for those (bellperson's density trackers); indices follow
// the witness layout, bit 0 is the constant 1, then public, then aux.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace pp::r1cs {

class bitmap {
 public:
  bitmap() = default;
  explicit bitmap(std::size_t size) : words_((size + 63) / 64, 0), size_(size) {}

  std::size_t size() const { return size_; }
  bool test(std::size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
  void set(std::size_t i) { words_[i / 64] |= uint64_t{1} << (i % 64); }
  // Number of set bits in [begin, end).
  std::size_t count(std::size_t begin, std::size_t end) const;
  std::size_t count() const { return count(0, size_); }
  const std::vector<uint64_t>& words() const { return words_; }
  std::vector<uint64_t>& words() { return words_; }

  friend bool operator==(const bitmap&, const bitmap&) = default;

 private:
  std::vector<uint64_t> words_;
  std::size_t size_ = 0;
};

struct column_density {
  bitmap a;  // num_variables bits
  bitmap b;  // num_variables bits
};

// Parallel over rows (oneTBB). Either curve's constraint system (density.cpp instantiates both).
template <class Fr>
column_density compute_density(const basic_constraint_system<Fr>& cs);

namespace reference {
// Serial, one entry at a time.
template <class Fr>
bitmap naive_density(const basic_constraint_system<Fr>& cs, matrix_id m);
}  // namespace reference

}  // namespace pp::r1cs
