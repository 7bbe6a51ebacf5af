// POSIX mmap of input files and atomic writes of output files.
#include "formats/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

namespace pp::formats {

namespace {

status os_error(const std::filesystem::path& path, const char* op, int err) {
  std::string m = std::string(op) + " " + path.string() + ": " + std::strerror(err);
  if (err == ENOENT) return not_found(std::move(m));
  if (err == EACCES || err == EPERM) return permission_denied(std::move(m));
  return unavailable(std::move(m));
}

}  // namespace

void populate_for_read(std::span<const uint8_t> bytes) {
#ifdef MADV_POPULATE_READ
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(bytes.data()) & ~(page - 1);
  const auto end = reinterpret_cast<std::uintptr_t>(bytes.data()) + bytes.size();
  if (!bytes.empty()) (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_READ);
#else
  (void)bytes;
#endif
}

std::string file_type_words(mode_t mode) {
  if (S_ISREG(mode)) return {};
  if (S_ISDIR(mode)) return "is a directory";
  if (S_ISFIFO(mode)) return "is a FIFO";
  if (S_ISSOCK(mode)) return "is a socket";
  if (S_ISCHR(mode)) return "is a character device";
  if (S_ISBLK(mode)) return "is a block device";
  return "is of an unsupported file type";
}

std::string describe_if_not_regular(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return errno == ENOENT ? "does not exist" : std::strerror(errno);
  return file_type_words(st.st_mode);
}

result<mapped_file> mapped_file::open(const std::filesystem::path& path) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer; the type check below
  // refuses it. It changes nothing for a regular file or its mapping.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return os_error(path, "opening", errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return os_error(path, "reading", err);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return invalid_argument("reading " + path.string() + ": " + file_type_words(st.st_mode) + ", not a regular file");
  }
  mapped_file f;
  if (st.st_size > 0) {
    void* p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      const int err = errno;
      ::close(fd);
      return os_error(path, "mapping", err);
    }
    f.data_ = static_cast<const uint8_t*>(p);
    f.size_ = static_cast<std::size_t>(st.st_size);
  }
  ::close(fd);  // the mapping stays valid
  return f;
}

mapped_file& mapped_file::operator=(mapped_file&& o) noexcept {
  if (this != &o) {
    if (data_ != nullptr) ::munmap(const_cast<uint8_t*>(data_), size_);
    data_ = o.data_;
    size_ = o.size_;
    o.data_ = nullptr;
    o.size_ = 0;
  }
  return *this;
}

mapped_file::~mapped_file() {
  if (data_ != nullptr) ::munmap(const_cast<uint8_t*>(data_), size_);
}

status write_file_atomically(const std::filesystem::path& path, std::span<const uint8_t> bytes) {
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) return os_error(tmp, "creating", errno);
  const bool wrote = bytes.empty() || std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  const int write_err = errno;
  if (std::fclose(f) != 0 || !wrote) {
    std::remove(tmp.c_str());
    return os_error(tmp, "writing", wrote ? errno : write_err);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    return os_error(path, "renaming onto", err);
  }
  return ok_status();
}

}  // namespace pp::formats
