/* A vortex ring evaluated from C through vortex.h: the treecode against the direct sum, both on
 * interleaved double arrays, and the ring's speed against Kelvin's thin-ring formula. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "vortex.h"

enum { STATIONS = 240, PER_STATION = 7 };

/* A ring of radius 1 around +z: per station, one particle on the core's center line and six at
 * half the core radius, each carrying 1/7 of the station's circulation along the azimuth. */
static void make_ring(double* x, double* g, double* sigma, double core) {
  const double pi = 3.14159265358979323846;
  for (int s = 0; s < STATIONS; ++s) {
    const double phi = 2 * pi * s / STATIONS;
    for (int k = 0; k < PER_STATION; ++k) {
      const double psi = 2 * pi * k / 6, d = k == 0 ? 0.0 : 0.5 * core;
      const double r = 1.0 + d * cos(psi), length = 2 * pi * r / STATIONS;
      const int i = s * PER_STATION + k;
      x[3 * i] = r * cos(phi), x[3 * i + 1] = r * sin(phi), x[3 * i + 2] = d * sin(psi);
      g[3 * i] = -sin(phi) * length / PER_STATION, g[3 * i + 1] = cos(phi) * length / PER_STATION;
      g[3 * i + 2] = 0.0;
      sigma[i] = core;
    }
  }
}

static int check(int status, const char* what) {
  if (status != VORTEX_OK) {
    fprintf(stderr, "%s failed (%s): %s\n", what, vortex_status_name(status), vortex_last_error());
    exit(1);
  }
  return status;
}

int main(void) {
  const size_t n = STATIONS * PER_STATION;
  const double core = 0.1;
  double* x = malloc(3 * n * sizeof *x);
  double* g = malloc(3 * n * sizeof *g);
  double* sigma = malloc(n * sizeof *sigma);
  double* u_tree = malloc(3 * n * sizeof *u_tree);
  double* u_direct = malloc(3 * n * sizeof *u_direct);
  double* grad = malloc(9 * n * sizeof *grad);
  make_ring(x, g, sigma, core);

  vortex_options options;
  vortex_default_options(&options);
  vortex_solver *tree = NULL, *direct = NULL;
  check(vortex_solver_create(&options, &tree), "create tree solver");
  options.method = VORTEX_METHOD_DIRECT;
  options.backend = VORTEX_BACKEND_CPU;
  check(vortex_solver_create(&options, &direct), "create direct solver");

  const vortex_sources sources = vortex_sources_interleaved(n, VORTEX_FLOAT64, x, g, sigma);
  vortex_field out = vortex_field_interleaved(VORTEX_FLOAT64, u_tree, grad);
  check(vortex_evaluate(tree, &sources, NULL, &out), "tree evaluation");
  out = vortex_field_interleaved(VORTEX_FLOAT64, u_direct, NULL);
  check(vortex_evaluate(direct, &sources, NULL, &out), "direct evaluation");

  double err = 0, ref = 0, speed = 0, divergence = 0;
  for (size_t i = 0; i < n; ++i) {
    for (int a = 0; a < 3; ++a) {
      err += pow(u_tree[3 * i + a] - u_direct[3 * i + a], 2);
      ref += pow(u_direct[3 * i + a], 2);
    }
    speed += u_direct[3 * i + 2] / n;
    divergence = fmax(divergence, fabs(grad[9 * i] + grad[9 * i + 4] + grad[9 * i + 8]));
  }
  vortex_stats stats;
  check(vortex_solver_stats(tree, &stats), "stats");
  /* Kelvin: U = Gamma / (4 pi R) (ln(8 R / a) - 1/4) for a uniform core; ours is close to it. */
  const double kelvin = (log(8.0 / core) - 0.25) / (4 * 3.14159265358979323846);
  printf("vortex %s, %zu particles on %s (%s): treecode %.3f s, p = %d, theta = %.2f\n",
         vortex_version(), n, stats.device, stats.backend == VORTEX_BACKEND_CUDA ? "cuda" : "cpu",
         stats.total, stats.order, stats.theta);
  printf("relative L2 error against the direct sum: %.2e\n", sqrt(err / ref));
  printf("ring speed %.4f (Kelvin, uniform core: %.4f); max |div u| %.1e\n", speed, kelvin,
         divergence);

  /* A bad input names the problem. */
  sigma[5] = -1.0;
  const int status = vortex_evaluate(direct, &sources, NULL, &out);
  printf("sigma[5] = -1: %s: %s\n", vortex_status_name(status), vortex_last_error());

  vortex_solver_destroy(tree);
  vortex_solver_destroy(direct);
  const int ok = sqrt(err / ref) < 1e-3 && speed > 0.5 * kelvin && speed < 1.5 * kelvin &&
                 divergence < 1e-6 && status == VORTEX_ERROR_INVALID_ARGUMENT;
  free(x), free(g), free(sigma), free(u_tree), free(u_direct), free(grad);
  printf("%s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
