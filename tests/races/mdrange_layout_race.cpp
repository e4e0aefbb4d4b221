// MDRange kernels that run again: their ids are laid out by the extents
// they had before, so that rows longer than 64 (rank 3) or 1024 (rank 2)
// pack whole and the reports name the exact iterations.  Each kernel first
// runs without its race (writes only), then with it: iteration (.., k)
// reads what iteration (.., k + 1) writes, at one k beyond the first
// layout's rows.  A kernel that grows past what it had (rows of 10, then
// of 100) hashes the rows beyond and still finds its race.
// EXPECT: data-race view=w3 subkind=iteration-overlap nodes=parallel_for:rows3,parallel_for:rows3 lines=25,27
// EXPECT: data-race view=w2 subkind=iteration-overlap nodes=parallel_for:rows2,parallel_for:rows2 lines=36,38
// EXPECT: data-race view=g3 subkind=iteration-overlap nodes=parallel_for:grows,parallel_for:grows lines=47,49
// EXPECT-TEXT: iteration (2, 3, 80):
// EXPECT-TEXT: iteration (2, 3, 81):
// EXPECT-TEXT: iteration (1, 1200):
// EXPECT-TEXT: iteration (1, 1201):
#include <Kokkos_Core.hpp>

using MD3 = Kokkos::MDRangePolicy<Kokkos::Rank<3>>;
using MD2 = Kokkos::MDRangePolicy<Kokkos::Rank<2>>;

struct Rows3 {
  Kokkos::View<double ***> w;
  int racy;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, const int j, const int k) const {
    if (racy && i == 2 && j == 3 && k == 80)
      w(i, j, k) = w(i, j, k + 1) + 1.0;
    else
      w(i, j, k) = 2.0;
  }
};

struct Rows2 {
  Kokkos::View<double **> w;
  int racy;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, const int j) const {
    if (racy && i == 1 && j == 1200)
      w(i, j) = w(i, j + 1) + 1.0;
    else
      w(i, j) = 2.0;
  }
};

struct Grows {
  Kokkos::View<double ***> w;
  int racy;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, const int j, const int k) const {
    if (racy && i == 1 && j == 2 && k == 80)
      w(i, j, k) += w(i, j, k + 1);
    else
      w(i, j, k) = 3.0;
  }
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double ***> w3("w3", 3, 4, 100), g3("g3", 3, 4, 100);
    Kokkos::View<double **> w2("w2", 2, 1500);
    for (int racy = 0; racy < 2; racy++) {
      Kokkos::parallel_for("rows3", MD3({0, 0, 0}, {3, 4, 99}), Rows3{w3, racy});
      Kokkos::parallel_for("rows2", MD2({0, 0}, {2, 1499}), Rows2{w2, racy});
      Kokkos::fence();
    }
    Kokkos::parallel_for("grows", MD3({0, 0, 0}, {3, 4, 10}), Grows{g3, 0});
    Kokkos::parallel_for("grows", MD3({0, 0, 0}, {3, 4, 99}), Grows{g3, 1});
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
