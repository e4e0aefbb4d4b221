// Kernels whose footprints tests/unit/sass/test_bounds.c bounds from their
// SASS (bounds.cubin, built for sm_90; bounds.sass, from nvdisasm -c).
#include <cstddef>
// One chunk of an allocation, given by an offset (the "overlap data
// transfers" form).
__global__ void chunk_offset(float *a, int offset) {
  int i = offset + threadIdx.x + blockIdx.x * blockDim.x;
  float x = (float)i;
  a[i] = a[i] + sqrtf(x * x + 1.0f);
}
// The same with the transcendental functions of that example.
__global__ void chunk_trig(float *a, int offset) {
  int i = offset + threadIdx.x + blockIdx.x * blockDim.x;
  float x = (float)i;
  float s = sinf(x), c = cosf(x);
  a[i] = a[i] + sqrtf(s * s + c * c);
}
// A chunk given by a pointer and a length.
__global__ void chunk_guarded(float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = 2.0f * b[i];
}
__global__ void grid_stride(float *y, const float *x, float s, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = s * x[i] + y[i];
}
__global__ void wide_index(double *y, const double *x, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] + 1.0;
}
__global__ void two_d(float *out, const float *in, int w, int h, int pitch) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[y * pitch + x] = in[y * pitch + x] * 0.5f;
}
__global__ void neighbours(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    out[i] = in[i - 1] + in[i + 1];
}
__global__ void rows(float *out, const float *in, int rows_, int m) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows_)
    return;
  float s = 0;
  for (int k = 0; k < m; k++)
    s += in[r * m + k];
  out[r] = s;
}
__global__ void block_sum(float *out, const float *in, int n) {
  __shared__ float t[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  t[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      t[threadIdx.x] += t[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = t[0];
}
// A pointer stored to memory: its footprint cannot be bounded.
__global__ void escape(float **slot, float *p) { *slot = p + threadIdx.x; }
// Indices read from memory.
__global__ void gather(float *out, const float *in, const int *idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[idx[i]];
}
// A 64-bit address made by LEA / LEA.HI.X from a sign-extended index, and
// a guard against the sum of two arguments.
__global__ void halo(float *out, const float *in, int offset, int len, int n) {
  int i = offset + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < offset + len)
    out[i] = in[i] + (i + 1 < n ? in[i + 1] : 0.0f);
}
// Pointers in a local array indexed at run time: stored to local memory and
// loaded back, so both escape (and both may be written).
__global__ void local_pointers(float *a, float *b, int k) {
  float *ps[8] = {a, b, a + 1, b + 1, a + 2, b + 2, a + 3, b + 3};
  ps[(threadIdx.x + k) & 7][threadIdx.x] = 1.0f;
}
// 64-bit indices: a grid-stride loop over size_t, and a signed range
// [begin, end) as Kokkos' RangePolicy runs it on CUDA.
__global__ void wide_stride(float *y, const float *x, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)blockDim.x * gridDim.x)
    y[i] = 2.0f * x[i];
}
__global__ void wide_range(double *y, long begin, long end) {
  for (long i = begin + blockIdx.x * (long)blockDim.x + threadIdx.x; i < end;
       i += (long)blockDim.x * gridDim.x)
    y[i] += 1.0;
}
// A counter reached by atomics only, beside an input read plainly; and a
// counter that is also read plainly.
__global__ void count(int *counter, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0.0f)
    atomicAdd(counter, 1);
}
__global__ void count_read(int *counter, int n) {
  if (*counter < n)
    atomicAdd(counter, 1);
}
