// Scans: exclusive without a total (fenced before the host reads), inclusive
// with a total, in place over one View (iteration i reads and writes only
// element i), and a functor scan with its own value_type, init and join.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <cstdio>

struct CountPositive {
  using value_type = long;
  Kokkos::View<int *> in;
  Kokkos::View<long *> pos;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, long &update,
                                         const bool final) const {
    if (final) pos(i) = update;
    if (in(i) % 3 == 0) update += 1;
  }
  KOKKOS_INLINE_FUNCTION void init(long &v) const { v = 0; }
  KOKKOS_INLINE_FUNCTION void join(long &d, const long &s) const { d += s; }
  KOKKOS_INLINE_FUNCTION void join(volatile long &d,
                                   const volatile long &s) const {
    d += s;
  }
};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 64;
    Kokkos::View<int *> in("in", n), excl("excl", n), incl("incl", n);
    Kokkos::View<int *> a("a", n);
    Kokkos::View<long *> pos("pos", n);
    Kokkos::parallel_for(
        "init", n, KOKKOS_LAMBDA(const int i) {
          in(i) = i % 5;
          a(i) = 1;
        });
    Kokkos::parallel_scan(
        "exclusive", n,
        KOKKOS_LAMBDA(const int i, int &update, const bool final) {
          if (final) excl(i) = update;
          update += in(i);
        });
    int total = 0;
    Kokkos::parallel_scan(
        "inclusive", n,
        KOKKOS_LAMBDA(const int i, int &update, const bool final) {
          update += in(i);
          if (final) incl(i) = update;
        },
        total);
    Kokkos::parallel_scan(
        "inplace", n,
        KOKKOS_LAMBDA(const int i, int &update, const bool final) {
          const int v = a(i);
          update += v;
          if (final) a(i) = update;
        });
    long npos = 0;
    Kokkos::parallel_scan("functor", n, CountPositive{in, pos}, npos);
    Kokkos::fence();
    printf("%d %d %d %d %ld %ld\n", excl(n - 1), incl(n - 1), total, a(n - 1),
           pos(n - 1), npos);
  }
  Kokkos::finalize();
  return 0;
}
