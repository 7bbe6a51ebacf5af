// witness_file: open(2) with O_NONBLOCK, fstat(2) on the descriptor, pread(2) in bounded chunks.
// Read into memory rather than mapped: a file truncated while mapped would kill the daemon with
// SIGBUS, one truncated while read is a data_loss error.
#include "engine/witness_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <span>
#include <string>
#include <utility>

#include "core/file_type.hpp"
#include "engine/curves.hpp"
#include "formats/circom_wtns.hpp"

namespace pp::engine {
namespace {

// One chunk between two looks at the stop flag: ~10 ms of page-cache reads.
constexpr uint64_t chunk_bytes = uint64_t{16} << 20;

}  // namespace

uint64_t max_wtns_file_bytes(uint64_t num_values) {
  // magic, version, section count (12) | section 1: header (12), n8 (4), prime (32), nWitness (4) |
  // section 2: header (12), values.
  constexpr uint64_t header = 12 + 12 + 4 + 32 + 4 + 12;
  constexpr uint64_t extra_sections = uint64_t{64} << 10;
  return header + 32 * num_values + extra_sections;
}

result<witness_file> witness_file::open(const std::filesystem::path& path, uint64_t max_bytes) {
  if (status s = refuse_embedded_nul(path); !s.ok()) return s.with_context("witness file");
  const std::string name = "witness file " + path.string();
  // O_NONBLOCK: opening a FIFO with no writer (or a device) returns at once instead of waiting.
  // Symlinks are followed (witness directories are often links); fstat below sees the target.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    const int e = errno;
    if (e == ENOENT || e == ENOTDIR) return not_found(name + " does not exist");
    if (e == EACCES || e == EPERM) return permission_denied(name + ": the daemon may not read it");
    return invalid_argument(name + ": cannot open: " + std::strerror(e));
  }
  witness_file f(fd, 0, path);
  struct stat st {};
  if (::fstat(fd, &st) != 0) return invalid_argument(name + ": fstat: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) {
    return invalid_argument(name + " " + file_type_words(st.st_mode) + ", not a regular file");
  }
  const auto size = static_cast<uint64_t>(st.st_size);
  if (size > max_bytes) {
    return invalid_argument(name + " is larger than a .wtns for this key can be (" + std::to_string(max_bytes) +
                            " bytes at most)");
  }
  f.size_ = size;
  return f;
}

witness_file::witness_file(witness_file&& o) noexcept
    : fd_(std::exchange(o.fd_, -1)), size_(o.size_), path_(std::move(o.path_)) {}

witness_file& witness_file::operator=(witness_file&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(o.fd_, -1);
    size_ = o.size_;
    path_ = std::move(o.path_);
  }
  return *this;
}

witness_file::~witness_file() {
  if (fd_ >= 0) ::close(fd_);
}

result<std::vector<uint8_t>> witness_file::read_bytes(const std::function<bool()>& stop) const {
  const std::string name = "witness file " + path_.string();
  std::vector<uint8_t> bytes(size_);
  uint64_t done = 0;
  while (done < size_) {
    if (stop && stop()) return cancelled("reading " + name + ": the job was cancelled");
    const uint64_t want = std::min(chunk_bytes, size_ - done);
    const ssize_t n = ::pread(fd_, bytes.data() + done, want, static_cast<off_t>(done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return data_loss("reading " + name + ": " + std::strerror(errno));
    }
    if (n == 0) {
      return data_loss(name + " shrank while being read: " + std::to_string(done) + " of " + std::to_string(size_) +
                       " bytes");
    }
    done += static_cast<uint64_t>(n);
  }
  return bytes;
}

template <class Fr>
result<std::vector<Fr>> witness_file::read(const std::function<bool()>& stop) const {
  auto bytes = read_bytes(stop);
  if (!bytes.ok()) return std::move(bytes).take_status();
  const std::span<const uint8_t> b(bytes.value_unchecked());
  constexpr ec::curve_id curve = ec::curve_id_of<ec::family_of_fr<Fr>>;
  // A header the curve read cannot place is left to the full read, whose message is the same.
  if (auto c = formats::read_circom_wtns_curve(b); c.ok() && *c != curve) {
    return invalid_argument("reading " + path_.string() + ": this .wtns is for " + ec::curve_text(*c) + ", the key is for " +
                            ec::curve_text(curve) + ": compute the witness with the key's circuit");
  }
  auto w = formats::read_circom_wtns<Fr>(b);
  if (!w.ok()) return w.error().with_context("reading " + path_.string());
  return w;
}
template result<std::vector<ff::fr>> witness_file::read(const std::function<bool()>&) const;
template result<std::vector<ff::bn254::fr>> witness_file::read(const std::function<bool()>&) const;

}  // namespace pp::engine
