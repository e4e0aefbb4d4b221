// Sorting with bins: Kokkos::sort on a part of a View (a BinSort inside),
// and a BinSort of keys that permutes a values View the same way; then a
// kernel reads the sorted data.  What the sorts run inside, and the
// temporary Views they free, are Kokkos' business.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <Kokkos_Sort.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 200;
    Kokkos::View<int *> keys("keys", n), part("part", n);
    Kokkos::View<double *> values("values", n);
    Kokkos::parallel_for(
        "init", n, KOKKOS_LAMBDA(const int i) {
          part(i) = n - i;
          keys(i) = (i * 37) % 101;
          values(i) = 0.5 * i;
        });
    Kokkos::sort(part, 50, 150);
    using op_t = Kokkos::BinOp1D<Kokkos::View<int *>>;
    op_t op(n / 4, 0, 100);
    Kokkos::BinSort<Kokkos::View<int *>, op_t> bins(keys, op, true);
    bins.create_permute_vector();
    bins.sort(keys);
    bins.sort(values);
    Kokkos::View<int> unsorted("unsorted");
    Kokkos::parallel_for(
        "check", n - 1, KOKKOS_LAMBDA(const int i) {
          if (keys(i) > keys(i + 1) || (i >= 50 && i < 149 && part(i) > part(i + 1)))
            Kokkos::atomic_increment(&unsorted());
        });
    Kokkos::fence();
    printf("%d %d %g\n", unsorted(), part(50), values(0));
  }
  Kokkos::finalize();
  return 0;
}
