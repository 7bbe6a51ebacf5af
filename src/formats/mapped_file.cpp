// POSIX mmap of input files.
#include "formats/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

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
  if (status s = refuse_embedded_nul(path); !s.ok()) return s;
  mapped_file f;
  f.path_ = path;
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer; the type check below
  // refuses it. It changes nothing for a regular file or its mapping.
  f.fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (f.fd_ < 0) return os_error(path, "opening", errno);
  struct stat st {};
  if (::fstat(f.fd_, &st) != 0) return os_error(path, "reading", errno);
  if (!S_ISREG(st.st_mode)) {
    return invalid_argument("reading " + path.string() + ": " + pp::file_type_words(st.st_mode) + ", not a regular file");
  }
  f.mtime_ = st.st_mtim;
  if (st.st_size > 0) {
    const auto size = static_cast<std::size_t>(st.st_size);
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, f.fd_, 0);
    if (p == MAP_FAILED) return os_error(path, "mapping", errno);
    f.data_ = static_cast<const uint8_t*>(p);
    f.size_ = size;
    auto guard = mapping_guard::guard(p, size);
    if (!guard.ok()) return std::move(guard).take_status().with_context("reading " + path.string());
    f.guard_.emplace(std::move(guard).value_unchecked());
  }
  return f;
}

status mapped_file::unchanged() const {
  struct stat st {};
  const bool same = (!guard_ || !guard_->damaged()) && ::fstat(fd_, &st) == 0 &&
                    static_cast<std::size_t>(st.st_size) == size_ && st.st_mtim.tv_sec == mtime_.tv_sec &&
                    st.st_mtim.tv_nsec == mtime_.tv_nsec;
  if (same) return ok_status();
  return data_loss("reading " + path_.string() +
                   ": the file changed while it was read (truncated or rewritten); read it again once it is complete");
}

mapped_file::mapped_file(mapped_file&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)),
      size_(std::exchange(o.size_, 0)),
      fd_(std::exchange(o.fd_, -1)),
      mtime_(o.mtime_),
      path_(std::move(o.path_)),
      guard_(std::move(o.guard_)) {
  o.guard_.reset();
}

mapped_file& mapped_file::operator=(mapped_file&& o) noexcept {
  if (this != &o) {
    release();
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
    fd_ = std::exchange(o.fd_, -1);
    mtime_ = o.mtime_;
    path_ = std::move(o.path_);
    guard_ = std::move(o.guard_);
    o.guard_.reset();
  }
  return *this;
}

mapped_file::~mapped_file() { release(); }

void mapped_file::release() {
  guard_.reset();  // before the range is unmapped: the handler must not match an address reused later
  if (data_ != nullptr) ::munmap(const_cast<uint8_t*>(data_), size_);
  if (fd_ >= 0) ::close(fd_);
  data_ = nullptr;
  size_ = 0;
  fd_ = -1;
}

}  // namespace pp::formats
