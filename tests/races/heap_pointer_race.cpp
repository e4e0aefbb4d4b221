// A raw heap pointer captured by the lambda: the race is on memory that is
// not a View.
// EXPECT: data-race view=- subkind=iteration-overlap nodes=parallel_for:smooth,parallel_for:smooth lines=15,15
// EXPECT-TEXT: data race on heap memory
#include <Kokkos_Core.hpp>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    double *p = static_cast<double *>(calloc(n + 1, sizeof(double)));
    Kokkos::parallel_for(
        "smooth", n,
        KOKKOS_LAMBDA(const int i) { p[i + 1] = 0.5 * (p[i] + p[i + 1]); });
    Kokkos::fence();
    free(p);
  }
  Kokkos::finalize();
  return 0;
}
