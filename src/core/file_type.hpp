// file_type: what a path or an st_mode is, in the words an error message needs ("is a FIFO"), for
// the readers that refuse anything but a regular file and the writers that look before they write.
#pragma once
#include <sys/types.h>

#include <filesystem>
#include <string>

#include "core/status.hpp"

namespace pp {

// What a file of this st_mode is when it is not a regular file: "is a directory", "is a FIFO", "is a
// socket", "is a character device", "is a block device", "is a symbolic link", "is of an unsupported
// file type"; empty for a regular file. For messages ("<path> is a FIFO, not a regular file").
[[nodiscard]] std::string file_type_words(mode_t mode);

// invalid_argument when the path holds a NUL byte: every system call would see only the part before
// it, another file than the one named. Every open of a path a client or a file names checks this.
[[nodiscard]] status refuse_embedded_nul(const std::filesystem::path& path);

// What a path is when it is not a regular file: file_type_words of its mode (symlinks followed);
// "does not exist"; the OS reason when stat fails otherwise; empty for a regular file. For messages.
[[nodiscard]] std::string describe_if_not_regular(const std::filesystem::path& path);

}  // namespace pp
