// mapping_guard: a file changed underneath a mapped_file must not kill the process. Reading a page
// of a mapping past the end of a file truncated meanwhile (a `cp new.zkey old.zkey` while a key
// loads) raises SIGBUS, on whichever thread touches it. One SIGBUS handler, installed with the first
// guard, puts zero pages over a guarded range from its faulting page on and marks the range
// damaged: the read goes on (it sees zeros) and the reader turns the mark into data_loss
// (mapped_file.hpp, read_mapped). A SIGBUS anywhere else goes to the handler that was there before,
// or ends the process as it would have without this one.
#pragma once
#include <cstddef>

#include "core/result.hpp"

namespace pp::formats {

class mapping_guard {
 public:
  // Guards [begin, begin + size); resource_exhausted when max_guarded mappings are guarded already.
  [[nodiscard]] static result<mapping_guard> guard(const void* begin, std::size_t size);

  mapping_guard(mapping_guard&& o) noexcept : slot_(o.slot_) { o.slot_ = -1; }
  mapping_guard& operator=(mapping_guard&& o) noexcept;
  mapping_guard(const mapping_guard&) = delete;
  mapping_guard& operator=(const mapping_guard&) = delete;
  ~mapping_guard();  // unguards: call it before the range is unmapped

  // True once a read in the range faulted (and saw zeros instead of the file).
  [[nodiscard]] bool damaged() const;

  // Mappings read at once, across the process (keys, circuits and witnesses being parsed).
  static constexpr int max_guarded = 256;

 private:
  explicit mapping_guard(int slot) : slot_(slot) {}
  int slot_ = -1;
};

}  // namespace pp::formats
