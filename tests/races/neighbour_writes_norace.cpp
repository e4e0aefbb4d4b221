// The twin of neighbour_writes_race: the earlier writes of neighbouring
// elements that stay in the shadow beside later ones are ordered before
// everything that meets them here -- a fence before the host reads, an
// acquire of what the main thread released -- and a word's bytes written
// one at a time by host segments and kernels in turn, or by kernels
// writing every element and then every other one, are read after a fence.
// EXPECT: no-report
#include <Kokkos_Core.hpp>
#include <atomic>
#include <cstdio>
#include <thread>

struct Pair {
  int first;
  int second;
};
struct Flagged {
  int value;
  std::atomic<int> turn;
};
alignas(8) Pair pair = {0, 0};
alignas(8) Flagged flagged = {0, {0}};

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    std::thread b([]() {
      while (flagged.turn.load(std::memory_order_acquire) != 1) {
      }
      pair.first = 1;
      flagged.value = 1;
    });
    Kokkos::View<int *, Kokkos::HostSpace> a("a", 2);
    Kokkos::View<char *, Kokkos::HostSpace> c("c", 8);
    Kokkos::View<int *, Kokkos::HostSpace> e("e", 64);
    Kokkos::fence();
    Kokkos::parallel_for("first", Kokkos::RangePolicy<>(0, 1), KOKKOS_LAMBDA(const int i) { a(i) = 1; });
    Kokkos::fence();
    Kokkos::parallel_for("second", Kokkos::RangePolicy<>(1, 2), KOKKOS_LAMBDA(const int i) { a(i) = 2; });
    int v = a(0);
    Kokkos::parallel_for("first_char", Kokkos::RangePolicy<>(0, 1), KOKKOS_LAMBDA(const int i) { c(i) = 'a'; });
    Kokkos::fence();
    Kokkos::parallel_for("second_char", Kokkos::RangePolicy<>(1, 2), KOKKOS_LAMBDA(const int i) { c(i) = 'b'; });
    char x = c(0);
    Kokkos::fence();
    // Byte by byte, each in a host segment of its own, then a kernel.
    for (int i = 0; i < 8; ++i) {
      c(i) = 'h';
      Kokkos::parallel_for("tick", 1, KOKKOS_LAMBDA(const int) {});
      Kokkos::fence();
    }
    Kokkos::parallel_for("read_chars", 8, KOKKOS_LAMBDA(const int i) { e(i) = c(i); });
    Kokkos::fence();
    // Every element, then every other one.
    Kokkos::parallel_for("all", 64, KOKKOS_LAMBDA(const int i) { e(i) = i; });
    Kokkos::parallel_for("even", 32, KOKKOS_LAMBDA(const int i) { e(2 * i) = -i; });
    Kokkos::fence();
    int sum = 0;
    for (int i = 0; i < 64; ++i)
      sum += e(i);
    pair.first = 2;
    Kokkos::parallel_for("between", 1, KOKKOS_LAMBDA(const int) {});
    Kokkos::fence();
    pair.second = 2;
    flagged.value = 2;
    flagged.turn.store(1, std::memory_order_release);
    b.join();
    printf("%d %c %d %d %d\n", v, x, sum, pair.first, flagged.value);
  }
  Kokkos::finalize();
  return 0;
}
