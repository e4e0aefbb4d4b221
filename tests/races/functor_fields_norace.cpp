// A histogram whose functor's fields (the Views' handles, the bin count)
// are read again after every atomic add, as the compiler must: only the
// dispatch reads Kokkos' copy of the functor, and the atomics race with
// nothing.  The host then changes its own functor and dispatches it again:
// the first dispatch's copy is not the one it changes.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

struct Bin {
  Kokkos::View<const int *> key;
  Kokkos::View<int *> count;
  int nbins, rounds;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    for (int r = 0; r < rounds; ++r)
      Kokkos::atomic_add(&count((key(i) + r) % nbins), 1);
  }
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 4096;
    Kokkos::View<int *> key("key", n), count("count", 64);
    Kokkos::parallel_for("keys", n, KOKKOS_LAMBDA(const int i) { key(i) = (i * 37) % 101; });
    Bin b{key, count, 64, 3};
    Kokkos::parallel_for("bin", n, b);
    b.nbins = 32;
    b.rounds = 2;
    Kokkos::parallel_for("bin", n, b);
    Kokkos::fence();
    long s = 0;
    for (int k = 0; k < 64; ++k)
      s += count(k);
    printf("%ld\n", s);
  }
  Kokkos::finalize();
  return 0;
}
