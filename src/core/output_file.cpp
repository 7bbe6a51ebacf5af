// output_file: open(O_PATH) + fstat to see what the path is, then either a temporary file renamed
// over it or a write through a descriptor reopened and checked to be the same file.
#include "core/output_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/file_type.hpp"
#include "core/status_macros.hpp"

namespace pp {
namespace {

namespace fs = std::filesystem;

status os_error(const std::string& what, const fs::path& path, int err) {
  std::string m = what + " " + path.string() + ": " + std::strerror(err);
  if (err == ENOENT || err == ENOTDIR) return not_found(std::move(m));
  if (err == EACCES || err == EPERM || err == EROFS) return permission_denied(std::move(m));
  return unavailable(std::move(m));
}

status refused(const fs::path& path, const std::string& what) {
  return invalid_argument(path.string() + " " + what +
                          "; outputs go to regular files (replaced whole), character devices or FIFOs (written "
                          "through), nothing was written");
}

class fd_guard {
 public:
  explicit fd_guard(int fd) : fd_(fd) {}
  ~fd_guard() {
    if (fd_ >= 0) ::close(fd_);
  }
  fd_guard(const fd_guard&) = delete;
  fd_guard& operator=(const fd_guard&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

status write_all(int fd, std::span<const uint8_t> bytes, const fs::path& path) {
  // A reader that closes a FIFO early is an EPIPE error here, not a SIGPIPE that ends the process:
  // the signal is blocked in this thread for the write and a pending one taken back.
  sigset_t pipe_only, old;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
  int err = 0;
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, std::min<size_t>(bytes.size() - done, size_t{1} << 30));
    if (n < 0) {
      if (errno == EINTR) continue;
      err = errno;
      break;
    }
    done += static_cast<size_t>(n);
  }
  if (err == EPIPE && !sigismember(&old, SIGPIPE)) {
    const timespec now{0, 0};
    while (::sigtimedwait(&pipe_only, nullptr, &now) == SIGPIPE) {
    }
  }
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return err == 0 ? ok_status() : os_error("writing", path, err);
}

// ".<name>.<16 hex digits>.tmp" beside target: hidden, and not a name another writer could guess.
fs::path temp_name(const fs::path& target) {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(rng()));
  std::string name = target.filename().string();
  name.insert(name.begin(), '.');
  name.append(".").append(hex).append(".tmp");
  return target.parent_path() / name;
}

}  // namespace

result<staged_output> staged_output::stage(const fs::path& path, std::span<const uint8_t> bytes) {
  if (path.empty()) return invalid_argument("output path is empty");
  PP_RETURN_IF_ERROR(refuse_embedded_nul(path));
  staged_output out;
  out.path_ = path;
  out.target_ = path;
  // O_PATH opens nothing it names (no device driver's open, no FIFO wait) and follows symlinks
  // under the kernel's protected_symlinks rules.
  fd_guard seen(::open(path.c_str(), O_PATH | O_CLOEXEC));
  struct stat st {};
  bool existed = false;
  if (seen.get() < 0) {
    const int e = errno;
    if (e != ENOENT) return os_error("opening", path, e);
    struct stat link {};
    if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
      // Creating whatever a dangling link names is how symlink attacks on outputs work.
      return refused(path, "is a symbolic link to a missing file");
    }
  } else {
    if (::fstat(seen.get(), &st) != 0) return os_error("looking at", path, errno);
    existed = true;
  }

  if (existed && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
    // Reopened for writing; O_NONBLOCK: a FIFO with no reader fails with ENXIO instead of waiting.
    fd_guard w(::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (w.get() < 0) {
      if (errno == ENXIO && S_ISFIFO(st.st_mode)) return refused(path, "is a FIFO with no reader");
      return os_error("opening", path, errno);
    }
    struct stat now {};
    if (::fstat(w.get(), &now) != 0) return os_error("looking at", path, errno);
    if (now.st_dev != st.st_dev || now.st_ino != st.st_ino) {
      return unavailable(path.string() + " changed while it was opened; nothing was written");
    }
    const int flags = ::fcntl(w.get(), F_GETFL);
    if (flags < 0 || ::fcntl(w.get(), F_SETFL, flags & ~O_NONBLOCK) != 0) return os_error("opening", path, errno);
    out.fd_ = w.release();
    out.through_ = bytes;
    return out;
  }
  if (existed && !S_ISREG(st.st_mode)) return refused(path, file_type_words(st.st_mode));

  if (struct stat link {}; existed && ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    char* real = ::realpath(path.c_str(), nullptr);
    if (real == nullptr) return os_error("resolving", path, errno);
    out.target_ = real;
    std::free(real);
  }
  if (out.target_.filename().empty() || out.target_.filename() == "." || out.target_.filename() == "..") {
    return invalid_argument("output path " + path.string() + " names no file");
  }
  const mode_t mode = existed ? (st.st_mode & 0777) : 0666;  // a new file: 0666 less the umask
  for (int attempt = 0; out.fd_ < 0; ++attempt) {
    const fs::path temp = temp_name(out.target_);
    out.fd_ = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (out.fd_ < 0 && (errno != EEXIST || attempt == 8)) return os_error("creating a temporary file for", path, errno);
    if (out.fd_ >= 0) out.temp_ = temp;
  }
  if (existed && ::fchmod(out.fd_, mode) != 0) return os_error("creating a temporary file for", path, errno);
  PP_RETURN_IF_ERROR(write_all(out.fd_, bytes, path));
  if (::fsync(out.fd_) != 0) return os_error("writing", path, errno);
  return out;
}

