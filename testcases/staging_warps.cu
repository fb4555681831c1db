// Element stagings in warp tiles (issue 12: "otherwise warp tiles with
// __syncwarp at a converged point of the warp"): each kernel returns early
// on a value it reads (a particle that is not alive), so not every thread of
// a block reaches the accesses and no block barrier may go there. Each warp
// whose 32 threads reach them together and all go on is staged on its own;
// the others run the original code. The launch spec's inputs are random
// bytes: about one lane in 256 is dead, so about 88% of the warps are
// staged. Baselines and measurements: docs/benchmarks.md, "Warp tiles".

struct F3 {
  float x, y, z;
};

struct D4 {
  double v, x, y, z;
};

// A 32-byte record updated member by member, behind a guard and a
// data-dependent early return.
__global__ void d4_alive(D4 *a, const unsigned char *alive, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (!alive[i])
    return;
  a[i].v += 1.0;
  a[i].x *= 2.0;
  a[i].y -= a[i].x;
  a[i].z = a[i].v * 0.5;
}

// SoA -> AoS float3 stores of the live particles only.
__global__ void soa_to_aos_alive(F3 *out, const float *ix, const float *iy, const float *iz,
                                 const unsigned char *alive, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && alive[i]) {
    out[i].x = ix[i];
    out[i].y = iy[i];
    out[i].z = iz[i];
  }
}

// A step of 24-byte particles {position, velocity} that skips a dead one:
// every member is read and written (gravity on vy, drag on vx and vz).
struct Particle {
  float px, py, pz, vx, vy, vz;
};

__global__ void advance_alive(Particle *p, const unsigned char *alive, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !alive[i])
    return;
  p[i].vx *= 0.99f;
  p[i].vy -= 9.81f * dt;
  p[i].vz *= 0.99f;
  p[i].px += p[i].vx * dt;
  p[i].py += p[i].vy * dt;
  p[i].pz += p[i].vz * dt;
}

// The same step with no particle skipped: every thread of the block reaches
// the accesses, so it is staged in a block tile; the benchmark's `warp`
// variant (-coalda-stage-warp-tiles=always) times its warp tiles in the
// same run (docs/benchmarks.md, "Warp tiles").
__global__ void advance(Particle *p, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  p[i].vx *= 0.99f;
  p[i].vy -= 9.81f * dt;
  p[i].vz *= 0.99f;
  p[i].px += p[i].vx * dt;
  p[i].py += p[i].vy * dt;
  p[i].pz += p[i].vz * dt;
}
