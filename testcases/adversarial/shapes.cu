// Adversarial corpus: block shapes. The rewrite works per block row (the
// threads sharing threadIdx.y/z); the region of a row is stride*ntid.x (or
// stride*active) bytes. Blocks of 1, 31, 33 and 1023 threads, 2-D and 3-D
// blocks, rows indexed in unusual orders. Launch specs: shapes.toml.
struct Pixel { unsigned char r, g, b; };

#define COPY(d, s, i) { (d)[i].r = (s)[i].r; (d)[i].g = (s)[i].g; (d)[i].b = (s)[i].b; }

// One kernel body, launched with blocks of 31, 1, 33 and 1023 threads (one
// kernel per shape, as a spec entry names one launch). Rewritten (bounds
// guard).
__global__ void guarded(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) COPY(dst, src, i);
}
__global__ void guarded_b1(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) COPY(dst, src, i);
}
__global__ void guarded_b33(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) COPY(dst, src, i);
}
__global__ void guarded_b1023(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) COPY(dst, src, i);
}

// 2-D block, rows laid out one after another. Rewritten.
__global__ void rows_2d(Pixel *dst, const Pixel *src) {
  int i = ((blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x) + threadIdx.x;
  COPY(dst, src, i);
}

// 3-D block, rows ordered by z then y, with a grid of 2-D blocks.
// Rewritten.
__global__ void rows_3d(Pixel *dst, const Pixel *src) {
  int row = ((blockIdx.y * gridDim.x + blockIdx.x) * blockDim.z + threadIdx.z) * blockDim.y + threadIdx.y;
  int i = row * blockDim.x + threadIdx.x;
  COPY(dst, src, i);
}

// 2-D block, rows INTERLEAVED: element (x, y) at x*ntid.y + y. The lane
// stride is 3*ntid.y bytes, a run-time stride; rewritten behind the check
// "ntid.y == 1", so the original code runs here (ntid.y = 4).
__global__ void rows_interleaved(Pixel *dst, const Pixel *src) {
  int i = blockIdx.x * blockDim.x * blockDim.y + threadIdx.x * blockDim.y + threadIdx.y;
  COPY(dst, src, i);
}

// The same launched with ntid.y == 1: the rewrite runs.
__global__ void rows_interleaved_flat(Pixel *dst, const Pixel *src) {
  int i = blockIdx.x * blockDim.x * blockDim.y + threadIdx.x * blockDim.y + threadIdx.y;
  COPY(dst, src, i);
}

// 2-D block where the copy runs only in the rows with y < rows, plus a
// bounds guard on x: prefix of each row that runs. Rewritten.
__global__ void rows_and_bounds(Pixel *dst, const Pixel *src, int w, int rows) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = threadIdx.y;
  if (y < rows && x < w) COPY(dst, src, y * w + x);
}

// The row's lane is threadIdx.x but the element index also uses
// threadIdx.y*ntid.x in reverse row order. Rewritten.
__global__ void rows_reversed(Pixel *dst, const Pixel *src) {
  int i = (blockIdx.x * blockDim.y + (blockDim.y - 1 - threadIdx.y)) * blockDim.x + threadIdx.x;
  COPY(dst, src, i);
}

// A grid-stride loop in a 2-D grid of 1-D blocks, step over the whole grid.
// Rewritten per iteration (the flat copy needs a 1-D grid step).
__global__ void grid_2d_stride(Pixel *__restrict__ dst, const Pixel *__restrict__ src, int n) {
  int g = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
  for (int i = g; i < n; i += blockDim.x * gridDim.x * gridDim.y) COPY(dst, src, i);
}
