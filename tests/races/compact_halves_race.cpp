// Arrays of int kept as compact halves (one record per element): a kernel
// writes each element of `a` through a computed index (the first accesses
// to its chunks: their records are the writes), a fence settles them, and
// the next kernel reads each element and its neighbour (the reads replace
// the settled writes: two strands read each element), while iteration 100
// writes element 200 plainly, which iterations 200 and 201 read later in
// the same kernel (one report: the same two instructions).  The host then
// writes element 7 while that kernel may still run.  In a third kernel,
// every iteration adds to an element of `bins` atomically and iteration 3
// also reads element 5 plainly.
// EXPECT: data-race view=a subkind=iteration-overlap nodes=parallel_for:reads,parallel_for:reads lines=28,29
// EXPECT: data-race view=a subkind=missing-fence nodes=host,parallel_for:reads lines=31,28
// EXPECT: data-race view=bins subkind=iteration-overlap nodes=parallel_for:hist,parallel_for:hist atomic=0,1 lines=35,36
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1 << 19, nb = 1 << 18; /* 2 MiB and 1 MiB */
    Kokkos::View<int *> a("a", n), bins("bins", nb);
    Kokkos::View<long *> s("s", n);
    Kokkos::parallel_for(
        "fill", n, KOKKOS_LAMBDA(const int i) { a((int)(((long)i * 7919) % n)) = i; });
    Kokkos::fence();
    Kokkos::parallel_for(
        "reads", n, KOKKOS_LAMBDA(const int i) {
          s(i) = a(i) + a(i ^ 1);
          if (i == 100) a(200) = -1;
        });
    a(7) = 4;
    Kokkos::fence();
    Kokkos::parallel_for(
        "hist", n, KOKKOS_LAMBDA(const int i) {
          Kokkos::atomic_add(&bins((int)(((long)i * 31) % nb)), 1);
          if (i == 3) s(3) = bins(5 * 31);
        });
    Kokkos::fence();
    printf("%ld %d\n", s(3), bins(0));
  }
  Kokkos::finalize();
  return 0;
}
