// The thread that ran the once routine writes again after it: passing
// pthread_once orders the routine only, not what its thread did later,
// however often the reader passes it.
// EXPECT: data-race view=- subkind=host-threads nodes=host,host lines=23,31
#include <pthread.h>
#include <atomic>
#include <cstdio>
#include <thread>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static long table[64];
static std::atomic<int> ready{0};

static void init_table() {
  for (int i = 0; i < 64; ++i)
    table[i] = i * i;
}

int main() {
  std::thread a([]() {
    pthread_once(&once, init_table);
    pthread_once(&once, init_table);
    table[7] = -1;
    ready.store(1, std::memory_order_relaxed);
  });
  while (!ready.load(std::memory_order_relaxed)) {
  }
  long sum = 0;
  for (int pass = 0; pass < 4; ++pass) {
    pthread_once(&once, init_table);
    sum += table[7];
  }
  a.join();
  printf("%ld\n", sum);
  return 0;
}
