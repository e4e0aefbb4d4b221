// A host function on stream s1 (after a long kernel there) writes pinned
// memory that a kernel on stream s2 reads: nothing orders the two streams.
// EXPECT[inst]: data-race subkind=unordered-streams view=cudaMallocHost#1 nodes=host_func:produce,kernel:scale lines=28,29
// EXPECT[preload]: no-report (the host function's code is not instrumented)
#include "gpu_check.h"
struct Job {
  float *h;
  int n;
};
void CUDART_CB produce(void *p) {
  Job *j = (Job *)p;
  for (int i = 0; i < j->n; ++i)
    j->h[i] = (float)i;
}
int main() {
  const int n = 1 << 16;
  float *h, *d;
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    h[i] = 0;
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  Job job = {h, n};
  spin<<<1, 1, 0, s1>>>(1000000);
  // (the host function runs once the spin is done)
  CHECK(cudaLaunchHostFunc(s1, produce, &job));
  scale<<<n / 256, 256, 0, s2>>>(d, h, n);
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
