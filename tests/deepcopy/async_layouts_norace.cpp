// Asynchronous copies of every shape are work items on exec: a rank-3
// LayoutLeft View into a LayoutRight one (element by element), a strided
// subview into a contiguous one, and a fill of a non-contiguous subview.
// The host touches each destination after exec.fence(): no report.
// EXPECT: no-report
// RUN: kokkos
// RUN: minikokkos model=minikokkos
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::DefaultExecutionSpace exec;
    Kokkos::View<double ***, Kokkos::LayoutLeft> left("left", 3, 4, 5);
    Kokkos::View<double ***, Kokkos::LayoutRight> right("right", 3, 4, 5);
    Kokkos::View<double **> grid("grid", 8, 8);
    Kokkos::View<double *> dst1("dst1", 8);
    Kokkos::parallel_for("init", Kokkos::RangePolicy<>(exec, 0, 8),
                         KOKKOS_LAMBDA(const int i) { right(i % 3, i % 4, i % 5) = i; });
    exec.fence();
    auto column = Kokkos::subview(grid, Kokkos::ALL(), 3);
    Kokkos::deep_copy(exec, left, right);
    Kokkos::deep_copy(exec, dst1, column);
    Kokkos::deep_copy(exec, Kokkos::subview(grid, Kokkos::ALL(), 5), 1.5);
    exec.fence();
    left(1, 2, 3) = 7;
    double x = dst1(4);
    double y = grid(6, 5);
    printf("%g %g %g\n", left(1, 2, 3), x, y);
  }
  Kokkos::finalize();
  return 0;
}
