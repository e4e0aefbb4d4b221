// A kernel launched through the driver API (cuLaunchKernel, its arguments
// packed in one buffer) on one stream, and a copy of what it writes on
// another, unordered.
// NVCC-FLAGS: -lcuda
// EXPECT: data-race subkind=unordered-streams view=cudaMalloc#1 nodes=kernel:fill,cudaMemcpy:cudaMemcpyAsync(DtoD)
#include <cuda.h>
#include <cstring>
#include "gpu_check.h"
int main() {
  const int n = 1 << 20;
  float *d, *e;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMalloc(&e, n * sizeof(float)));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaFunction_t f;
  CHECK(cudaGetFuncBySymbol(&f, (const void *)fill));
  // fill(float *a, float v, int n): 8 + 4 + 4 bytes.
  char args[16];
  float v = 1.0f;
  memcpy(args, &d, 8);
  memcpy(args + 8, &v, 4);
  memcpy(args + 12, &n, 4);
  size_t size = sizeof args;
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, args,
                   CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
  if (cuLaunchKernel((CUfunction)f, n / 256, 1, 1, 256, 1, 1, 0, (CUstream)s1,
                     nullptr, extra) != CUDA_SUCCESS) {
    fprintf(stderr, "cuLaunchKernel failed\n");
    return 3;
  }
  CHECK(cudaMemcpyAsync(e, d, n * sizeof(float), cudaMemcpyDeviceToDevice, s2));
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
