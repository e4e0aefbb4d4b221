// A large View freed while the kernel that writes it may still be running:
// the deallocation (the last reference going out of scope) is not fenced.
// (Kokkos 3.6 and later fence before freeing host memory: no race there.)
// REQUIRES: kokkos-before-3.6
// EXPECT: data-race view=tmp subkind=use-after-free nodes=parallel_for:fill,host
#include <Kokkos_Core.hpp>

void work(int n) {
  Kokkos::View<double *> tmp("tmp", n);
  Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int i) { tmp(i) = i; });
}

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  work(400000);
  Kokkos::fence();
  work(400000);
  Kokkos::fence();
  Kokkos::finalize();
  return 0;
}
