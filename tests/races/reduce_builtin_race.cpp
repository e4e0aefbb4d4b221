// A MaxLoc reduction into a View is fine, but its functor also records the
// last index it saw in a shared View element: every iteration writes it.
// EXPECT: data-race view=last subkind=iteration-overlap nodes=parallel_reduce:maxloc,parallel_reduce:maxloc lines=22,22
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    using MaxLocT = Kokkos::MaxLoc<double, int>;
    Kokkos::View<double *> x("x", n);
    Kokkos::View<int> last("last");
    Kokkos::View<MaxLocT::value_type, Kokkos::HostSpace> maxloc("maxloc");
    Kokkos::parallel_for(
        "init", n, KOKKOS_LAMBDA(const int i) { x(i) = (i * 37) % 101 - 50.0; });
    Kokkos::parallel_reduce(
        "maxloc", n,
        KOKKOS_LAMBDA(const int i, MaxLocT::value_type &v) {
          if (x(i) > v.val) {
            v.val = x(i);
            last() = i;
            v.loc = i;
          }
        },
        MaxLocT(maxloc));
    Kokkos::fence();
    printf("%g@%d %d\n", maxloc().val, maxloc().loc, last());
  }
  Kokkos::finalize();
  return 0;
}
