// Wrapped indices (u((i + 1) % n), h(i & 255)), checked by one call before
// their loops, in pieces between the wraps: a mask that sends iterations i
// and i + 256 to one element; a periodic stencil updated in place, whose
// iteration n - 1 reads element 0 that iteration 0 writes; the same along
// the inner index of an MDRange; and a remainder by a View's extent
// (unsigned, 64 bits) that two iterations share; and a histogram of 4
// bins that every iteration adds into (4 elements race).
// EXPECT: data-race view=h subkind=iteration-overlap nodes=parallel_for:masked,parallel_for:masked lines=34,34
// EXPECT: data-race view=u subkind=iteration-overlap nodes=parallel_for:periodic,parallel_for:periodic lines=38,38
// EXPECT: data-race view=a subkind=iteration-overlap nodes=parallel_for:periodic_md,parallel_for:periodic_md lines=43,43
// EXPECT: data-race view=w subkind=iteration-overlap nodes=parallel_for:extent,parallel_for:extent lines=47,47
// EXPECT: data-race view=bins subkind=iteration-overlap nodes=parallel_for:bins,parallel_for:bins lines=51,51
// EXPECT-TEXT: raced on 4 elements
// EXPECT-TEXT: (h[3], element 3 of 256)
// EXPECT-TEXT: by parallel_for 'masked' iteration 259
// EXPECT-TEXT: by parallel_for 'masked' iteration 3
// EXPECT-TEXT: (w[0], element 0 of 100)
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1000, m = 64;
    Kokkos::View<double *> h("h", 256), u("u", n), w("w", 100), bins("bins", 4);
    Kokkos::View<double **> a("a", m, m);
    Kokkos::parallel_for("init", n, KOKKOS_LAMBDA(int i) { u(i) = i; });
    Kokkos::parallel_for("init_a", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {m, m}),
                         KOKKOS_LAMBDA(int i, int j) { a(i, j) = i + j; });
    Kokkos::fence();
    // Iterations 3 and 259 (and 515, 771) write h(3); only 3 to 258 are
    // run, with 256 more: the first wrap is after element 255.
    Kokkos::parallel_for("masked", Kokkos::RangePolicy<>(3, 3 + 256 + 1), KOKKOS_LAMBDA(int i) {
      h(i & 255) = i;
    });
    // Iteration i reads u((i + 1) % n), which iteration i + 1 writes.
    Kokkos::parallel_for("periodic", n, KOKKOS_LAMBDA(int i) {
      u(i) = 0.5 * u((i + 1) % n);
    });
    // Along j, periodic and in place.
    Kokkos::parallel_for("periodic_md", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {m, m}),
                         KOKKOS_LAMBDA(int i, int j) {
      a(i, j) = 0.5 * a(i, (j + m - 1) % m);
    });
    // Iterations 0 and 100 write w(0) (to 7 and 107).
    Kokkos::parallel_for("extent", 108, KOKKOS_LAMBDA(int i) {
      w(size_t(i) % w.extent(0)) = i;
    });
    // Every iteration adds into one of 4 bins: 4 elements race, however
    // many accesses do.
    Kokkos::parallel_for("bins", 1000, KOKKOS_LAMBDA(int i) { bins(i % 4) += 1; });
    Kokkos::fence();
    printf("%g %g %g %g %g\n", h(3), u(0), a(1, 1), w(7), bins(0));
  }
  Kokkos::finalize();
  return 0;
}
