#pragma once
// The field on its way out of a backend, shared by the Solver and the distributed solver: into the
// caller's order and units, and the search for a value that is not finite.

#include <cstddef>

#include "backend/backend.hpp"
#include "vortex/field.hpp"

namespace vortex::detail {

// Sizes a field whose every value is about to be written: no zeroing pass.
void size_for_overwrite(VelocityField& f, std::size_t n, bool gradient);

// Results from the backend's order to the caller's: entry i goes to perm[i] (or to i without a
// permutation), from internal units to the caller's; `out` sized for n.
void scatter(const ComponentView& v, const std::size_t* perm, std::size_t n, bool gradient,
             Units units, VelocityField& out);

// The first entry of the field that is not finite: its component (0..11) and target, or -1.
struct NonFinite {
  int component = -1;
  std::size_t target = 0;
};
NonFinite first_non_finite(const VelocityField& f);

// "u_x" .. "du_z/dz": component c of a field (0..11), for messages.
const char* component_name(int c);

}  // namespace vortex::detail
