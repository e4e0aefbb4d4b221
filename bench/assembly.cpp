// Patterns of a finite-element or particle-in-cell code that the other
// workloads leave out: a scatter-add into shared nodes with
// Kokkos::atomic_add (each element adds into its four corner nodes, which
// neighbouring elements share), a histogram through a ScatterView, and a
// TeamPolicy kernel that stages a tile in team scratch, meets at a
// team_barrier and reads its neighbours' entries from the tile.
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = argc > 1 ? atoi(argv[1]) : 512;   // elements per side
    const int steps = argc > 2 ? atoi(argv[2]) : 5;
    const int nodes = (n + 1) * (n + 1), tile = 256;
    Kokkos::View<double *> f("f", nodes), u("u", nodes), smooth("smooth", nodes);
    Kokkos::View<int *> hist("hist", 64);
    Kokkos::parallel_for("init", nodes, KOKKOS_LAMBDA(const int i) { u(i) = (i % 97) / 97.0; });
    using team_t = Kokkos::TeamPolicy<>::member_type;
    using scratch_view =
        Kokkos::View<double *, Kokkos::DefaultExecutionSpace::scratch_memory_space,
                     Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    const int tiles = nodes / tile;
    double total = 0;
    for (int s = 0; s < steps; ++s) {
      Kokkos::deep_copy(f, 0.0);
      Kokkos::parallel_for("assemble", n * n, KOKKOS_LAMBDA(const int e) {
        const int i = e / n, j = e % n, c = i * (n + 1) + j;
        const double ue = 0.25 * (u(c) + u(c + 1) + u(c + n + 1) + u(c + n + 2));
        Kokkos::atomic_add(&f(c), ue);
        Kokkos::atomic_add(&f(c + 1), ue);
        Kokkos::atomic_add(&f(c + n + 1), ue);
        Kokkos::atomic_add(&f(c + n + 2), ue);
      });
      Kokkos::Experimental::ScatterView<int *> sv(hist);
      Kokkos::parallel_for("histogram", nodes, KOKKOS_LAMBDA(const int i) {
        auto h = sv.access();
        h((int)(f(i) * 16) & 63) += 1;
      });
      Kokkos::Experimental::contribute(hist, sv);
      Kokkos::parallel_for(
          "tiles",
          Kokkos::TeamPolicy<>(tiles, Kokkos::AUTO)
              .set_scratch_size(0, Kokkos::PerTeam(scratch_view::shmem_size(tile))),
          KOKKOS_LAMBDA(const team_t &m) {
            const int base = m.league_rank() * tile;
            scratch_view t(m.team_scratch(0), tile);
            Kokkos::parallel_for(Kokkos::TeamThreadRange(m, tile), [&](const int k) {
              t(k) = f(base + k);
            });
            m.team_barrier();
            Kokkos::parallel_for(Kokkos::TeamThreadRange(m, tile), [&](const int k) {
              smooth(base + k) = 0.5 * t(k) + 0.25 * (t((k + 1) % tile) + t((k + tile - 1) % tile));
            });
          });
      double sum = 0;
      Kokkos::parallel_reduce("sum", tiles * tile, KOKKOS_LAMBDA(const int i, double &a) {
        a += smooth(i);
      }, sum);
      total += sum;
      Kokkos::parallel_for("update", nodes, KOKKOS_LAMBDA(const int i) {
        u(i) = 0.9 * u(i) + 0.1 * smooth(i % (tiles * tile)) / 4;
      });
    }
    Kokkos::fence();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), hist);
    printf("assembly n=%d steps=%d total=%.6e hist0=%d\n", n, steps, total, h(0));
  }
  Kokkos::finalize();
  return 0;
}
