// The twin of instance_reuse_race: the first instance is fenced before it
// is destroyed, so the second instance's kernel comes after its work.
// REQUIRES: kokkos4
// EXPECT: no-report
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
      a.fence();
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
