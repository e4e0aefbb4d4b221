// Data published with a release store and read after an acquire load of the
// flag; and a std::call_once initialization seen by every thread.
// EXPECT: no-report
#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>

double data[16];
std::atomic<bool> published{false};
std::once_flag once;
int config;

int main() {
  std::thread reader([]() {
    while (!published.load(std::memory_order_acquire)) {
    }
    double s = 0;
    for (double d : data)
      s += d;
    std::call_once(once, []() { config = 42; });
    printf("%g %d\n", s, config);
  });
  for (int i = 0; i < 16; ++i)
    data[i] = i;
  published.store(true, std::memory_order_release);
  std::call_once(once, []() { config = 42; });
  int c = config;
  reader.join();
  printf("%d\n", c);
  return 0;
}
