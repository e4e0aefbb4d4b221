// Arrays of doubles whose shadow takes compact words (one record a word):
// a sparse matrix's values, written a row of 7 per iteration in an inner
// loop that the compiler unrolls (each k a store that the pass checks as a
// loop over the iterations, 56 bytes apart), then read by teams, a row at
// a time, with a gather; and a matrix that the host fills, read after a
// fence by vector lanes.  Races it must still show: an iteration that
// writes the first value of the next row, a team reading a value that the
// host writes before the fence, and a team's thread writing an element of
// the row that another team's lanes read in the same kernel, after them
// and before them; and in the tutorials' y^T A x with vector lanes, a
// thread writing a value of the row that another team's thread read in the
// second of two kernels.
// EXPECT: data-race view=val subkind=iteration-overlap nodes=parallel_for:fill,parallel_for:fill lines=32,35 ops=write,write
// EXPECT: data-race view=val subkind=missing-fence nodes=host,parallel_for:rows lines=49,45 ops=write,read
// EXPECT: data-race view=A subkind=iteration-overlap nodes=parallel_for:lanes,parallel_for:lanes lines=67,70 ops=read,write
// EXPECT: data-race view=A subkind=iteration-overlap nodes=parallel_for:lanes,parallel_for:lanes lines=67,72 ops=read,write
// EXPECT: data-race view=B subkind=iteration-overlap nodes=parallel_reduce:yAx,parallel_reduce:yAx lines=113,117 ops=read,write
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using team_t = Kokkos::TeamPolicy<>::member_type;
    const int n = 300000, K = 7; /* 16 MB: several chunks */
    Kokkos::View<double *> val("val", n * K), x("x", n), y("y", n);
    Kokkos::View<int *> col("col", n * K);
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int i) {
      const int sz = K;
      for (int k = 0; k < sz; ++k) {
        col(i * K + k) = (i + (k - 3) * 101 + n) % n;
        val(i * K + k) = k == 3 ? 4.0 : -0.5;
      }
      if (i == 200001)
        val(i * K + K) = 1.0;
      x(i) = 1.0;
    });
    Kokkos::fence();
    Kokkos::parallel_for("rows", Kokkos::TeamPolicy<>(n / 16, Kokkos::AUTO),
                         KOKKOS_LAMBDA(const team_t &team) {
                           for (int r = team.league_rank() * 16; r < team.league_rank() * 16 + 16; ++r) {
                             double s = 0;
                             Kokkos::parallel_reduce(
                                 Kokkos::TeamThreadRange(team, r * K, r * K + K),
                                 [&](const int k, double &t) { t += val(k) * x(col(k)); }, s);
                             Kokkos::single(Kokkos::PerTeam(team), [&]() { y(r) = s; });
                           }
                         });
    val(K * 100000 + 2) = 2.0;
    Kokkos::fence();
    const int rows = 256, cols = 4096; /* 8 MB */
    Kokkos::View<double **> A("A", rows, cols);
    Kokkos::View<double *> out("out", rows);
    for (int j = 0; j < rows; ++j)
      for (int i = 0; i < cols; ++i)
        A(j, i) = 1.0 / (1 + i);
    Kokkos::fence();
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
                if (j == 100)
                  A(j + 1, 7) = 0.0;
                if (j == 150)
                  A(j - 1, 9) *= 2.0;
              }, s);
          Kokkos::single(Kokkos::PerTeam(team), [&]() { out(j) = s; });
        });
    Kokkos::fence();
    /* The tutorials' y^T A x with vector lanes: a team per element e,
     * its threads over the rows, each row's lanes (one strand with their
     * thread) over the columns.  The second kernel reads the words that
     * the first one's reads left; element 5's thread 5 then writes a
     * value of element 4's row 5, read by that team before it. */
    /* (Sizes the compiler does not know, as the tutorials read theirs.) */
    const int E = argc > 100 ? 1 : 8, N = argc > 100 ? 1 : 256,
              M = argc > 100 ? 1 : 1024; /* 16 MB */
    Kokkos::View<double **> yv("yv", E, N), xv("xv", E, M);
    Kokkos::View<double ***> B("B", E, N, M);
    auto hy = Kokkos::create_mirror_view(yv);
    auto hx = Kokkos::create_mirror_view(xv);
    auto hB = Kokkos::create_mirror_view(B);
    for (int e = 0; e < E; ++e) {
      for (int j = 0; j < N; ++j)
        hy(e, j) = 1.0;
      for (int i = 0; i < M; ++i)
        hx(e, i) = 1.0;
      for (int j = 0; j < N; ++j)
        for (int i = 0; i < M; ++i)
          hB(e, j, i) = 1.0;
    }
    Kokkos::deep_copy(yv, hy);
    Kokkos::deep_copy(xv, hx);
    Kokkos::deep_copy(B, hB);
    double result = 0;
    for (int rep = 0; rep < 2; ++rep) {
      Kokkos::parallel_reduce(
          "yAx", Kokkos::TeamPolicy<>(E, Kokkos::AUTO, 32),
          KOKKOS_LAMBDA(const team_t &team, double &update) {
            const int e = team.league_rank();
            double tempN = 0;
            Kokkos::parallel_reduce(
                Kokkos::TeamThreadRange(team, N), [&](const int j, double &innerN) {
                  double tempM = 0;
                  Kokkos::parallel_reduce(Kokkos::ThreadVectorRange(team, M),
                                          [&](const int i, double &innerM) { innerM += B(e, j, i) * xv(e, i); },
                                          tempM);
                  innerN += yv(e, j) * tempM;
                  if (rep == 1 && e == 5 && j == 5)
                    B(e - 1, j, 77) = 3.0;
                }, tempN);
            Kokkos::single(Kokkos::PerTeam(team), [&]() { update += tempN; });
          },
          result);
    }
    printf("%g %g %g\n", y(5), out(3), result);
  }
  Kokkos::finalize();
  return 0;
}
