// witness_store: files are written as every output is (core/output_file.hpp: a temporary name and a
// rename, so a reader never sees a partial witness under the final name) and read back through
// engine::witness_file.
#include "cluster/witness_store.hpp"

#include <charconv>

#include <openssl/evp.h>

#include "core/file_type.hpp"
#include "core/output_file.hpp"
#include "engine/witness_file.hpp"

namespace pp::cluster {

sha256_digest sha256(std::span<const uint8_t> bytes) {
  sha256_digest d{};
  unsigned int n = 0;
  EVP_Digest(bytes.data(), bytes.size(), d.data(), &n, EVP_sha256(), nullptr);
  return d;
}

result<stored_witness> witness_store::put(uint64_t job, uint32_t partition, std::span<const uint8_t> bytes) const {
  stored_witness w;
  w.size = bytes.size();
  w.digest = sha256(bytes);
  if (bytes.size() <= inline_max_) {
    w.inline_bytes.assign(bytes.begin(), bytes.end());
    return w;
  }
  if (dir_.empty()) {
    return failed_precondition("a witness of " + std::to_string(bytes.size()) + " bytes is larger than cluster.inline_witness_bytes (" +
                               std::to_string(inline_max_) + ") and cluster.shared_dir is not set");
  }
  const std::filesystem::path folder = dir_ / std::to_string(job);
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) return unavailable("cluster.shared_dir: cannot create " + folder.string() + ": " + ec.message());
  const std::filesystem::path final_path = folder / (std::to_string(partition) + ".wtns");
  if (status s = write_output_file(final_path, bytes); !s.ok()) return unavailable("cluster.shared_dir: " + s.message());
  w.is_inline = false;
  w.path = final_path.string();
  return w;
}

result<std::vector<uint8_t>> witness_store::get(const stored_witness& w, const std::function<bool()>& stop) {
  std::vector<uint8_t> bytes;
  if (w.is_inline) {
    bytes = w.inline_bytes;
  } else {
    auto f = engine::witness_file::open(w.path, w.size);
    if (!f.ok() && (f.error().code() == status_code::not_found || f.error().code() == status_code::permission_denied)) {
      return data_loss("witness file " + w.path + " is missing or unreadable (is cluster.shared_dir shared by every node?)");
    }
    if (!f.ok()) return data_loss(f.error().message());
    auto read = f->read_bytes(stop);
    if (!read.ok()) return read.error();
    bytes = std::move(read).value_unchecked();
  }
  if (bytes.size() != w.size || sha256(bytes) != w.digest) {
    return data_loss("witness " + (w.is_inline ? std::string("(inline)") : w.path) + ": " + std::to_string(bytes.size()) +
                     " bytes that do not match the recorded size (" + std::to_string(w.size) + ") and SHA-256");
  }
  return bytes;
}

void witness_store::remove_job(uint64_t job, const std::vector<std::string>& recorded_paths) const {
  std::error_code ec;
  for (const std::string& p : recorded_paths) {
    const std::filesystem::path path(p);
    const std::string name = path.filename().string();
    const bool shaped = path.is_absolute() && path.parent_path().filename() == std::to_string(job) &&
                        name.ends_with(".wtns") && name.size() > 5 &&
                        name.find_first_not_of("0123456789") == name.size() - 5;
    if (!shaped) continue;
    std::filesystem::remove(path, ec);
    std::filesystem::remove(path.parent_path(), ec);  // only when empty: it fails otherwise
  }
  if (!dir_.empty()) std::filesystem::remove_all(dir_ / std::to_string(job), ec);
}

std::vector<uint64_t> witness_store::stored_jobs() const {
  std::vector<uint64_t> jobs;
  if (dir_.empty()) return jobs;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(dir_, ec); !ec && it != std::filesystem::directory_iterator();
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    uint64_t job = 0;
    const auto [end, err] = std::from_chars(name.data(), name.data() + name.size(), job);
    if (err == std::errc() && end == name.data() + name.size() && it->is_directory(ec)) jobs.push_back(job);
  }
  return jobs;
}

status witness_store::check_writable(const std::string& node) const {
  if (dir_.empty()) return ok_status();
  const std::string why = "cluster.shared_dir: " + dir_.string();
  if (const std::string what = describe_if_not_regular(dir_); what != "is a directory") {
    return failed_precondition(why + " " + (what.empty() ? std::string("is a regular file") : what) +
                               "; it must be a directory every node can write");
  }
  const std::filesystem::path probe = dir_ / (".proofpipe-probe-" + node);
  const std::string text = "proofpipe";
  if (status s = write_output_file(probe, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
      !s.ok()) {
    return failed_precondition(why + " is not writable by this node (" + s.message() +
                               "); witnesses above cluster.inline_witness_bytes could not be stored");
  }
  std::error_code ec;
  std::filesystem::remove(probe, ec);
  return ok_status();
}

}  // namespace pp::cluster
