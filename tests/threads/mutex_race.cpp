// One thread adds under the mutex, the other forgets to take it.
// EXPECT: data-race view=- subkind=host-threads nodes=host,host lines=15,23
#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>

long total;
std::mutex m;
std::atomic<int> done{0};

int main() {
  std::thread a([]() {
    std::lock_guard<std::mutex> g(m);
    total += 1;
    done.store(1, std::memory_order_relaxed);
  });
  std::thread b([]() {
    // Waits on a relaxed flag so that the race does happen after a's
    // write, without ordering anything.
    while (!done.load(std::memory_order_relaxed)) {
    }
    total += 2;
  });
  a.join();
  b.join();
  printf("%ld\n", total);
  return 0;
}
