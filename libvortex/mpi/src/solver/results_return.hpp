#pragma once
// The results of a distributed call: from the order a rank summed its targets in (its share of the
// target tree) back to the ranks and positions the targets came from, and from internal units to
// the caller's.

#include <vector>

#include "backend/backend.hpp"
#include "comm/collectives.hpp"
#include "partition/record.hpp"
#include "vortex/field.hpp"

namespace vortex::mpi::detail {

// Results in the caller's order already (the direct method): scaled into `out`, sized for n.
void write_results(const vortex::detail::ComponentView& v, const std::size_t* unused, std::size_t n,
                   bool gradient, vortex::detail::Units units, VelocityField& out);

// The exchange's storage, kept between calls.
struct ResultBuffers {
  std::vector<double> packed, back;
  std::vector<std::size_t> place;
};

// Result i of `v` belongs to records[i].from. Collective; `out` sized for this rank's n targets.
void return_results(const Comm& comm, const vortex::detail::ComponentView& v,
                    const std::vector<Record>& records, std::size_t n, bool gradient,
                    vortex::detail::Units units, VelocityField& out, ResultBuffers& buffers);

bool all_finite(const VelocityField& f);
// Throws std::overflow_error naming the first value of the field that is not finite.
void throw_if_not_finite(const VelocityField& f);

}  // namespace vortex::mpi::detail
