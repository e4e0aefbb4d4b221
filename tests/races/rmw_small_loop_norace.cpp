// Elements of 4 bytes read, then written back, by their own iterations only
// (x(i) += ...), in MDRange, RangePolicy and nested team loops over int and
// float Views whose neighbouring elements share 8-byte words.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 40, m = 3000;
    Kokkos::View<int **> g("g", n, n + 1);
    Kokkos::View<float *> f("f", m + 1);
    using MD = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;
    for (int s = 0; s < 3; ++s) {
      Kokkos::parallel_for(
          "rows", MD({0, 0}, {n, n + 1}),
          KOKKOS_LAMBDA(const int i, const int j) { g(i, j) += i + j; });
      Kokkos::parallel_for("floats", m + 1,
                           KOKKOS_LAMBDA(const int i) { f(i) += 0.5f * i; });
      using team_t = Kokkos::TeamPolicy<>::member_type;
      Kokkos::parallel_for(
          "teams", Kokkos::TeamPolicy<>(n, Kokkos::AUTO),
          KOKKOS_LAMBDA(const team_t &t) {
            const int i = t.league_rank();
            Kokkos::parallel_for(Kokkos::TeamThreadRange(t, n + 1),
                                 [&](const int j) { g(i, j) *= 2; });
          });
    }
    Kokkos::fence();
    double s = 0;
    Kokkos::parallel_reduce("check", m + 1,
                            KOKKOS_LAMBDA(const int i, double &t) { t += f(i) + g(i % n, i % (n + 1)); }, s);
    printf("%g\n", s);
  }
  Kokkos::finalize();
  return 0;
}
