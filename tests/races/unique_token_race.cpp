// Per-thread scratch rows handed out by UniqueToken, as in
// unique_token_norace.cpp, but each iteration also writes the next
// iteration's output element: the token makes the row the iteration's own,
// not the rest of what it touches.
// EXPECT: data-race view=out subkind=iteration-overlap nodes=parallel_for:rows,parallel_for:rows lines=25,26
#include <Kokkos_Core.hpp>
#include <cstdio>

using space = Kokkos::DefaultExecutionSpace;
namespace KE = Kokkos::Experimental;

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 100, m = 16;
    KE::UniqueToken<space, KE::UniqueTokenScope::Global> token;
    Kokkos::View<double **> scratch("scratch", token.size(), m);
    Kokkos::View<double *> out("out", n + 1);
    Kokkos::parallel_for(
        "rows", n, KOKKOS_LAMBDA(const int i) {
          const int id = token.acquire();
          for (int j = 0; j < m; j++) scratch(id, j) = i + j;
          double s = 0;
          for (int j = 0; j < m; j++) s += scratch(id, j);
          out(i) = s;
          out(i + 1) = -s;
          token.release(id);
        });
    Kokkos::fence();
    printf("%g\n", out(n - 1));
  }
  Kokkos::finalize();
  return 0;
}
