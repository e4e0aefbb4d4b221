// Float Views that MDRange kernels touch element by element, until their
// shadow keeps half-cells only: an iteration reading the element its
// neighbour writes, and the host reading what an unfenced kernel writes,
// are still found there.
// EXPECT: data-race view=u subkind=iteration-overlap nodes=parallel_for:shift,parallel_for:shift lines=25,25 ops=read,write
// EXPECT: data-race view=v subkind=missing-fence nodes=parallel_for:late,host lines=28,30 ops=write,read
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 512;
    Kokkos::View<float **> u("u", n, n + 1), v("v", n, n + 1);
    using MD = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    for (int s = 0; s < 3; ++s) {
      Kokkos::parallel_for("step", MD({1, 1}, {n - 1, n}), KOKKOS_LAMBDA(const int i, const int j) {
        v(i, j) = 0.25f * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1)) + 1.0f;
      });
      Kokkos::parallel_for("back", MD({0, 0}, {n, n + 1}),
                           KOKKOS_LAMBDA(const int i, const int j) { u(i, j) = v(i, j); });
    }
    Kokkos::fence();
    Kokkos::parallel_for("shift", MD({0, 0}, {n, n}),
                         KOKKOS_LAMBDA(const int i, const int j) { u(i, j) = u(i, j + 1); });
    Kokkos::fence();
    Kokkos::parallel_for("late", MD({0, 0}, {n, n + 1}),
                         KOKKOS_LAMBDA(const int i, const int j) { v(i, j) = i - j; });
    float s = 0;
    for (int j = 0; j < n; ++j) s += v(3, j);
    Kokkos::fence();
    printf("%g\n", s);
  }
  Kokkos::finalize();
  return 0;
}
