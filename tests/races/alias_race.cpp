// b is a shallow copy of a (the same memory): reading b(i + 1) races with
// writing a(i + 1) in the next iteration.
// EXPECT: data-race view=a subkind=iteration-overlap nodes=parallel_for:update,parallel_for:update lines=15,15
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::View<double *> a("a", n + 1);
    Kokkos::View<double *> b = a;
    Kokkos::parallel_for(
        "update", n,
        KOKKOS_LAMBDA(const int i) {
          a(i) = b(i + 1) + 1.0;
        });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
