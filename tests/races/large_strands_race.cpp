// Two iterations of one kernel each loop over all of a large View: both
// write every element, and nothing orders the two iterations.
// EXPECT: data-race view=a subkind=iteration-overlap nodes=parallel_for:halves,parallel_for:halves lines=15,15 ops=write,write
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 400000;
    Kokkos::View<double *> a("a", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) { a(i) = i; });
    Kokkos::parallel_for(
        "halves", 2, KOKKOS_LAMBDA(const int k) {
          for (int j = 0; j < n; ++j)
            a(j) = k;
        });
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
