#include "engine/curves.hpp"

namespace pp::engine {

status check_curve_served(std::string_view key_id, ec::curve_id curve, std::span<const device_curves> devices) {
  std::string list;
  for (const device_curves& d : devices) {
    if (has_curve(d.curves, curve)) return ok_status();
    std::string proves;
    for (const ec::curve_id c : all_curves) {
      if (has_curve(d.curves, c)) proves += (proves.empty() ? "" : ", ") + std::string(ec::curve_name(c));
    }
    list += (list.empty() ? "" : "; ") + std::string(d.name) + " proves " + (proves.empty() ? "nothing" : proves);
  }
  return failed_precondition("key '" + std::string(key_id) + "' is for " + ec::curve_text(curve) +
                             ", which no device of this engine proves (" + list + ")");
}

}  // namespace pp::engine
