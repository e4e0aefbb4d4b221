// The host's horizon stops at an unfenced kernel ("slow"), and its earlier
// segments lie above it.  Their records are ordered before its later
// accesses, but those of an unfenced kernel after them are not: the
// host's second loop over h meets both in each cell, its own earlier write
// (ordered) and the "reader" kernel's read (not), and races with the read;
// its write of b meets only the kernel's write.
// EXPECT: data-race view=h subkind=missing-fence nodes=parallel_for:reader,host lines=23,25 ops=read,write
// EXPECT: data-race view=b subkind=missing-fence nodes=parallel_for:reader,host lines=23,27 ops=write,write
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 4096;
    Kokkos::View<double *, Kokkos::HostSpace> a("a", n), b("b", n), h("h", n);
    Kokkos::parallel_for("slow", n, KOKKOS_LAMBDA(const int i) { a(i) = i; });
    for (int i = 0; i < n; ++i)
      h(i) = i;
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += h(i);
    Kokkos::parallel_for("reader", n, KOKKOS_LAMBDA(const int i) { b(i) = h(i); });
    for (int i = 0; i < n; ++i)
      h(i) = 2.0 * i;
    for (int i = 0; i < n; ++i)
      b(i) = 0.5 * i;
    Kokkos::fence();
    printf("%g %g %g %g\n", s, a(5), b(5), h(5));
  }
  Kokkos::finalize();
  return 0;
}
