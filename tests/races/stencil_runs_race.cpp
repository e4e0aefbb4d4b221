// A stencil's neighbour reads over large Views (runs): u(i - 1), u(i) and
// u(i + 1) leave each word of u read by several iterations of "jacobi",
// which the host's write of u(7) races with (no fence after the kernel);
// "smooth" reads w(i - 1) and w(i + 1) and writes w(i), which its
// neighbours read, as do "own_first" and "left_first", which read their
// own element and the one before, in either order ("own_first" without
// its lines: at -O0 each access is checked as it comes, and a neighbour's
// read after the write is what races there); the int View k, read as u is
// by "ints", races with the host's write of k(9).  In two shorter Views,
// each alone in a MiB of memory (subviews of a larger one, from a MiB's
// start), "back" reads s(i - 3), which the iteration three after writes
// (the reads cover all of s but its last three words, the writes all but
// its first three), and "ahead" reads t(i + 4), which the iteration four
// after writes.
// EXPECT: data-race view=u subkind=missing-fence nodes=parallel_for:jacobi,host lines=39,40 ops=read,write
// EXPECT: data-race view=w subkind=iteration-overlap nodes=parallel_for:smooth,parallel_for:smooth lines=42,42 ops=read,write
// EXPECT: data-race view=y subkind=iteration-overlap nodes=parallel_for:own_first,parallel_for:own_first ops=read,write
// EXPECT: data-race view=z subkind=iteration-overlap nodes=parallel_for:left_first,parallel_for:left_first lines=49,49 ops=read,write
// EXPECT: data-race view=k subkind=missing-fence nodes=parallel_for:ints,host lines=52,53 ops=read,write
// EXPECT: data-race view=big subkind=iteration-overlap nodes=parallel_for:back,parallel_for:back lines=56,56 ops=read,write
// EXPECT: data-race view=big subkind=iteration-overlap nodes=parallel_for:ahead,parallel_for:ahead lines=58,58 ops=read,write
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 400000;
    const int small = 4096, mib = 1 << 17;
    Kokkos::View<double *> u("u", n), v("v", n), w("w", n), y("y", n), z("z", n), big("big", 3 * mib);
    const size_t at = (mib - (reinterpret_cast<size_t>(big.data()) >> 3) % mib) % mib;
    auto s = Kokkos::subview(big, std::make_pair(at, at + small));
    auto t = Kokkos::subview(big, std::make_pair(at + mib, at + mib + small));
    Kokkos::View<int *> k("k", n), m("m", n);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(const int i) { u(i) = w(i) = y(i) = z(i) = k(i) = i; });
    Kokkos::parallel_for("init_small", small, KOKKOS_LAMBDA(const int i) { s(i) = t(i) = i; });
    Kokkos::fence();
    Kokkos::parallel_for("jacobi", Kokkos::RangePolicy<>(1, n - 1),
                         KOKKOS_LAMBDA(const int i) { v(i) = (u(i - 1) + u(i) + u(i + 1)) / 3; });
    u(7) = 0;
    Kokkos::parallel_for("smooth", Kokkos::RangePolicy<>(1, n - 1),
                         KOKKOS_LAMBDA(const int i) { w(i) = 0.5 * (w(i - 1) + w(i + 1)); });
    Kokkos::parallel_for("own_first", Kokkos::RangePolicy<>(1, n), KOKKOS_LAMBDA(const int i) {
      const double own = y(i);
      v(i) = own;
      y(i) = own + y(i - 1);
    });
    Kokkos::parallel_for("left_first", Kokkos::RangePolicy<>(1, n),
                         KOKKOS_LAMBDA(const int i) { z(i) = 0.5 * z(i - 1) + z(i); });
    Kokkos::fence();
    Kokkos::parallel_for("ints", Kokkos::RangePolicy<>(1, n - 1),
                         KOKKOS_LAMBDA(const int i) { m(i) = k(i - 1) + k(i + 1); });
    k(9) = 0;
    Kokkos::fence();
    Kokkos::parallel_for("back", Kokkos::RangePolicy<>(3, small),
                         KOKKOS_LAMBDA(const int i) { s(i) = s(i - 3); });
    Kokkos::parallel_for("ahead", Kokkos::RangePolicy<>(0, small - 4),
                         KOKKOS_LAMBDA(const int i) { t(i) = t(i + 4); });
    Kokkos::fence();
    printf("%g %g %d %g %g\n", v(n / 2), w(n / 2), m(n / 2), s(9), t(9));
  }
  Kokkos::finalize();
  return 0;
}
