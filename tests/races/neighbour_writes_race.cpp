// Neighbouring elements of one 8-byte word written by accesses ordered one
// after the other: the later write says nothing of the earlier one's bytes,
// so that write stays in the shadow, and what races with it is found --
// the host reading an int that an unfenced kernel wrote before the next
// kernel wrote its neighbour; the same for a char; and a thread that
// nothing orders with the main thread writing a field that the main
// thread wrote before writing its neighbour: plainly in a later host
// segment (after a dispatch and a fence), or atomically.
// EXPECT: data-race view=a subkind=missing-fence nodes=parallel_for:first,host lines=41,43 ops=write,read
// EXPECT: data-race view=c subkind=missing-fence nodes=parallel_for:first_char,host lines=44,46 ops=write,read
// EXPECT: data-race subkind=host-threads nodes=host,host lines=35,48 ops=write,write
// EXPECT: data-race subkind=host-threads nodes=host,host lines=36,52 ops=write,write
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
      while (flagged.turn.load(std::memory_order_relaxed) != 1) {
      }
      pair.first = 1;
      flagged.value = 1;
    });
    Kokkos::View<int *, Kokkos::HostSpace> a("a", 2);
    Kokkos::View<char *, Kokkos::HostSpace> c("c", 8);
    Kokkos::fence();
    Kokkos::parallel_for("first", Kokkos::RangePolicy<>(0, 1), KOKKOS_LAMBDA(const int i) { a(i) = 1; });
    Kokkos::parallel_for("second", Kokkos::RangePolicy<>(1, 2), KOKKOS_LAMBDA(const int i) { a(i) = 2; });
    int v = a(0);
    Kokkos::parallel_for("first_char", Kokkos::RangePolicy<>(0, 1), KOKKOS_LAMBDA(const int i) { c(i) = 'a'; });
    Kokkos::parallel_for("second_char", Kokkos::RangePolicy<>(1, 2), KOKKOS_LAMBDA(const int i) { c(i) = 'b'; });
    char x = c(0);
    Kokkos::fence();
    pair.first = 2;
    Kokkos::parallel_for("between", 1, KOKKOS_LAMBDA(const int) {});
    Kokkos::fence();
    pair.second = 2;
    flagged.value = 2;
    flagged.turn.store(1, std::memory_order_relaxed);
    b.join();
    printf("%d %c %d %d\n", v, x, pair.first, flagged.value);
  }
  Kokkos::finalize();
  return 0;
}
