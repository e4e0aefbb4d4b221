// A helper that is not inlined writes through a pointer to a variable of
// the host's stack that every iteration shares (captured by reference):
// iterations race on it, while the locals each iteration passes to the
// same helper are its own.
// EXPECT: data-race view=- subkind=iteration-overlap nodes=parallel_for:helper,parallel_for:helper lines=10,10
// EXPECT-TEXT: a variable on the stack of main thread
#include <Kokkos_Core.hpp>
#include <cstdio>

__attribute__((noinline)) void store(double *p, int i) { *p = 0.5 * i; }

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *> a("a", 100);
    double last = 0;
    Kokkos::parallel_for("helper", 100, [&](const int i) {
      double mine = 0;
      store(&mine, i);
      store(&last, i);
      a(i) = mine;
    });
    Kokkos::fence();
    printf("%g %g\n", a(99), last);
  }
  Kokkos::finalize();
  return 0;
}
