// A View allocated while a kernel that reads the same memory through a raw
// pointer may still run: only the allocating thread's own order holds.
// Here the race is the kernel reading data the host rewrites afterwards.
// EXPECT: data-race view=a subkind=missing-fence nodes=parallel_for:read,host lines=15,17
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<double *, Kokkos::HostSpace> a("a", 10);
    Kokkos::View<double *> out("out", 10);
    Kokkos::parallel_for(
        "read", 10,
        KOKKOS_LAMBDA(const int i) { out(i) = a(i); });
    Kokkos::View<double *> other("other", 10);
    a(3) = 1.0;
    Kokkos::fence();
  }
  Kokkos::finalize();
  return 0;
}
