// The same publication with relaxed atomics: the flag orders nothing, so
// the reader's read of the data races with the writer's write.
// EXPECT: data-race view=- subkind=host-threads nodes=host,host lines=17,21
#include <atomic>
#include <cstdio>
#include <thread>

double data[16];
std::atomic<bool> published{false};

int main() {
  std::thread reader([]() {
    while (!published.load(std::memory_order_relaxed)) {
    }
    double s = 0;
    for (int i = 0; i < 16; ++i)
      s += data[i];
    printf("%g\n", s);
  });
  for (int i = 0; i < 16; ++i)
    data[i] = i;
  published.store(true, std::memory_order_relaxed);
  reader.join();
  return 0;
}
