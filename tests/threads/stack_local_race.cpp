// Two threads update a local of main's (captured by reference) without
// synchronizing, and the report is made on the second thread: the memory
// is still named as main's stack, not as heap memory.  (They run one
// after the other, waiting on a relaxed atomic, which orders nothing.)
// EXPECT: data-race view=- subkind=host-threads nodes=host,host lines=18,24
// EXPECT-TEXT: data race on a variable on the stack of main thread
#include <atomic>
#include <cstdio>
#include <thread>

std::atomic<int> turn{0};

int main() {
  long counter = 0;
  std::thread a([&]() {
    while (turn.load(std::memory_order_relaxed) != 0) {
    }
    counter += 1;
    turn.store(1, std::memory_order_relaxed);
  });
  std::thread b([&]() {
    while (turn.load(std::memory_order_relaxed) != 1) {
    }
    counter += 2;
  });
  a.join();
  b.join();
  printf("%ld\n", counter);
  return 0;
}
