// An instance destroyed with its work never fenced, then a new one: Kokkos
// makes the second at the address of the first's internal object, and
// kkrace must not take it for the same instance (its work would look FIFO
// after the first's).  The two kernels write the same View: a race.
// REQUIRES: kokkos4
// EXPECT: data-race view=data subkind=missing-fence nodes=parallel_for:first,parallel_for:second lines=18,22
#include <Kokkos_Core.hpp>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    using exec_t = Kokkos::DefaultHostExecutionSpace;
    Kokkos::View<double *, exec_t> data("data", 10);
    Kokkos::fence();
    {
      exec_t a = Kokkos::Experimental::partition_space(exec_t(), 1)[0];
      Kokkos::parallel_for("first", Kokkos::RangePolicy<exec_t>(a, 0, 10),
                           KOKKOS_LAMBDA(const int i) { data(i) = 1; });
    }
    exec_t b = Kokkos::Experimental::partition_space(exec_t(), 1)[0];
    Kokkos::parallel_for("second", Kokkos::RangePolicy<exec_t>(b, 0, 10),
                         KOKKOS_LAMBDA(const int i) { data(i) = 2; });
    b.fence();
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
