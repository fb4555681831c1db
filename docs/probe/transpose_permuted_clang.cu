// Hand-written forms of COALDA's permuted transpose, compiled with clang -O3
// (coalda optimize's before.ptx), to time against COALDA's own output.
#ifndef VOTE
#define VOTE 0
#endif
#ifndef CHECK
#define CHECK 0
#endif
__global__ void transpose_naive(float *out, const float *in, int M, int N) {
  __shared__ float tile[32 * 33 * 2];
  int bx = blockDim.x, by = blockDim.y, tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * bx + tx, y = blockIdx.y * by + ty;
  bool active = x < M && y < N;
#if CHECK
  const char *ld = (const char *)(in + (size_t)y * M + x), *st = (const char *)(out + (size_t)x * N + y);
  active = active && (st + 4 <= ld || ld + 4 <= st);
#endif
#if VOTE
  bool full = __syncthreads_and(active);
#else
  bool full = (blockIdx.x + 1) * bx <= M && (blockIdx.y + 1) * by <= N;
#endif
  if (!full) {
    if (x < M && y < N) out[(size_t)x * N + y] = in[(size_t)y * M + x];
    return;
  }
  tile[ty * (bx + 1) + tx] = in[(size_t)y * M + x];
  __syncthreads();
  int q = ty * bx + tx, sy = q % by, sx = q / by;
  out[(size_t)(blockIdx.x * bx + sx) * N + blockIdx.y * by + sy] = tile[sy * (bx + 1) + sx];
}
