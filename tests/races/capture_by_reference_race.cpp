// A host variable captured by reference and summed into by every iteration:
// a race on the host stack (use parallel_reduce).
// EXPECT: data-race view=- subkind=iteration-overlap nodes=parallel_for:sum,parallel_for:sum lines=13,13
// EXPECT-TEXT: a variable on the stack of main thread
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *> x("x", 100);
    double sum = 0;
    Kokkos::parallel_for("sum", 100, [&](const int i) { sum += x(i); });
    Kokkos::fence();
    printf("%g\n", sum);
  }
  Kokkos::finalize();
  return 0;
}
