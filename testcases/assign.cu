// Struct assignment, the most common way to copy a struct: clang emits one
// llvm.memcpy of the element's size per thread (at -O0 and -O3 alike), which
// the backend splits into pieces as wide as the alignment allows (1-byte
// pieces for a Pixel). COALDA reads the memcpy's destination and source as a
// copy of one member covering the whole element and rewrites it like a
// member-wise copy.
struct Pixel {
  unsigned char r, g, b;
};
struct Vec3 {
  float x, y, z;
};
struct Particle {
  double pos[3];
  float mass;
  int id;
};

__global__ void assign_pixels(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] = src[i];
}

__global__ void assign_vec3(Vec3 *__restrict__ dst, const Vec3 *__restrict__ src, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    dst[i] = src[i];
}

__global__ void assign_float3(float3 *dst, const float3 *src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i] = src[i];
}

// 32-byte records: a copy the rewrite moves in 16-byte units.
__global__ void assign_particles(Particle *__restrict__ dst, const Particle *__restrict__ src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] = src[i];
}

// A helper that copies one element, inlined: the same memcpy.
__device__ inline void copy_pixel(Pixel &to, const Pixel &from) { to = from; }
__global__ void assign_through_helper(Pixel *__restrict__ dst, const Pixel *__restrict__ src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    copy_pixel(dst[i], src[i]);
}
