/* vortex: the C interface's solver over the ranks of an MPI communicator (builds with MPI).
 *
 * Every rank creates one with the same options and calls vortex_evaluate on it together, each with
 * its own particles and targets (a rank may have none); each gets the field at its own targets,
 * summed over every rank's particles. The handle is an ordinary vortex_solver: vortex_evaluate,
 * vortex_solver_stats and vortex_solver_destroy take it. Errors are collective: bad input or a
 * failure on one rank gives every rank the error status, with the failing rank named in
 * vortex_last_error(). MPI must be initialized before, and finalized after the handles are
 * destroyed.
 *
 *   vortex_solver* solver = NULL;
 *   vortex_mpi_solver_create(&options, MPI_COMM_WORLD, &solver);
 *   vortex_evaluate(solver, &my_sources, NULL, &my_field);
 *
 * From Fortran: vortex_mpi_solver_create_f takes the communicator's Fortran handle. */
#ifndef VORTEX_MPI_H
#define VORTEX_MPI_H

#include <mpi.h>

#include "vortex.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Creates a distributed solver on `comm` (not collective); *solver is NULL on failure. */
VORTEX_C_API int vortex_mpi_solver_create(const vortex_options* options, MPI_Comm comm,
                                          vortex_solver** solver);
/* The same with a Fortran communicator handle (MPI_Fint). */
VORTEX_C_API int vortex_mpi_solver_create_f(const vortex_options* options, MPI_Fint comm,
                                            vortex_solver** solver);

#ifdef __cplusplus
}
#endif

#endif /* VORTEX_MPI_H */
