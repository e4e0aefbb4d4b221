// The GPU workloads' timer: each program times its own main loop (CUDA's
// start-up is the same with and without kkrace) and prints "time_ms=...".
#pragma once
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err_ = (call);                                             \
    if (err_ != cudaSuccess) {                                             \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                   \
              cudaGetErrorString(err_));                                   \
      exit(3);                                                             \
    }                                                                      \
  } while (0)
struct Timer {
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  ~Timer() {
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - t0).count();
    printf("time_ms=%.3f\n", ms);
  }
};
