// A histogram: a kernel of many iterations, each adding one to a bin it
// hashes to, with no loop in it.  The bins' words are split by the
// strands' atomic adds until their shadow turns into half-cells in the
// middle of the kernel; the last iteration's plain write to a bin that
// other iterations add to still races with their adds, and the host's
// reads of the other bins without a fence race with the adds.  (Not that
// bin: its cell keeps the last write, an add or the plain write, as the
// pass checks the plain write, whose address the compiler knows, before
// the kernel's loop or in it.)
// EXPECT: data-race view=bins subkind=iteration-overlap nodes=parallel_for:hist,parallel_for:hist atomic=0,1 lines=27,29
// EXPECT: data-race view=bins subkind=missing-fence nodes=parallel_for:hist,host lines=27,34
#include <Kokkos_Core.hpp>
#include <cstdio>

KOKKOS_INLINE_FUNCTION unsigned bin_of(unsigned i, unsigned nb) {
  return (i * 2654435761u) % nb;
}

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const unsigned nb = 65536, n = 1u << 19;
    Kokkos::View<int *> bins("bins", nb);
    Kokkos::parallel_for(
        "hist", n, KOKKOS_LAMBDA(const unsigned i) {
          if (i != n - 1)
            Kokkos::atomic_add(&bins(bin_of(i, nb)), 1);
          else
            bins(bin_of(3, nb)) = 0;
        });
    long total = 0;
    for (unsigned b = 0; b < nb; ++b)
      if (b != bin_of(3, nb))
        total += bins(b);
    Kokkos::fence();
    printf("%ld\n", total);
  }
  Kokkos::finalize();
  return 0;
}
