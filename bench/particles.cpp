// Single precision and integer Views: particles (float positions and
// velocities, an int cell index each) pushed with RangePolicy kernels and
// binned with a count per cell, and a float MDRange diffusion on the grid
// of cells.  Neighbouring elements share 8-byte words throughout.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = argc > 1 ? atoi(argv[1]) : 1000000;
    const int steps = argc > 2 ? atoi(argv[2]) : 10;
    const int g = 256;
    Kokkos::View<float *> x("x", n), v("v", n);
    Kokkos::View<int *> cell("cell", n);
    Kokkos::View<float **> rho("rho", g, g), tmp("tmp", g, g);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) {
      x(i) = (i % 1000) / 1000.0f;
      v(i) = ((i * 7) % 13 - 6) / 600.0f;
    });
    using MD = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    for (int s = 0; s < steps; ++s) {
      Kokkos::parallel_for("push", n, KOKKOS_LAMBDA(const int i) {
        float y = x(i) + v(i);
        if (y < 0.0f || y >= 1.0f) {
          v(i) = -v(i);
          y = x(i);
        }
        x(i) = y;
        cell(i) = (int)(y * g) * g + i % g;
      });
      int occupied = 0;
      Kokkos::parallel_reduce("occupied", n, KOKKOS_LAMBDA(const int i, int &c) {
        c += cell(i) % 2;
      }, occupied);
      Kokkos::parallel_for("deposit", MD({0, 0}, {g, g}), KOKKOS_LAMBDA(const int i, const int j) {
        rho(i, j) = 0.5f * rho(i, j) + (float)occupied / n;
      });
      Kokkos::parallel_for("diffuse", MD({1, 1}, {g - 1, g - 1}),
                           KOKKOS_LAMBDA(const int i, const int j) {
                             tmp(i, j) = 0.25f * (rho(i - 1, j) + rho(i + 1, j) +
                                                  rho(i, j - 1) + rho(i, j + 1));
                           });
      Kokkos::deep_copy(rho, tmp);
    }
    float sum = 0;
    Kokkos::parallel_reduce("check", n, KOKKOS_LAMBDA(const int i, float &t) { t += x(i); }, sum);
    Kokkos::fence();
    printf("particles n=%d steps=%d sum=%.6e\n", n, steps, sum);
  }
  Kokkos::finalize();
  return 0;
}
