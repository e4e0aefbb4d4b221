// Every iteration reads one shared coefficient; one iteration also updates
// it.  Many strands reading the same element is fine; a write among them is
// a race with each of those reads.
// EXPECT: data-race view=coef subkind=iteration-overlap nodes=parallel_for:scale,parallel_for:scale lines=17,19
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000;
    Kokkos::View<double *> x("x", n), coef("coef", 1);
    Kokkos::deep_copy(coef, 2.0);
    Kokkos::parallel_for("scale", n, KOKKOS_LAMBDA(const int i) {
      double c;
      {
        c = coef(0);
      }
      if (i == n / 2) coef(0) = 3.0;
      x(i) *= c;
    });
    Kokkos::fence();
    printf("%g\n", x(0));
  }
  Kokkos::finalize();
  return 0;
}
