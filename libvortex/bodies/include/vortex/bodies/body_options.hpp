#pragma once
// The options and statistics of a body's stages that BodyFlow takes and returns: the
// boundary-element solve's (BemOptions, BemStats) and the shedding's (SheddingOptions).

#include "vortex/field.hpp"
#include "vortex/math/vec3.hpp"
#include "vortex/options.hpp"

namespace vortex::bodies {

enum class BemMethod { Gmres, Dense };

inline constexpr int kAutoAggregates = -1;

struct BemOptions {
  BemMethod method = BemMethod::Gmres;
  int target_points = 3;     // rule of the far-field averages (1, 3, 6 or 7)
  int source_points = 3;     // rule of the sheet's point sources
  int near_points = 7;       // rule of the exact near blocks
  double near_factor = 2.5;  // near radius = near_factor * the largest panel diameter
  double tolerance = 1e-8;   // GMRES relative residual
  int restart = 60;
  int max_iterations = 400;
  int cluster_size = 32;  // panels per block of the block-Jacobi preconditioner
  // Aggregates of the preconditioner's coarse level (6 smooth sheet fields each, one operator
  // product per field at setup); 0: block Jacobi alone; kAutoAggregates: 64 where the solve runs
  // on the GPU (33-34 GMRES iterations a step against 48 with 8 on the paper's discoid, for a
  // set-up of 3.1 s at 46,080 panels),
  // 8 on the host (whose set-up products cost more than the iterations they save).
  int coarse_aggregates = kAutoAggregates;
  bool warm_start = true;
  // The treecode of the far-field product; its core is replaced by the singular kernel, and an
  // Auto precision by Float (float terms, double sums: the product's rounding 4.5e-7 of its rows
  // on a thin ellipsoid) where the GMRES tolerance is at least kFloatProductTolerance, else by
  // Double.
  SolverOptions solver;
};

// The smallest GMRES tolerance that the far-field product takes in float for an Auto precision.
inline constexpr double kFloatProductTolerance = 1e-6;

// Throws std::invalid_argument naming the bad option.
void validate(const BemOptions& options);

struct BemStats {
  int iterations = 0;
  double residual = 0;  // relative residual of the tangential equations
  bool converged = false;
  double max_normal_velocity = 0;   // max_i |<u+ . n>_i|
  double mean_normal_velocity = 0;  // mean_i |<u+ . n>_i|
  Vec3 sheet_vorticity;             // sum_j A_j gamma_j
  double seconds = 0;               // the whole solve
  double rhs_seconds = 0;           // the particles' velocity at the panels
  // The operator's products of the solve (GMRES's and the final residual's): their count (and
  // that of those for the last product's sheet again, answered without a product), the wall time
  // of their far fields (the treecode with its packing and panel averages) and near corrections,
  // the treecode's stages summed over them; and the preconditioner's wall time.
  long products = 0, repeated_products = 0;
  double seconds_far = 0, seconds_near = 0, seconds_precondition = 0;
  StageTimes treecode;
};

struct SheddingOptions {
  double spacing = 0;           // h (> 0): the patch size
  double offset = 1.0;          // height above the wall, in units of h (diffusion_length = 0)
  double core_radius = 0;       // sigma of shed particles (0: the spacing)
  double min_strength = 0;      // patches weaker than this |Gamma| are not shed (stay in the sheet)
  double diffusion_length = 0;  // s = sqrt(2 nu t) of the sub-step (0: one particle at offset)
  double layer = 1.0;           // layer thickness, in units of h
  double tail = 1e-2;           // the last layer takes the tail once below this fraction
};

}  // namespace vortex::bodies
