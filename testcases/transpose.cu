// Transposes (issue 13): the naive 2-D transpose, whose stores walk a column
// (consecutive threads of a warp store M elements apart). COALDA permutes
// which thread stores which element through a shared tile, so that
// consecutive threads store consecutive addresses of a column piece.
#include <cstddef>

// out (M x N... stored as N-wide rows of x) = in^T; in has N rows of M.
__global__ void transpose_naive(float *out, const float *in, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x];
}

// A computed value in between, and doubles.
__global__ void transpose_scale(double *out, const double *in, double a, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N)
    out[(size_t)x * N + y] = a * in[(size_t)y * M + x] + 1.0;
}

// The 32x32 tiled transpose people write by hand (32x8 threads): already
// coalesced, left alone.
__global__ void transpose_tiled(float *out, const float *in, int M, int N) {
  __shared__ float tile[32][33];
  int bx = blockIdx.x * 32, by = blockIdx.y * 32, tx = threadIdx.x, ty = threadIdx.y;
  for (int j = ty; j < 32; j += 8)
    if (bx + tx < M && by + j < N)
      tile[j][tx] = in[(size_t)(by + j) * M + bx + tx];
  __syncthreads();
  for (int j = ty; j < 32; j += 8)
    if (by + tx < N && bx + j < M)
      out[(size_t)(bx + j) * N + by + tx] = tile[tx][j];
}
