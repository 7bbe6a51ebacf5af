// A read-only memory map of a whole file, so multi-GiB .r1cs/.wtns files are parsed in place
// through the same span API the fuzzers use, without a second copy in memory.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

#include "core/result.hpp"

namespace pp::formats {

class mapped_file {
 public:
  // not_found, permission_denied or unavailable (with the OS reason) naming the path;
  // invalid_argument naming what the path is when it is not a regular file ("is a directory",
  // "is a FIFO"). Never blocks: a FIFO is opened non-blocking and refused by its type.
  static result<mapped_file> open(const std::filesystem::path& path);

  mapped_file() = default;
  mapped_file(mapped_file&& o) noexcept : data_(o.data_), size_(o.size_) { o.data_ = nullptr, o.size_ = 0; }
  mapped_file& operator=(mapped_file&& o) noexcept;
  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;
  ~mapped_file();

  std::span<const uint8_t> bytes() const { return {data_, size_}; }

 private:
  const uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

// Maps the file pages under `bytes` (part of a mapped_file) in one call before they are read
// through: one fault per 4 KiB page costs more than reading it where faults are expensive (a
// paravirtualized host: reading a 45 MB zkey 40-46 -> 30-37 ms, docs/perf/cpu-prove-vs-snarkjs.md,
// "The key's pages populated in one call").
// Advice only (MADV_POPULATE_READ, Linux 5.14): without it the reads fault as before.
void populate_for_read(std::span<const uint8_t> bytes);

// What a file of this st_mode is when it is not a regular file: "is a directory", "is a FIFO", "is a
// socket", "is a character device", "is a block device", "is of an unsupported file type"; empty for
// a regular file. For messages ("<path> is a FIFO, not a regular file").
std::string file_type_words(mode_t mode);

// What a path is when it is not a regular file: file_type_words of its mode (symlinks followed);
// "does not exist"; the OS reason when stat fails otherwise; empty for a regular file. For messages.
std::string describe_if_not_regular(const std::filesystem::path& path);

// Writes bytes to path through a temporary file and a rename, so readers never see half a file.
status write_file_atomically(const std::filesystem::path& path, std::span<const uint8_t> bytes);

}  // namespace pp::formats
