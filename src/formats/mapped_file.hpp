// A read-only memory map of a whole file, so multi-GiB .r1cs/.wtns files are parsed in place
// through the same span API the fuzzers use, without a second copy in memory. The file may change
// while it is read (a key replaced by `cp` while it loads): the mapping is guarded
// (mapping_guard.hpp), so a read past a new end sees zeros instead of killing the process, and
// read_mapped turns any change into data_loss.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <ctime>
#include <filesystem>
#include <optional>
#include <span>
#include <string>

#include "core/result.hpp"
#include "formats/mapping_guard.hpp"

namespace pp::formats {

class mapped_file {
 public:
  // not_found, permission_denied or unavailable (with the OS reason) naming the path;
  // invalid_argument naming what the path is when it is not a regular file ("is a directory",
  // "is a FIFO"). Never blocks: a FIFO is opened non-blocking and refused by its type.
  static result<mapped_file> open(const std::filesystem::path& path);

  mapped_file() = default;
  mapped_file(mapped_file&& o) noexcept;
  mapped_file& operator=(mapped_file&& o) noexcept;
  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;
  ~mapped_file();

  std::span<const uint8_t> bytes() const { return {data_, size_}; }

  // data_loss naming the path when the file changed since open(): a read ran past a new end (and
  // saw zeros), or its size or modification time differ now. Ask after the bytes were read.
  [[nodiscard]] status unchanged() const;

 private:
  void release();

  const uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  int fd_ = -1;  // kept open to ask the file's size and time again in unchanged()
  timespec mtime_{};
  std::filesystem::path path_;
  std::optional<mapping_guard> guard_;  // empty for an empty file (nothing mapped)
};

// The one way a file is parsed in place: parse(bytes) over its mapping, then data_loss instead of
// parse's outcome when the file changed while it was read. Keys, circuits, witnesses and JSON
// files are all read through this.
template <class Parse>
auto read_mapped(const std::filesystem::path& path, Parse&& parse) -> decltype(parse(std::span<const uint8_t>{})) {
  auto f = mapped_file::open(path);
  if (!f.ok()) return std::move(f).take_status();
  auto out = parse(f.value_unchecked().bytes());
  if (status s = f.value_unchecked().unchanged(); !s.ok()) return s;
  return out;
}

// Maps the file pages under `bytes` (part of a mapped_file) in one call before they are read
// through: one fault per 4 KiB page costs more than reading it where faults are expensive (a
// paravirtualized host: reading a 45 MB zkey 40-46 -> 30-37 ms, docs/perf/cpu-prove-vs-snarkjs.md,
// "The key's pages populated in one call").
// Advice only (MADV_POPULATE_READ, Linux 5.14): without it the reads fault as before.
void populate_for_read(std::span<const uint8_t> bytes);

}  // namespace pp::formats
