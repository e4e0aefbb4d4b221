// Atomic adds do not race with each other, but a plain write to the same
// element does race with them.
// EXPECT: data-race view=bins subkind=iteration-overlap nodes=parallel_for:bin,parallel_for:bin atomic=0,1 lines=17,19
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100;
    Kokkos::View<int *> bins("bins", 10);
    Kokkos::View<int *> v("v", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) { v(i) = i; });
    Kokkos::fence();
    Kokkos::parallel_for(
        "bin", n, KOKKOS_LAMBDA(const int i) {
          if (i != 50)
            Kokkos::atomic_add(&bins(v(i) % 10), 1);
          else
            bins(0) = 0;
        });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
