// A UniqueToken's row used after the token was released: from release(id)
// on, another iteration may hold id and use the same row, so the update
// after it races (before it, in unique_token_norace, the row is the
// iteration's own).
// EXPECT: data-race view=row subkind=iteration-overlap nodes=parallel_for:tally,parallel_for:tally lines=22,22
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::Experimental::UniqueToken<Kokkos::DefaultExecutionSpace> token;
    Kokkos::View<int *> row("row", token.size()), kept("kept", token.size());
    Kokkos::parallel_for("kept", 100, KOKKOS_LAMBDA(int i) {
      const int id = token.acquire();
      kept(id) += 1;
      token.release(id);
    });
    Kokkos::parallel_for("tally", 100, KOKKOS_LAMBDA(int i) {
      const int id = token.acquire();
      token.release(id);
      row(id) += 1;
    });
    Kokkos::fence();
    printf("%d %d\n", row(0), kept(0));
  }
  Kokkos::finalize();
  return 0;
}