staged_output::staged_output(staged_output&& o) noexcept
    : path_(std::move(o.path_)),
      target_(std::move(o.target_)),
      temp_(std::exchange(o.temp_, {})),
      fd_(std::exchange(o.fd_, -1)),
      through_(o.through_) {}

staged_output& staged_output::operator=(staged_output&& o) noexcept {
  if (this != &o) {
    discard();
    path_ = std::move(o.path_);
    target_ = std::move(o.target_);
    temp_ = std::exchange(o.temp_, {});
    fd_ = std::exchange(o.fd_, -1);
    through_ = o.through_;
  }
  return *this;
}

staged_output::~staged_output() { discard(); }

void staged_output::discard() {
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));
  if (!temp_.empty()) ::unlink(std::exchange(temp_, {}).c_str());
}

status staged_output::commit() {
  if (fd_ < 0) return failed_precondition("output " + path_.string() + " was already committed");
  if (temp_.empty()) {
    status s = write_all(fd_, through_, path_);
    ::close(std::exchange(fd_, -1));
    return s;
  }
  // What stage() saw may have been swapped since (for a device node, a FIFO, a link): only a
  // regular file or nothing is replaced.
  struct stat now {};
  const bool present = ::lstat(target_.c_str(), &now) == 0;
  if (present ? !S_ISREG(now.st_mode) : errno != ENOENT) {
    const std::string what = present ? file_type_words(now.st_mode) : std::string("cannot be looked at");
    discard();
    return refused(path_, "changed while the output was written (it now " + what + ")");
  }
  ::close(std::exchange(fd_, -1));
  if (::rename(temp_.c_str(), target_.c_str()) != 0) {
    const int e = errno;
    discard();
    return os_error("renaming onto", path_, e);
  }
  temp_.clear();
  return ok_status();
}

status write_output_file(const fs::path& path, std::span<const uint8_t> bytes) {
  PP_ASSIGN_OR_RETURN(staged_output s, staged_output::stage(path, bytes));
  return s.commit();
}

status write_output_files(std::span<const output_bytes> outputs) {
  std::vector<staged_output> staged;
  staged.reserve(outputs.size());
  for (const output_bytes& o : outputs) {
    PP_ASSIGN_OR_RETURN(staged_output s, staged_output::stage(o.path, o.bytes));
    staged.push_back(std::move(s));
  }
  for (staged_output& s : staged) PP_RETURN_IF_ERROR(s.commit());
  return ok_status();
}

}  // namespace pp
