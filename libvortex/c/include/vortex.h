/* vortex: C interface to the vortex-particle velocity solver.
 *
 * A stable C ABI over the C++ library: opaque solver handles, plain structs, status codes and a
 * per-thread message for the last error. Nothing throws across this boundary.
 *
 *   vortex_options options;
 *   vortex_default_options(&options);
 *   vortex_solver* solver = NULL;
 *   if (vortex_solver_create(&options, &solver) != VORTEX_OK) puts(vortex_last_error());
 *   vortex_sources s = vortex_sources_interleaved(n, VORTEX_FLOAT64, xyz, gamma, sigma);
 *   vortex_field f = vortex_field_interleaved(VORTEX_FLOAT64, velocity, gradient);
 *   vortex_evaluate(solver, &s, NULL, &f);   // targets NULL: at the particles themselves
 *   vortex_solver_destroy(solver);
 *
 * Arrays are described by one pointer per component and a stride in elements between consecutive
 * particles: separate arrays have stride 1, interleaved xyz triples stride 3. Double arrays of
 * stride 1 are read where they lie; other layouts are converted into storage that the solver keeps
 * between calls. Like the C++ Solver, one handle must not be used by several threads at once. */
#ifndef VORTEX_H
#define VORTEX_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define VORTEX_C_API __declspec(dllexport)
#else
#define VORTEX_C_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define VORTEX_C_API_VERSION 5
/* The most CPU threads vortex_options.threads may ask for (larger counts are refused). */
#define VORTEX_MAX_THREADS 1024

typedef enum vortex_status {
  VORTEX_OK = 0,
  VORTEX_ERROR_INVALID_ARGUMENT = 1, /* bad option, shape, NaN, sigma <= 0, NULL pointer */
  VORTEX_ERROR_UNAVAILABLE = 2,      /* CUDA asked for but not built or no device */
  VORTEX_ERROR_OUT_OF_MEMORY = 3,
  VORTEX_ERROR_INTERNAL = 4
} vortex_status;

typedef enum vortex_scalar { VORTEX_FLOAT64 = 0, VORTEX_FLOAT32 = 1 } vortex_scalar;

typedef enum vortex_core {
  VORTEX_CORE_EXPONENTIAL = 0,
  VORTEX_CORE_GAUSSIAN = 1,
  VORTEX_CORE_ROSENHEAD_MOORE = 2,
  VORTEX_CORE_WINCKELMANS_LEONARD = 3,
  VORTEX_CORE_SINGULAR = 4
} vortex_core;

typedef enum vortex_method { VORTEX_METHOD_TREE = 0, VORTEX_METHOD_DIRECT = 1 } vortex_method;
typedef enum vortex_backend {
  VORTEX_BACKEND_AUTO = 0,
  VORTEX_BACKEND_CPU = 1,
  VORTEX_BACKEND_CUDA = 2
} vortex_backend;
typedef enum vortex_precision {
  VORTEX_PRECISION_AUTO = 0,
  VORTEX_PRECISION_DOUBLE = 1,
  VORTEX_PRECISION_FLOAT = 2
} vortex_precision;

/* Solver options; 0 in a tree parameter is picked for the tolerance (see the README). */
typedef struct vortex_options {
  int32_t core;      /* vortex_core */
  int32_t method;    /* vortex_method */
  int32_t backend;   /* vortex_backend */
  int32_t precision; /* vortex_precision */
  int32_t order;     /* multipole order p, 1..16 */
  int32_t target_bucket;
  int32_t source_bucket;
  int32_t arity;   /* 2, 4 or 8 */
  int32_t threads; /* CPU threads, 0..VORTEX_MAX_THREADS; 0 = OpenMP's default */
  /* 0: each far box at the lowest order as accurate there as `order` at the acceptance limit;
   * 1: every far box at `order`. Since API version 3 (a reserved 0 before). */
  int32_t uniform_order;
  double theta;
  double kappa;
  /* mean relative error of velocity and gradient accepted, in [0, 1); 0 = the defaults (for
   * 2e-4). Since API version 2. */
  double tolerance;
} vortex_options;

/* Source particles: positions x, y, z, vector strengths (circulation) gx, gy, gz, core radii. */
typedef struct vortex_sources {
  size_t n;
  int32_t type; /* vortex_scalar of every array */
  int32_t reserved;
  const void* x;
  const void* y;
  const void* z;
  const void* gx;
  const void* gy;
  const void* gz;
  const void* sigma;
  ptrdiff_t position_stride; /* elements between consecutive particles */
  ptrdiff_t strength_stride;
  ptrdiff_t sigma_stride;
} vortex_sources;

