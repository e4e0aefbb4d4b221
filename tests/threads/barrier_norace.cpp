// Two phases separated by a pthread barrier: each thread writes its own
// half, then reads the other thread's half.
// EXPECT: no-report
#include <cstdio>
#include <pthread.h>

double v[2][32];
pthread_barrier_t barrier;

static void *work(void *arg) {
  long me = (long)arg;
  for (int i = 0; i < 32; ++i)
    v[me][i] = me + i;
  pthread_barrier_wait(&barrier);
  double s = 0;
  for (int i = 0; i < 32; ++i)
    s += v[1 - me][i];
  return (void *)(long)s;
}

int main() {
  pthread_barrier_init(&barrier, nullptr, 2);
  pthread_t t1, t2;
  pthread_create(&t1, nullptr, work, (void *)0L);
  pthread_create(&t2, nullptr, work, (void *)1L);
  void *r1, *r2;
  pthread_join(t1, &r1);
  pthread_join(t2, &r2);
  printf("%ld %ld\n", (long)r1, (long)r2);
  pthread_barrier_destroy(&barrier);
  return 0;
}
