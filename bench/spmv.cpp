// Sparse matrix-vector products with TeamPolicy (one team per row block,
// a nested reduction per row) and dot products: the inner loop of CG.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = argc > 1 ? atoi(argv[1]) : 200000;
    const int iters = argc > 2 ? atoi(argv[2]) : 10;
    const int per_row = 7;
    Kokkos::View<int *> rowptr("rowptr", n + 1), col("col", n * per_row);
    Kokkos::View<double *> val("val", n * per_row), x("x", n), y("y", n);
    Kokkos::parallel_for("matrix", n, KOKKOS_LAMBDA(const int i) {
      rowptr(i + 1) = (i + 1) * per_row;
      for (int k = 0; k < per_row; ++k) {
        int j = i + (k - per_row / 2) * 97;
        col(i * per_row + k) = ((j % n) + n) % n;
        val(i * per_row + k) = k == per_row / 2 ? 4.0 : -0.5;
      }
      x(i) = 1.0;
    });
    Kokkos::fence();
    using team_t = Kokkos::TeamPolicy<>::member_type;
    const int rows_per_team = 16;
    const int league = (n + rows_per_team - 1) / rows_per_team;
    double norm = 0;
    for (int it = 0; it < iters; ++it) {
      Kokkos::parallel_for(
          "spmv", Kokkos::TeamPolicy<>(league, Kokkos::AUTO),
          KOKKOS_LAMBDA(const team_t &team) {
            const int first = team.league_rank() * rows_per_team;
            const int last = first + rows_per_team < n ? first + rows_per_team : n;
            for (int row = first; row < last; ++row) {
              double sum = 0;
              Kokkos::parallel_reduce(
                  Kokkos::TeamThreadRange(team, rowptr(row), rowptr(row + 1)),
                  [&](const int k, double &s) { s += val(k) * x(col(k)); }, sum);
              Kokkos::single(Kokkos::PerTeam(team), [&]() { y(row) = sum; });
            }
          });
      double dot = 0;
      Kokkos::parallel_reduce("dot", n,
                              KOKKOS_LAMBDA(const int i, double &d) { d += y(i) * y(i); },
                              dot);
      norm = dot;
      Kokkos::parallel_for("scale", n, KOKKOS_LAMBDA(const int i) { x(i) = y(i) / (1.0 + dot); });
    }
    Kokkos::fence();
    printf("spmv n=%d iters=%d norm=%.6e\n", n, iters, norm);
  }
  Kokkos::finalize();
  return 0;
}
