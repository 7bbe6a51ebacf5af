// key_vram: the stand-in estimate (key_vram.hpp says what replaces it).
#include "doctor/key_vram.hpp"

#include "doctor/finding.hpp"

namespace pp::doctor {

key_vram_plan estimate_key_vram(const key_vram_query& q) {
  if (q.budget_bytes >= q.key_bytes) {
    return {key_placement::resident, 0,
            "resident (estimate: its files' " + bytes_text(q.key_bytes) + " fit the " + bytes_text(q.budget_bytes) +
                " budget; workspaces not counted)"};
  }
  return {key_placement::unknown, 0,
          "its files' " + bytes_text(q.key_bytes) + " exceed the " + bytes_text(q.budget_bytes) +
              " budget: the backend streams its tables if the budget holds the least the key needs, and refuses "
              "its first partition otherwise (the least is not estimated here)"};
}

}  // namespace pp::doctor
