// The twin of copy_kernel_streams_race: an event recorded after the copy on
// s1, waited on by s2 before the kernel.
// EXPECT: no-report
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  float *d, *e, *h;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMalloc(&e, n * sizeof(float)));
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  cudaStream_t s1, s2;
  cudaEvent_t copied;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  CHECK(cudaEventCreateWithFlags(&copied, cudaEventDisableTiming));
  CHECK(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s1));
  CHECK(cudaEventRecord(copied, s1));
  CHECK(cudaStreamWaitEvent(s2, copied, 0));
  scale<<<n / 256, 256, 0, s2>>>(e, d, n);
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
