// The correct twin of fence_in_kernel_deadlock.cpp and
// fence_calls_in_kernel_deadlock.cpp: the fences, copies and allocations
// are made between kernels, and what a kernel may do inside -- a nested
// reduction over a TeamThreadRange, a subview, an unmanaged View of memory
// that exists already, a team_barrier -- neither fences nor allocates.
// EXPECT: no-report
#include <Kokkos_Core.hpp>

using policy = Kokkos::TeamPolicy<>;
using member = policy::member_type;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int teams = 4, n = 16;
    Kokkos::View<double **> a("a", teams, n);
    Kokkos::View<double *> s("s", teams), b("b", teams * n);
    Kokkos::parallel_for(
        "fill", policy(teams, Kokkos::AUTO), KOKKOS_LAMBDA(const member &m) {
          const int t = m.league_rank();
          auto row = Kokkos::subview(a, t, Kokkos::ALL());
          Kokkos::View<double *, Kokkos::MemoryTraits<Kokkos::Unmanaged>> flat(
              b.data() + t * n, n);
          Kokkos::parallel_for(Kokkos::TeamThreadRange(m, n), [&](int j) {
            row(j) = t + j;
            flat(j) = 1.0;
          });
          m.team_barrier();
          double sum = 0;
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(m, n),
              [&](int j, double &acc) { acc += row(j) * flat(j); }, sum);
          Kokkos::single(Kokkos::PerTeam(m), [&]() { s(t) = sum; });
        });
    Kokkos::fence();
    Kokkos::DefaultExecutionSpace().fence();
    auto h = Kokkos::create_mirror_view(s);
    Kokkos::deep_copy(h, s);
    Kokkos::View<double *> c("c", teams);
    Kokkos::deep_copy(c, 2.0);
    Kokkos::resize(c, 2 * teams);
    double total = 0;
    Kokkos::parallel_reduce(
        "total", teams, KOKKOS_LAMBDA(int i, double &acc) { acc += s(i); }, total);
    for (int i = 0; i < teams; ++i)
      h(i) += total;
  }
  Kokkos::finalize();
  return 0;
}
