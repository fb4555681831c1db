// Records whose kernels write only some of their members: the n-body
// update that leaves the mass (.w) alone, an SPH particle whose position and
// velocity change while density and id do not, a colour whose alpha is
// kept. The staging rewrite moves their rows through shared memory and
// writes back only the members the kernel writes (the others may be
// another thread's to write). Launch spec: staging_partial.toml; measured
// in docs/benchmarks.md, "Records written in part".
#include <cuda_runtime.h>

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

struct Body { float4 pos; float4 vel; };             // 32 B, 24 written

// the velocity damped and the position advanced; both .w kept
__global__ void nbody_update(Body *b, float dt, float damping, int n) {
  int i = GID;
  if (i >= n) return;
  b[i].vel.x *= damping; b[i].vel.y *= damping; b[i].vel.z *= damping;
  b[i].pos.x += b[i].vel.x * dt;
  b[i].pos.y += b[i].vel.y * dt;
  b[i].pos.z += b[i].vel.z * dt;
}

// the mass (pos.w) read, not written
__global__ void nbody_mass(Body *b, float dt, int n) {
  int i = GID;
  if (i >= n) return;
  float inv = 1.0f / (b[i].pos.w + 1.0f);
  b[i].vel.x += b[i].pos.x * inv * dt;
  b[i].vel.y += b[i].pos.y * inv * dt;
  b[i].vel.z += b[i].pos.z * inv * dt;
  b[i].pos.x += b[i].vel.x * dt;
  b[i].pos.y += b[i].vel.y * dt;
  b[i].pos.z += b[i].vel.z * dt;
}

struct Particle { float3 pos; float3 vel; float rho; float p; float m; int id; }; // 40 B

// SPH integration: position and velocity written (24 of 40 bytes), the
// pressure read
__global__ void sph_integrate(Particle *q, float dt, int n) {
  int i = GID;
  if (i < n) {
    float a = q[i].p * 0.5f;
    q[i].vel.x += a * dt; q[i].vel.y -= a * dt; q[i].vel.z += dt;
    q[i].pos.x += q[i].vel.x * dt;
    q[i].pos.y += q[i].vel.y * dt;
    q[i].pos.z += q[i].vel.z * dt;
  }
}

struct D4 { double v, x, y, z; };                     // 32 B, 24 written

__global__ void d4_three(D4 *a, int n) {
  int i = GID;
  if (i < n) {
    a[i].v = a[i].v * 0.5 + a[i].z;
    a[i].x = a[i].x + a[i].v;
    a[i].y = a[i].y - a[i].v;
  }
}

struct F4 { float x, y, z, w; };                      // 16 B, 12 written

// SoA -> AoS into records whose fourth member is padding
__global__ void xyz_write(F4 *out, const float *x, const float *y, const float *z, int n) {
  int i = GID;
  if (i < n) { out[i].x = x[i]; out[i].y = y[i]; out[i].z = z[i]; }
}

// a colour's r, g, b scaled, alpha kept
__global__ void rgb_scale(F4 *c, float s, int n) {
  int i = GID;
  if (i < n) { c[i].x *= s; c[i].y *= s; c[i].z *= s; }
}

struct E64 { float f[16]; };                          // 64 B

// one member of a 64-byte record
__global__ void e64_one(E64 *e, int n) {
  int i = GID;
  if (i < n) e[i].f[5] = e[i].f[5] * 2.0f + 1.0f;
}

// half of a 64-byte record
__global__ void e64_half(E64 *e, int n) {
  int i = GID;
  if (i < n) {
#pragma unroll
    for (int k = 0; k < 8; ++k) e[i].f[k] = e[i].f[k] * 2.0f + e[i].f[k + 8];
  }
}

// a quarter of a 64-byte record: 48 bytes of each in a row untouched (the
// cost rule leaves it alone; measured with the rule off)
__global__ void e64_quarter(E64 *e, int n) {
  int i = GID;
  if (i < n) {
#pragma unroll
    for (int k = 0; k < 4; ++k) e[i].f[k] = e[i].f[k] * 2.0f + 1.0f;
  }
}

// SPH integration that also writes the neighbour particle's density: the
// store phase must leave rho alone (a tile written back whole would put
// back the value the tile was filled with, undoing the neighbour's store)
__global__ void sph_neighbour(Particle *q, float dt, int n) {
  int i = GID;
  if (i < n) {
    q[i].vel.x += dt; q[i].vel.y -= dt; q[i].vel.z += q[i].p * dt;
    if ((i ^ 1) < n) q[i ^ 1].rho = q[i].vel.x * 0.5f;
    q[i].pos.x += q[i].vel.x * dt;
    q[i].pos.y += q[i].vel.y * dt;
    q[i].pos.z += q[i].vel.z * dt;
  }
}

struct V6 { float x, y, z, vx, vy, vz; };             // 24 B

// both arms of a data branch write the record, vz on one arm only at -O3
// (the real-shapes adversary's both_sides): the arm's block is staged,
// 20 of 24 bytes written back. Its spec makes every mode odd, so that whole
// warps take the staged arm.
__global__ void both_arms(V6 *a, const int *mode, int n) {
  int i = GID;
  if (i >= n) return;
  if (mode[i] & 1) {
    a[i].x = 1.0f; a[i].y = a[i].vx; a[i].z = 2.0f; a[i].vx = 0.0f; a[i].vy = 3.0f; a[i].vz = a[i].x;
  } else {
    a[i].x = -1.0f; a[i].y = a[i].vy; a[i].z = -2.0f; a[i].vx = 1.0f; a[i].vy = -3.0f; a[i].vz = 0.5f;
  }
}

// a particle bounced under a per-element flag (the real-shapes adversary's
// sph_boundary and rec_flag_guard): position and velocity's y written, the
// rest kept; every flag set in its spec
__global__ void flag_bounce(Particle *q, const int *flag, float lo, int n) {
  int i = GID;
  if (i < n && (flag[i] & 1)) {
    q[i].pos.y = lo;
    q[i].vel.y = -0.5f * q[i].vel.y;
  }
}
