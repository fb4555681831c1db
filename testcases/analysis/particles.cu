// AoS reads of 16- and 32-byte structs inside computations (n-body / particle
// filter style): every field read strides by the struct size across a warp.
#include "particles.h"

__global__ void weigh(const Particle *p, float *out, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n)
    out[tid] = weighted_x(p, tid);
}

__global__ void kinetic(const Body *b, const double *vel2, double *energy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    energy[i] = 0.5 * b[i].mass * vel2[i];
}
