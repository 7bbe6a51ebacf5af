// Section-table scan and bounds-checked reads for the iden3 binary container.
#include "formats/binfile.hpp"

#include <algorithm>

namespace pp::formats {

namespace {

// The message for a file whose first 4 bytes are not `magic`. It names the file's kind when those
// bytes are another iden3 container's magic, and otherwise says nothing about them: the path may
// be any file (a key path pointed at /etc/shadow), and a parse error must not leak its content.
status wrong_magic(std::span<const uint8_t> file, std::string_view magic, const std::string& kind) {
  static constexpr std::string_view known[] = {"r1cs", "wtns", "zkey", "ptau"};
  const std::string expected = "not a " + kind + " file: it does not start with '" + std::string(magic) + "'";
  if (file.size() >= 4) {
    const std::string_view head(reinterpret_cast<const char*>(file.data()), 4);
    for (std::string_view k : known) {
      if (head == k) return invalid_argument(expected + " (it is a ." + std::string(k) + " file)");
    }
  }
  return invalid_argument(expected);
}

}  // namespace

result<const section_entry*> binfile_sections::find(uint32_t id, std::string_view name) const {
  const section_entry* found = nullptr;
  for (const section_entry& s : sections) {
    if (s.id != id) continue;
    if (found != nullptr) {
      return data_loss("section " + std::to_string(id) + " (" + std::string(name) + ") appears twice, at offsets " +
                       std::to_string(found->offset - 12) + " and " + std::to_string(s.offset - 12));
    }
    found = &s;
  }
  return found;
}

result<binfile_sections> read_binfile_sections(std::span<const uint8_t> file, std::string_view magic,
                                               std::span<const uint32_t> versions, std::string_view kind) {
  const std::string k(kind);
  if (file.size() < 12) {
    if (file.size() >= 4 && std::memcmp(file.data(), magic.data(), 4) != 0) return wrong_magic(file, magic, k);
    return data_loss("truncated at offset " + std::to_string(file.size()) + ": the " + k +
                     " file header needs 12 bytes, the file has " + std::to_string(file.size()));
  }
  if (std::memcmp(file.data(), magic.data(), 4) != 0) return wrong_magic(file, magic, k);
  binfile_sections out;
  std::memcpy(&out.version, file.data() + 4, 4);
  if (std::find(versions.begin(), versions.end(), out.version) == versions.end()) {
    std::string supported;
    for (uint32_t v : versions) supported += (supported.empty() ? "" : ", ") + std::to_string(v);
    return invalid_argument("unsupported " + k + " version " + std::to_string(out.version) + ", expected " +
                            supported);
  }
  uint32_t n_sections;
  std::memcpy(&n_sections, file.data() + 8, 4);
  uint64_t pos = 12;
  // Each entry needs 12 bytes, so a huge nSections fails at the end of the file, never allocates.
  for (uint32_t i = 0; i < n_sections; ++i) {
    if (file.size() - pos < 12) {
      return data_loss("truncated at offset " + std::to_string(pos) + ": header of section " + std::to_string(i) +
                       " of " + std::to_string(n_sections) + " needs 12 bytes, the file has " +
                       std::to_string(file.size() - pos) + " left");
    }
    section_entry s;
    std::memcpy(&s.id, file.data() + pos, 4);
    std::memcpy(&s.size, file.data() + pos + 4, 8);
    s.offset = pos + 12;
    if (s.size > file.size() - s.offset) {
      return data_loss("section " + std::to_string(s.id) + " at offset " + std::to_string(pos) + " claims " +
                       std::to_string(s.size) + " bytes, but the file has only " +
                       std::to_string(file.size() - s.offset) + " bytes after its header");
    }
    out.sections.push_back(s);
    pos = s.offset + s.size;
  }
  if (pos != file.size()) {
    return data_loss(k + " file has " + std::to_string(file.size() - pos) + " trailing bytes at offset " +
                     std::to_string(pos) + " after its " + std::to_string(n_sections) + " sections");
  }
  return out;
}

status byte_reader::truncated(uint64_t need, std::string_view what) const {
  return data_loss("truncated at offset " + std::to_string(pos_) + ": " + std::string(what) + " needs " +
                   std::to_string(need) + " bytes but " + name_ + " ends at offset " + std::to_string(end_));
}

status byte_reader::expect_end() const {
  if (pos_ == end_) return ok_status();
  return data_loss(name_ + " has " + std::to_string(end_ - pos_) + " trailing bytes at offset " + std::to_string(pos_));
}

binfile_writer::binfile_writer(std::string_view magic, uint32_t version, uint32_t n_sections) : out_(12) {
  std::memcpy(out_.data(), magic.data(), 4);
  std::memcpy(out_.data() + 4, &version, 4);
  std::memcpy(out_.data() + 8, &n_sections, 4);
}

void binfile_writer::begin_section(uint32_t id) {
  u32(id);
  size_at_ = out_.size();
  u64(0);
}

void binfile_writer::end_section() {
  const uint64_t size = out_.size() - size_at_ - 8;
  std::memcpy(out_.data() + size_at_, &size, 8);
}

}  // namespace pp::formats
