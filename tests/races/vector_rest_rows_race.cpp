// Rows of 7 doubles that each iteration fills in a loop the compiler
// vectorizes: its vector loop writes the first four of a row and its
// remainder loop the last three, two accesses of one source line that
// kernel's runs keep as one row.  Races they must still show: an
// iteration that writes the first and the last element of the next
// iteration's row, and the host reading a row's remainder that an
// unfenced kernel wrote.
// EXPECT: data-race view=A subkind=iteration-overlap nodes=parallel_for:fill,parallel_for:fill lines=23,25 ops=write,write
// EXPECT: data-race view=A subkind=iteration-overlap nodes=parallel_for:fill,parallel_for:fill lines=23,27 ops=write,write
// EXPECT: data-race view=A subkind=missing-fence nodes=parallel_for:refill,host lines=32,34 ops=write,read
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    // (A row length the compiler cannot see: a vector loop and its
    // remainder, not an unrolled one.)
    const int n = 40000, m = 7 + (argc > 100);
    Kokkos::View<double *> A("A", n * m);
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(const int j) {
      for (int i = 0; i < m; ++i)
        A(j * m + i) = j + 0.5 * i;
      if (j == 1000)
        A((j + 1) * m) = -1.0;
      if (j == 3000)
        A((j + 1) * m + m - 1) = -2.0;
    });
    Kokkos::fence();
    Kokkos::parallel_for("refill", n, KOKKOS_LAMBDA(const int j) {
      for (int i = 0; i < m; ++i)
        A(j * m + i) = 2.0 * j + i;
    });
    double s = A(500 * m + 5);
    Kokkos::fence();
    printf("%g\n", s);
  }
  Kokkos::finalize();
  return 0;
}
