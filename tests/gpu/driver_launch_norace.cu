// The twin of driver_launch_race: the driver API launch's stream is
// synchronized before the copy on the other stream.
// NVCC-FLAGS: -lcuda
// EXPECT: no-report
#include <cuda.h>
#include "gpu_check.h"
int main() {
  int n = 1 << 20;
  float *d, *e;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMalloc(&e, n * sizeof(float)));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaFunction_t f;
  CHECK(cudaGetFuncBySymbol(&f, (const void *)fill));
  float v = 1.0f;
  void *params[] = {&d, &v, &n};
  if (cuLaunchKernel((CUfunction)f, n / 256, 1, 1, 256, 1, 1, 0, (CUstream)s1,
                     params, nullptr) != CUDA_SUCCESS) {
    fprintf(stderr, "cuLaunchKernel failed\n");
    return 3;
  }
  CHECK(cudaStreamSynchronize(s1));
  CHECK(cudaMemcpyAsync(e, d, n * sizeof(float), cudaMemcpyDeviceToDevice, s2));
  CHECK(cudaDeviceSynchronize());
  printf("done\n");
  return 0;
}
