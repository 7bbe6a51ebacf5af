// curves: which curves the engine's devices prove, as the router and submit() see it. A key is
// BLS12-381's or BN254's (docs/design.md, "Curve families"); a device proves a set of curves (the
// CPU both, a GPU BLS12-381's); a partition goes only to a device that proves its key's curve, and
// a job whose curve no device proves is refused at submit rather than queued forever.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

#include "core/status.hpp"
#include "ec/curve_id.hpp"

namespace pp::engine {

inline constexpr ec::curve_id all_curves[] = {ec::curve_id::bls12_381, ec::curve_id::bn254};

// A set of curves, one bit per ec::curve_id.
using curve_mask = uint8_t;
constexpr curve_mask curve_bit(ec::curve_id c) { return static_cast<curve_mask>(1u << static_cast<unsigned>(c)); }
constexpr bool has_curve(curve_mask m, ec::curve_id c) { return (m & curve_bit(c)) != 0; }

// What one device proves, by name.
struct device_curves {
  std::string_view name;
  curve_mask curves = curve_bit(ec::curve_id::bls12_381);
};

// ok when some device proves `curve` (healthy or not: health is the router's business);
// failed_precondition naming the key, its curve and every device with what it proves otherwise.
[[nodiscard]] status check_curve_served(std::string_view key_id, ec::curve_id curve,
                                        std::span<const device_curves> devices);

}  // namespace pp::engine
