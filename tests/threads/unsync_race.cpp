// Two threads write one global without synchronizing: a race between host
// threads.  (They run one after the other, waiting on a relaxed atomic,
// which orders nothing: the race is in the program, not in the timing.)
// EXPECT: data-race view=- subkind=host-threads nodes=host,host lines=16,22
#include <atomic>
#include <cstdio>
#include <thread>

long total;
std::atomic<int> turn{0};

int main() {
  std::thread a([]() {
    while (turn.load(std::memory_order_relaxed) != 0) {
    }
    total += 1;
    turn.store(1, std::memory_order_relaxed);
  });
  std::thread b([]() {
    while (turn.load(std::memory_order_relaxed) != 1) {
    }
    total += 2;
  });
  a.join();
  b.join();
  printf("%ld\n", total);
  return 0;
}
