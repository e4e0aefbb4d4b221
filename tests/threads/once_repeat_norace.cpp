// pthread_once passed again and again: every pass after the routine ran
// orders the routine's writes before the caller, the first pass of a thread
// and the later ones alike (a thread's later passes take a shortcut).
// EXPECT: no-report
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
    ready.store(1, std::memory_order_relaxed);
  });
  // Waits on a relaxed flag: only pthread_once orders the table.
  while (!ready.load(std::memory_order_relaxed)) {
  }
  long sum = 0;
  for (int pass = 0; pass < 4; ++pass) {
    pthread_once(&once, init_table);
    for (int i = 0; i < 64; ++i)
      sum += table[i];
  }
  a.join();
  printf("%ld\n", sum);
  return 0;
}
