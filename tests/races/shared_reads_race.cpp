// Every iteration of a kernel reads all of a View, as in an n-body step:
// once several iterations have read a block of it, the next ones skip its
// cells (shared blocks).  A write by one iteration in the middle of the
// kernel, as a single store and as a loop, clears what was skipped: the
// reads of later iterations, at another line, are still found.  So is a
// host write after the kernel without a fence.
// EXPECT: data-race view=x subkind=iteration-overlap nodes=parallel_for:sums,parallel_for:sums lines=23,26 ops=write,read
// EXPECT: data-race view=x subkind=iteration-overlap nodes=parallel_for:sums,parallel_for:sums lines=23,29 ops=write,read
// EXPECT: data-race view=y subkind=iteration-overlap nodes=parallel_for:sums,parallel_for:sums lines=25,27 ops=write,read
// EXPECT: data-race view=y subkind=iteration-overlap nodes=parallel_for:sums,parallel_for:sums lines=25,30 ops=write,read
// EXPECT: data-race view=z subkind=missing-fence nodes=parallel_for:sums,host lines=28,34 ops=read,write
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1024, m = 64;
    Kokkos::View<double *> x("x", n), y("y", n), z("z", n), s("s", m);
    Kokkos::deep_copy(x, 1.0);
    Kokkos::deep_copy(y, 2.0);
    Kokkos::parallel_for("sums", m, KOKKOS_LAMBDA(const int i) {
      if (i == 40) x(500) = 3.0;
      double t = 0;
      if (i == 45) for (int j = 600; j < 640; ++j) y(j) = 4.0;
      for (int j = 0; j < n; ++j) t += x(j);
      for (int j = 0; j < n; ++j) t += y(j);
      for (int j = 0; j < n; ++j) t += z(j);
      if (i == 50) for (int j = 0; j < n; ++j) t += 2 * x(j);
      if (i == 55) for (int j = 0; j < n; ++j) t += 3 * y(j);
      s(i) = t;
    });
    // Nothing waits for the kernel: this write meets its reads of z.
    for (int j = 0; j < n; ++j) z(j) = 5.0;
    Kokkos::fence();
    printf("%g\n", s(0));
  }
  Kokkos::finalize();
  return 0;
}
