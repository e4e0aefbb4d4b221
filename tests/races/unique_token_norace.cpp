// Per-thread scratch rows handed out by UniqueToken: an iteration acquires a
// token, uses the row of that token alone, and releases it.  Two iterations
// that hold the same token are never running at the same time (on Serial
// every iteration gets token 0, one after the other).  Both scopes: Global
// (size() is the concurrency) and Instance (a size of our choice).
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

using space = Kokkos::DefaultExecutionSpace;
namespace KE = Kokkos::Experimental;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100, m = 16;
    KE::UniqueToken<space, KE::UniqueTokenScope::Global> global;
    KE::UniqueToken<space, KE::UniqueTokenScope::Instance> instance(4);
    Kokkos::View<double **> scratch("scratch", global.size(), m);
    Kokkos::View<double **> scratch2("scratch2", instance.size(), m);
    Kokkos::View<double *> out("out", n);
    Kokkos::parallel_for(
        "global", n, KOKKOS_LAMBDA(const int i) {
          const int id = global.acquire();
          for (int j = 0; j < m; j++) scratch(id, j) = i + j;
          double s = 0;
          for (int j = 0; j < m; j++) s += scratch(id, j);
          out(i) = s;
          global.release(id);
        });
    Kokkos::parallel_for(
        "instance", n, KOKKOS_LAMBDA(const int i) {
          const int id = instance.acquire();
          scratch2(id, 0) = i;
          for (int j = 1; j < m; j++) scratch2(id, j) = scratch2(id, j - 1) + 1;
          out(i) += scratch2(id, m - 1);
          instance.release(id);
        });
    Kokkos::fence();
    printf("%g\n", out(n - 1));
  }
  Kokkos::finalize();
  return 0;
}
