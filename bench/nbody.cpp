// Compute-bound: all-pairs gravity, O(n^2) per step.
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = argc > 1 ? atoi(argv[1]) : 2000;
    const int steps = argc > 2 ? atoi(argv[2]) : 3;
    Kokkos::View<double *[3]> pos("pos", n), vel("vel", n), acc("acc", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) {
      pos(i, 0) = std::cos(0.1 * i);
      pos(i, 1) = std::sin(0.1 * i);
      pos(i, 2) = 0.001 * i;
    });
    for (int s = 0; s < steps; ++s) {
      Kokkos::parallel_for("forces", n, KOKKOS_LAMBDA(const int i) {
        double ax = 0, ay = 0, az = 0;
        const double xi = pos(i, 0), yi = pos(i, 1), zi = pos(i, 2);
        for (int j = 0; j < n; ++j) {
          const double dx = pos(j, 0) - xi, dy = pos(j, 1) - yi, dz = pos(j, 2) - zi;
          const double r2 = dx * dx + dy * dy + dz * dz + 1e-3;
          const double inv = 1.0 / (r2 * std::sqrt(r2));
          ax += dx * inv;
          ay += dy * inv;
          az += dz * inv;
        }
        acc(i, 0) = ax;
        acc(i, 1) = ay;
        acc(i, 2) = az;
      });
      Kokkos::parallel_for("move", n, KOKKOS_LAMBDA(const int i) {
        for (int d = 0; d < 3; ++d) {
          vel(i, d) += 1e-4 * acc(i, d);
          pos(i, d) += 1e-4 * vel(i, d);
        }
      });
    }
    double e = 0;
    Kokkos::parallel_reduce("energy", n, KOKKOS_LAMBDA(const int i, double &t) {
      t += vel(i, 0) * vel(i, 0) + vel(i, 1) * vel(i, 1) + vel(i, 2) * vel(i, 2);
    }, e);
    Kokkos::fence();
    printf("nbody n=%d steps=%d energy=%.6e\n", n, steps, e);
  }
  Kokkos::finalize();
  return 0;
}
