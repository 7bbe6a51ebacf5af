// The iden3 binary container shared by .r1cs, .wtns, .zkey and .ptau: magic, u32 version,
// u32 nSections, then {u32 id, u64 size, bytes} sections in any order (all little-endian).
// Readers scan the table once and then read sections through bounds-checked byte_readers.
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "core/status.hpp"

namespace pp::formats {

static_assert(std::endian::native == std::endian::little, "binary formats are read with memcpy on little-endian hosts");

struct section_entry {
  uint32_t id = 0;
  uint64_t offset = 0;  // of the first content byte, from the start of the file
  uint64_t size = 0;
};

struct binfile_sections {
  uint32_t version = 0;
  std::vector<section_entry> sections;  // file order

  // The single section with this id, or nullptr when absent; data_loss when it appears twice.
  result<const section_entry*> find(uint32_t id, std::string_view name) const;
};

// Checks the magic (4 ASCII bytes, invalid_argument when it differs), that the version is one of
// `versions` (invalid_argument) and that every section lies inside the file (data_loss otherwise).
// `kind` names the file in messages (".r1cs").
result<binfile_sections> read_binfile_sections(std::span<const uint8_t> file, std::string_view magic,
                                               std::span<const uint32_t> versions, std::string_view kind);

// Bounds-checked little-endian reads inside [begin, end) of a file; offsets in messages are file
// offsets. Hot loops check remaining() once per record and then use the unchecked reads.
class byte_reader {
 public:
  byte_reader(std::span<const uint8_t> file, const section_entry& s, std::string_view section_name)
      : file_(file), pos_(s.offset), end_(s.offset + s.size), name_(section_name) {}

  uint64_t offset() const { return pos_; }
  uint64_t end() const { return end_; }
  uint64_t remaining() const { return end_ - pos_; }

  // data_loss: "truncated at offset X: <what> needs N bytes but <section> ends at offset Y".
  status truncated(uint64_t need, std::string_view what) const;
  status require(uint64_t need, std::string_view what) const {
    return remaining() >= need ? ok_status() : truncated(need, what);
  }

  uint32_t u32_unchecked() {
    uint32_t v;
    std::memcpy(&v, file_.data() + pos_, 4);
    pos_ += 4;
    return v;
  }
  uint64_t u64_unchecked() {
    uint64_t v;
    std::memcpy(&v, file_.data() + pos_, 8);
    pos_ += 8;
    return v;
  }
  const uint8_t* bytes_unchecked(uint64_t n) {
    const uint8_t* p = file_.data() + pos_;
    pos_ += n;
    return p;
  }
  result<uint32_t> u32(std::string_view what) {
    if (remaining() < 4) return truncated(4, what);
    return u32_unchecked();
  }
  result<uint64_t> u64(std::string_view what) {
    if (remaining() < 8) return truncated(8, what);
    return u64_unchecked();
  }

  // data_loss when bytes are left over: "<section> has N trailing bytes at offset X".
  status expect_end() const;

 private:
  std::span<const uint8_t> file_;
  uint64_t pos_;
  uint64_t end_;
  std::string name_;
};

// Builds a container; sections are appended whole with their sizes patched in at the end.
class binfile_writer {
 public:
  binfile_writer(std::string_view magic, uint32_t version, uint32_t n_sections);

  void begin_section(uint32_t id);
  void end_section();
  void u32(uint32_t v) { append(&v, 4); }
  void u64(uint64_t v) { append(&v, 8); }
  void bytes(const void* p, std::size_t n) { append(p, n); }
  void reserve(std::size_t n) { out_.reserve(n); }

  std::vector<uint8_t> finish() && { return std::move(out_); }

 private:
  void append(const void* p, std::size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    out_.insert(out_.end(), b, b + n);
  }
  std::vector<uint8_t> out_;
  std::size_t size_at_ = 0;  // where the open section's u64 size goes
};

}  // namespace pp::formats
