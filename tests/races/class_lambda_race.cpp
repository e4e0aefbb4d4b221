// A solver class whose kernels are KOKKOS_CLASS_LAMBDAs over its member
// Views: an in-place update reads the neighbours that other iterations
// write, and the host writes the result before a fence.
// EXPECT: data-race view=u subkind=iteration-overlap nodes=parallel_for:relax,parallel_for:relax lines=25,25 ops=write,read
// EXPECT: data-race view=u subkind=missing-fence nodes=host,parallel_for:relax lines=36,25 ops=write,write
#include <Kokkos_Core.hpp>

#ifndef KOKKOS_CLASS_LAMBDA
#define KOKKOS_CLASS_LAMBDA [ =, *this ]
#endif

struct Heat {
  int n;
  Kokkos::View<double *> u;
  double alpha = 0.1;
  explicit Heat(int n_) : n(n_), u("u", n_) {}
  void init() {
    Kokkos::parallel_for(
        "init", n, KOKKOS_CLASS_LAMBDA(const int i) { u(i) = i % 3; });
  }
  void relax() {
    Kokkos::parallel_for(
        "relax", Kokkos::RangePolicy<>(1, n - 1),
        KOKKOS_CLASS_LAMBDA(const int i) {
          u(i) = u(i) + alpha * (u(i - 1) - 2 * u(i) + u(i + 1));
        });
  }
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Heat h(1000);
    h.init();
    h.relax();
    h.u(5) = 1;
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
