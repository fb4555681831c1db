// AoS particle records, read field by field inside computations.
#pragma once

struct Particle { // 16 bytes
  float x, y, z, weight;
};

struct Body { // 32 bytes
  double pos[3];
  double mass;
};

__device__ __forceinline__ float weighted_x(const Particle *p, int i) {
  return p[i].weight * p[i].x;
}
