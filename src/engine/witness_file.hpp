// witness_file: a witness named by path (a circom .wtns the daemon does not own: a client may swap
// it after submit) read without ever blocking on it: the one reader of witness files, for the
// engine's witness stage and for a cluster node's submissions and shared directory. open() never waits (O_NONBLOCK, so a FIFO or a
// device cannot hold a witness thread in open()), accepts regular files only (checked on the
// descriptor, so a symlink or a rename after the check changes nothing) and no larger than the key
// implies; read() goes in chunks that a cancelled job or a stopping engine interrupts, and parses
// the values over the key's curve's scalar field.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

#include "core/result.hpp"
#include "ff/bn254_fr.hpp"
#include "ff/fr.hpp"

namespace pp::engine {

// The largest .wtns accepted for a circuit of num_values variables: the file circom and snarkjs
// write (header, 32-byte prime, 32 bytes per value) plus 64 KiB for sections a writer may add.
[[nodiscard]] uint64_t max_wtns_file_bytes(uint64_t num_values);

class witness_file {
 public:
  // not_found (no such file), permission_denied, invalid_argument for anything but a regular file
  // ("is a FIFO, not a regular file") or one larger than max_bytes; each names the path (and
  // max_bytes, never the file's own size: the path may name any file the daemon can read).
  [[nodiscard]] static result<witness_file> open(const std::filesystem::path& path, uint64_t max_bytes);

  witness_file(witness_file&& o) noexcept;
  witness_file& operator=(witness_file&& o) noexcept;
  witness_file(const witness_file&) = delete;
  witness_file& operator=(const witness_file&) = delete;
  ~witness_file();

  [[nodiscard]] uint64_t size() const { return size_; }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

  // Reads the size() bytes seen at open(); `stop` is asked between chunks and a true answer ends the
  // read as cancelled. data_loss when the file shrank meanwhile.
  [[nodiscard]] result<std::vector<uint8_t>> read_bytes(const std::function<bool()>& stop) const;
  // read_bytes, parsed over Fr (ff::fr or ff::bn254::fr): also the parser's errors
  // (formats::read_circom_wtns) with the path as context, and invalid_argument naming both curves
  // for a witness whose prime is the other curve's.
  template <class Fr = ff::fr>
  [[nodiscard]] result<std::vector<Fr>> read(const std::function<bool()>& stop) const;

 private:
  witness_file(int fd, uint64_t size, std::filesystem::path path) : fd_(fd), size_(size), path_(std::move(path)) {}
  int fd_ = -1;
  uint64_t size_ = 0;
  std::filesystem::path path_;
};

}  // namespace pp::engine
