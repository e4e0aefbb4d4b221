// Two threads take two mutexes in opposite orders.  They run one after the
// other here, so this run does not hang, but run at the same time they
// would wait for each other forever: a lock-order inversion.
// EXPECT: deadlock subkind=lock-order-inversion lines=14,15,20,21
#include <cstdio>
#include <mutex>
#include <thread>

std::mutex a, b;
long x;

int main() {
  std::thread t1([]() {
    std::lock_guard<std::mutex> ga(a);
    std::lock_guard<std::mutex> gb(b);
    x++;
  });
  t1.join();
  std::thread t2([]() {
    std::lock_guard<std::mutex> gb(b);
    std::lock_guard<std::mutex> ga(a);
    x++;
  });
  t2.join();
  printf("%ld\n", x);
  return 0;
}
