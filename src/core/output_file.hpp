// output_file: the one way every output reaches its path (proofs, public signals, keys, verifying
// keys, traces, the cluster's witness files). The path is opened (O_PATH: symlinks are followed by
// the kernel's rules, nothing is created or truncated) and what it is is read from that descriptor
// before a byte is written:
//   - nothing there, or a regular file: the bytes go to a new temporary file beside it (O_EXCL, a
//     random name) and are renamed over it, so readers never see half a file; a replaced file keeps
//     its permission bits. Through a symbolic link, the link's target is replaced, the link stays.
//   - a character device or a FIFO (/dev/null, a terminal, a pipe a reader holds open): written
//     through the descriptor, never replaced; a FIFO with no reader is refused, not waited on.
//   - a directory, a block device, a socket, a symbolic link to nothing: refused, nothing written.
// Several outputs of one command are staged first and committed together, so when one of them is
// refused none is written.
#pragma once
#include <cstdint>
#include <filesystem>
#include <span>

#include "core/result.hpp"

namespace pp {

class staged_output {
 public:
  // Looks at `path` and prepares the write: a replacement is written to its temporary file now, a
  // write-through keeps the opened descriptor. invalid_argument for a kind of file outputs never go
  // to (naming it: "is a block device"); not_found, permission_denied or unavailable with the OS
  // reason when the path or its directory cannot be used. `bytes` must outlive commit().
  [[nodiscard]] static result<staged_output> stage(const std::filesystem::path& path, std::span<const uint8_t> bytes);

  staged_output(staged_output&& o) noexcept;
  staged_output& operator=(staged_output&& o) noexcept;
  staged_output(const staged_output&) = delete;
  staged_output& operator=(const staged_output&) = delete;
  ~staged_output();  // an uncommitted temporary file is removed

  // Renames the temporary file over the path (refused when the path has meanwhile become something
  // other than a regular file or nothing), or writes the bytes through. Once.
  [[nodiscard]] status commit();

 private:
  staged_output() = default;
  void discard();

  std::filesystem::path path_;    // as given, for messages
  std::filesystem::path target_;  // what a rename replaces: path_, or its symlink's target
  std::filesystem::path temp_;    // empty when written through, or once renamed
  int fd_ = -1;                   // the temporary file, or the device or FIFO written through
  std::span<const uint8_t> through_;  // the bytes a write-through writes at commit()
};

// stage() then commit().
[[nodiscard]] status write_output_file(const std::filesystem::path& path, std::span<const uint8_t> bytes);

struct output_bytes {
  std::filesystem::path path;
  std::span<const uint8_t> bytes;
};
// Every output staged before any is committed (a proof and its public signals, a key and its
// verifying key): when one is refused, none is written.
[[nodiscard]] status write_output_files(std::span<const output_bytes> outputs);

}  // namespace pp
