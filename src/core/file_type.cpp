// file_type: stat(2) modes in words.
#include "core/file_type.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace pp {

std::string file_type_words(mode_t mode) {
  if (S_ISREG(mode)) return {};
  if (S_ISDIR(mode)) return "is a directory";
  if (S_ISFIFO(mode)) return "is a FIFO";
  if (S_ISSOCK(mode)) return "is a socket";
  if (S_ISCHR(mode)) return "is a character device";
  if (S_ISBLK(mode)) return "is a block device";
  if (S_ISLNK(mode)) return "is a symbolic link";
  return "is of an unsupported file type";
}

status refuse_embedded_nul(const std::filesystem::path& path) {
  const std::string& text = path.native();
  const size_t nul = text.find('\0');
  if (nul == std::string::npos) return ok_status();
  return invalid_argument("path \"" + text.substr(0, nul) + "\\0...\" holds a NUL byte; a path ends at the first one");
}

std::string describe_if_not_regular(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return errno == ENOENT ? "does not exist" : std::strerror(errno);
  return file_type_words(st.st_mode);
}

}  // namespace pp
