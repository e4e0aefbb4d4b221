// Kokkos before 3.6 frees a View's old allocation inside resize and
// realloc without a fence: a kernel still writing it, or an asynchronous
// copy still reading it, races with the free (use after free).  (Kokkos 3.6
// and later fence first.)  Kokkos' own copy of the old contents inside
// resize is not one of them.
// REQUIRES: kokkos-before-3.6
// EXPECT: data-race view=v subkind=use-after-free nodes=host,parallel_for:fill lines=19,18
// EXPECT: data-race view=w subkind=use-after-free lines=22,21
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::DefaultExecutionSpace exec;
    Kokkos::View<double *> v("v", 16), w("w", 16), h("h", 16);
    Kokkos::fence();
    Kokkos::parallel_for("fill", 16, KOKKOS_LAMBDA(const int i) { v(i) = i; });
    Kokkos::resize(v, 32);
    Kokkos::fence();
    Kokkos::deep_copy(exec, h, w);
    Kokkos::realloc(w, 32);
    exec.fence();
    printf("%g\n", v(3));
  }
  Kokkos::finalize();
  return 0;
}
