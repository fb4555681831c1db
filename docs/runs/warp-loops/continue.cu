// Grid-stride loops that skip dead particles (`if (!alive[i]) continue;`):
// no block barrier may go on an iteration some threads skip, so COALDA
// stages them in warp tiles only (docs/benchmarks.md, "Warp tiles in
// grid-stride loops"). The loop forms of testcases/staging_warps.cu's
// kernels; launch spec continue.toml (one wave of resident blocks).

struct F3 {
  float x, y, z;
};

struct D4 {
  double v, x, y, z;
};

struct Particle {
  float px, py, pz, vx, vy, vz;
};

#define FOR_EACH(i) \
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)

__global__ void d4_alive_gs(D4 *a, const unsigned char *alive, int n) {
  FOR_EACH(i) {
    if (!alive[i])
      continue;
    a[i].v += 1.0;
    a[i].x *= 2.0;
    a[i].y -= a[i].x;
    a[i].z = a[i].v * 0.5;
  }
}

__global__ void soa_to_aos_alive_gs(F3 *out, const float *ix, const float *iy, const float *iz,
                                    const unsigned char *alive, int n) {
  FOR_EACH(i) {
    if (!alive[i])
      continue;
    out[i].x = ix[i];
    out[i].y = iy[i];
    out[i].z = iz[i];
  }
}

__global__ void advance_alive_gs(Particle *p, const unsigned char *alive, float dt, int n) {
  FOR_EACH(i) {
    if (!alive[i])
      continue;
    p[i].vx *= 0.99f;
    p[i].vy -= 9.81f * dt;
    p[i].vz *= 0.99f;
    p[i].px += p[i].vx * dt;
    p[i].py += p[i].vy * dt;
    p[i].pz += p[i].vz * dt;
  }
}
