// POSIX mmap of input files.
#include "formats/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "core/file_type.hpp"

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
    return invalid_argument("reading " + path.string() + ": " + pp::file_type_words(st.st_mode) + ", not a regular file");
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

}  // namespace pp::formats