typedef struct vortex_points {
  size_t n;
  int32_t type;
  int32_t reserved;
  const void* x;
  const void* y;
  const void* z;
  ptrdiff_t stride;
} vortex_points;

/* Where results go, one entry per target. du[3a+b] receives d u_a / d x_b; du[0] == NULL asks for
 * the velocity only. */
typedef struct vortex_field {
  int32_t type;
  int32_t reserved;
  void* u[3];
  ptrdiff_t u_stride;
  void* du[9];
  ptrdiff_t du_stride;
} vortex_field;

/* What the last evaluation of a solver cost and which parameters it used. */
typedef struct vortex_stats {
  double total, tree, multipole, lists, near_field, far_field, transfer; /* seconds */
  uint64_t pair_interactions;
  uint64_t multipole_interactions;
  uint64_t near_list_entries;
  uint64_t far_list_entries;
  uint64_t target_leaves;
  uint64_t source_nodes;
  int32_t backend;   /* what ran: VORTEX_BACKEND_CPU or VORTEX_BACKEND_CUDA */
  int32_t precision; /* VORTEX_PRECISION_DOUBLE or VORTEX_PRECISION_FLOAT */
  int32_t order;     /* resolved tree parameters (zeros for the direct method) */
  int32_t target_bucket;
  int32_t source_bucket;
  int32_t arity;
  double theta;
  double kappa;
  int32_t copied_columns; /* input columns converted (0: every input read in place) */
  int32_t uniform_order;  /* 1: every far box at `order`; API version 3 */
  char device[64];
  double tolerance; /* what the tree parameters were picked for (0: the defaults); API version 2 */
  double setup;     /* seconds of trees, lists and multipoles together (overlapped on the device);
                       API version 4 */
  /* The sources' layout as the tolerance's error model read it (all 0 where every tree option
     was given): density contrast, dimension (1 for a filament) and spread across a filament in
     core radii; API version 5 */
  double layout_contrast, layout_dimension, layout_spread;
} vortex_stats;

VORTEX_C_API int vortex_c_api_version(void);
VORTEX_C_API const char* vortex_version(void);
/* The message of the last failed call on this thread ("" when none). */
VORTEX_C_API const char* vortex_last_error(void);
VORTEX_C_API const char* vortex_status_name(int status);
VORTEX_C_API int vortex_cuda_available(void);

typedef struct vortex_solver vortex_solver;

VORTEX_C_API void vortex_default_options(vortex_options* options);
/* Creates a solver; *solver is NULL on failure. */
VORTEX_C_API int vortex_solver_create(const vortex_options* options, vortex_solver** solver);
VORTEX_C_API void vortex_solver_destroy(vortex_solver* solver); /* NULL is allowed */

/* Velocity (and gradient) of the sources at the targets, or at the sources themselves (the self
 * term excluded) when targets is NULL. On failure the output arrays are left as they were. */
VORTEX_C_API int vortex_evaluate(vortex_solver* solver, const vortex_sources* sources,
                                 const vortex_points* targets, const vortex_field* out);
/* Stats of the solver's last successful evaluation. */
VORTEX_C_API int vortex_solver_stats(const vortex_solver* solver, vortex_stats* stats);

/* Descriptors of common layouts. Interleaved: positions and strengths as n xyz triples
 * (a C array double[n][3], a Fortran array (3, n)). Separate: one array per component. */
VORTEX_C_API vortex_sources vortex_sources_interleaved(size_t n, int type, const void* positions,
                                                       const void* strengths, const void* sigma);
VORTEX_C_API vortex_sources vortex_sources_separate(size_t n, int type, const void* x,
                                                    const void* y, const void* z, const void* gx,
                                                    const void* gy, const void* gz,
                                                    const void* sigma);
VORTEX_C_API vortex_points vortex_points_interleaved(size_t n, int type, const void* xyz);
VORTEX_C_API vortex_points vortex_points_separate(size_t n, int type, const void* x, const void* y,
                                                  const void* z);
/* velocity: n triples; gradient: NULL, or n row-major 3x3 blocks, gradient[9i + 3a + b]. */
VORTEX_C_API vortex_field vortex_field_interleaved(int type, void* velocity, void* gradient);

#ifdef __cplusplus
}
#endif

#endif /* VORTEX_H */
