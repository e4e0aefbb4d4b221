// Two heap arrays, one read and one written: no iteration touches another's
// element.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    double *p = static_cast<double *>(calloc(n + 1, sizeof(double)));
    double *q = static_cast<double *>(calloc(n + 1, sizeof(double)));
    Kokkos::parallel_for(
        "smooth", n,
        KOKKOS_LAMBDA(const int i) { q[i + 1] = 0.5 * (p[i] + p[i + 1]); });
    Kokkos::fence();
    free(p);
    free(q);
  }
  Kokkos::finalize();
  return 0;
}
