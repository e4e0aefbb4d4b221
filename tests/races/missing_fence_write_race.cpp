// The host overwrites the input of a kernel that may not have read it yet,
// and reads its output, which it may not have written yet.
// EXPECT: data-race view=in subkind=missing-fence nodes=parallel_for:scale,host lines=17,18 ops=read,write
// EXPECT: data-race view=out subkind=missing-fence nodes=parallel_for:scale,host lines=17,18 ops=read,write
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 256;
    Kokkos::View<double *> in("in", n), out("out", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) { in(i) = i; });
    Kokkos::fence();
    for (int step = 0; step < 2; ++step) {
      Kokkos::parallel_for(
          "scale", n,
          KOKKOS_LAMBDA(const int i) { out(i) = 2 * in(i); });
      for (int i = 0; i < n; ++i) in(i) = out(i);
    }
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
