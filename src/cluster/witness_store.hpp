// witness_store: where a partition's witness (circom .wtns bytes) waits between the node that took
// the submission and the node that proves it. Small witnesses travel inline in the database; larger
// ones are written under the shared directory as <shared_dir>/<job>/<partition>.wtns and the
// database keeps their path and SHA-256, which the reader checks.
#pragma once
#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/status.hpp"

#include "core/result.hpp"

namespace pp::cluster {

using sha256_digest = std::array<uint8_t, 32>;
[[nodiscard]] sha256_digest sha256(std::span<const uint8_t> bytes);

struct stored_witness {
  bool is_inline = true;
  std::vector<uint8_t> inline_bytes;  // when is_inline
  std::string path;                   // otherwise, with its digest
  sha256_digest digest{};
  uint64_t size = 0;
};

class witness_store {
 public:
  witness_store(std::filesystem::path shared_dir, uint64_t inline_max)
      : dir_(std::move(shared_dir)), inline_max_(inline_max) {}

  // Inline up to inline_max bytes, else a file in the shared directory (failed_precondition when
  // there is none; unavailable when it cannot be written).
  [[nodiscard]] result<stored_witness> put(uint64_t job, uint32_t partition, std::span<const uint8_t> bytes) const;
  // The bytes back; data_loss when a file is missing, short or does not match its digest. A file is
  // read as the engine reads witness files (engine/witness_file.hpp): never waiting on a FIFO, a
  // regular file no larger than the recorded size, in chunks between which `stop` is asked.
  [[nodiscard]] static result<std::vector<uint8_t>> get(const stored_witness& w, const std::function<bool()>& stop);
  // Removes a job's witness files once the job has ended: the paths its rows recorded (whatever
  // directory the node that stored them uses; only a path shaped <dir>/<job>/<part>.wtns, so a row
  // cannot name any other file) and their folders once empty, and this node's <shared_dir>/<job>.
  // Missing files are fine.
  void remove_job(uint64_t job, const std::vector<std::string>& recorded_paths) const;
  // The jobs with a folder <shared_dir>/<job> here (none without a shared directory), so that files
  // a node could not remove (killed between ending a job and removing them) are found later.
  [[nodiscard]] std::vector<uint64_t> stored_jobs() const;
  // Checks at start-up that the shared directory (when set) is a directory this node can write:
  // failed_precondition naming the knob and the reason otherwise.
  [[nodiscard]] status check_writable(const std::string& node) const;

 private:
  std::filesystem::path dir_;
  uint64_t inline_max_;
};

}  // namespace pp::cluster
