// Arrays of doubles in compact words (one record a word), as
// compact_words_race has them, with nothing racing: a sparse matrix's
// values written a row of 7 per iteration (an unrolled inner loop: strided
// checks), read after a fence by teams twice, then rewritten by a kernel
// ordered after them; a second such array read by the next kernel without
// a fence (its words then take two records each, and become cells); and
// a matrix that the host fills, read after a fence by vector lanes twice,
// then scaled by a kernel.  The sums are checked.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using team_t = Kokkos::TeamPolicy<>::member_type;
    const int n = 300000, K = 7; /* 16 MB: several chunks */
    Kokkos::View<double *> val("val", n * K), w("w", n * K), y("y", n);
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int i) {
      for (int k = 0; k < K; ++k) {
        val(i * K + k) = k == 3 ? 4.0 : -0.5;
        w(i * K + k) = i + k;
      }
    });
    /* (No fence: each of w's words keeps the fill's write and this read.) */
    Kokkos::parallel_for("next", n, KOKKOS_LAMBDA(const int i) {
      y(i) = w(i * K) + w(i * K + K - 1);
    });
    Kokkos::fence();
    double total = 0;
    for (int rep = 0; rep < 2; ++rep) {
      double s = 0;
      Kokkos::parallel_reduce(
          "rows", Kokkos::TeamPolicy<>(n / 16, Kokkos::AUTO),
          KOKKOS_LAMBDA(const team_t &team, double &u) {
            for (int r = team.league_rank() * 16; r < team.league_rank() * 16 + 16; ++r) {
              double t = 0;
              Kokkos::parallel_reduce(
                  Kokkos::TeamThreadRange(team, r * K, r * K + K),
                  [&](const int k, double &v) { v += val(k) * y(r); }, t);
              Kokkos::single(Kokkos::PerTeam(team), [&]() { u += t; });
            }
          },
          s);
      total += s;
    }
    Kokkos::parallel_for("rescale", n * K, KOKKOS_LAMBDA(const int k) { val(k) *= 2.0; });
    Kokkos::fence();
    const int rows = 256, cols = 4096; /* 8 MB */
    Kokkos::View<double **> A("A", rows, cols);
    Kokkos::View<double *> out("out", rows);
    for (int j = 0; j < rows; ++j)
      for (int i = 0; i < cols; ++i)
        A(j, i) = 1.0;
    Kokkos::fence();
    for (int rep = 0; rep < 2; ++rep)
      Kokkos::parallel_for(
          "lanes", Kokkos::TeamPolicy<>(rows, Kokkos::AUTO, 8),
          KOKKOS_LAMBDA(const team_t &team) {
            const int j = team.league_rank();
            double s = 0;
            Kokkos::parallel_reduce(
                Kokkos::TeamThreadRange(team, 1), [&](const int, double &t) {
                  double u = 0;
                  Kokkos::parallel_reduce(Kokkos::ThreadVectorRange(team, cols),
                                          [&](const int i, double &v) { v += A(j, i); }, u);
                  t += u;
                }, s);
            Kokkos::single(Kokkos::PerTeam(team), [&]() { out(j) += s; });
          });
    Kokkos::parallel_for("scale", rows, KOKKOS_LAMBDA(const int j) {
      for (int i = 0; i < cols; ++i)
        A(j, i) *= out(j);
    });
    Kokkos::fence();
    /* Each row: 4 - 6 * 0.5 = 1, times y(r) = 2r + 6; twice. */
    double want = 0;
    for (int r = 0; r < n; ++r)
      want += 2.0 * (2.0 * r + 6);
    double got_val = 0;
    for (int k = 0; k < n * K; ++k)
      got_val += val(k);
    printf("%.1f %.1f %.1f %g %g\n", total, want, got_val, out(3), A(5, 9));
    if (total != want || got_val != 2.0 * n || out(3) != 2.0 * cols ||
        A(5, 9) != 2.0 * cols)
      return 1;
  }
  Kokkos::finalize();
  return 0;
}
