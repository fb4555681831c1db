// Probe for issue 39 item 5 (records too big for a static tile): would
// staging lulesh's hgc stores pay? HeCBench lulesh (corpus/hecbench/
// lulesh-cuda, the recipe's -s 128: 128^3 elements, 256 threads) has each
// thread of hgc write 8 doubles (64 B) to each of six arrays (dvdx, dvdy,
// dvdz, x8n, y8n, z8n) at stride 64 B: every warp store request touches 32
// sectors for 256 useful bytes. COALDA refuses the staging with
// StagingTileTooLarge (6 x 64 B x 256 threads = 96 KB; 48 census accesses).
// Variants, at the program's launch, writing the same bytes:
//   orig           hgc as written (VoluDer, CalcElemVolumeDerivative and hgc
//                  copied verbatim from lulesh.cu)
//   warp_subtile   one array at a time through a per-warp tile of 32 x 64 B
//                  (2 KB per warp, 16 KB per block): the thread's 8 values
//                  go to the tile, __syncwarp, the warp writes its 2 KB as
//                  128 16-byte units (4 coalesced requests per lane),
//                  __syncwarp; the "smaller sub-tiles of a record" option
//   block_dynamic  all six arrays through one block tile of 96 KB of dynamic
//                  shared memory (cudaFuncSetAttribute), flushed once: the
//                  "dynamic shared memory" option
// Inputs: the lulesh mesh (lulesh-init.cu's nodelist, coordinates of a unit
// cube), random volo and v. Timing: CUDA events, median of 20 after 3
// warm-ups, against cudaMemcpy of the bytes hgc writes. Outputs are compared
// byte for byte with orig's.
// Build: nvcc -O3 -arch=sm_90 lulesh_hgc_stores.cu -o lulesh_hgc_stores
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

typedef double Real_t;
typedef int Index_t;

__device__ static inline
void VoluDer(const Real_t x0, const Real_t x1, const Real_t x2,
    const Real_t x3, const Real_t x4, const Real_t x5,
    const Real_t y0, const Real_t y1, const Real_t y2,
    const Real_t y3, const Real_t y4, const Real_t y5,
    const Real_t z0, const Real_t z1, const Real_t z2,
    const Real_t z3, const Real_t z4, const Real_t z5,
    Real_t* dvdx, Real_t* dvdy, Real_t* dvdz)
{
  const Real_t twelfth = Real_t(1.0) / Real_t(12.0) ;

  *dvdx =
    (y1 + y2) * (z0 + z1) - (y0 + y1) * (z1 + z2) +
    (y0 + y4) * (z3 + z4) - (y3 + y4) * (z0 + z4) -
    (y2 + y5) * (z3 + z5) + (y3 + y5) * (z2 + z5);
  *dvdy =
    - (x1 + x2) * (z0 + z1) + (x0 + x1) * (z1 + z2) -
    (x0 + x4) * (z3 + z4) + (x3 + x4) * (z0 + z4) +
    (x2 + x5) * (z3 + z5) - (x3 + x5) * (z2 + z5);

  *dvdz =
    - (y1 + y2) * (x0 + x1) + (y0 + y1) * (x1 + x2) -
    (y0 + y4) * (x3 + x4) + (y3 + y4) * (x0 + x4) +
    (y2 + y5) * (x3 + x5) - (y3 + y5) * (x2 + x5);

  *dvdx *= twelfth;
  *dvdy *= twelfth;
  *dvdz *= twelfth;
}
//#pragma omp end declare target

/******************************************/
__device__ static inline
void CalcElemVolumeDerivative(Real_t dvdx[8],
    Real_t dvdy[8],
    Real_t dvdz[8],
    const Real_t x[8],
    const Real_t y[8],
    const Real_t z[8])
{
  VoluDer(x[1], x[2], x[3], x[4], x[5], x[7],
      y[1], y[2], y[3], y[4], y[5], y[7],
      z[1], z[2], z[3], z[4], z[5], z[7],
      &dvdx[0], &dvdy[0], &dvdz[0]);
  VoluDer(x[0], x[1], x[2], x[7], x[4], x[6],
      y[0], y[1], y[2], y[7], y[4], y[6],
      z[0], z[1], z[2], z[7], z[4], z[6],
      &dvdx[3], &dvdy[3], &dvdz[3]);
  VoluDer(x[3], x[0], x[1], x[6], x[7], x[5],
      y[3], y[0], y[1], y[6], y[7], y[5],
      z[3], z[0], z[1], z[6], z[7], z[5],
      &dvdx[2], &dvdy[2], &dvdz[2]);
  VoluDer(x[2], x[3], x[0], x[5], x[6], x[4],
      y[2], y[3], y[0], y[5], y[6], y[4],
      z[2], z[3], z[0], z[5], z[6], z[4],
      &dvdx[1], &dvdy[1], &dvdz[1]);
  VoluDer(x[7], x[6], x[5], x[0], x[3], x[1],
      y[7], y[6], y[5], y[0], y[3], y[1],
      z[7], z[6], z[5], z[0], z[3], z[1],
      &dvdx[4], &dvdy[4], &dvdz[4]);
  VoluDer(x[4], x[7], x[6], x[1], x[0], x[2],
      y[4], y[7], y[6], y[1], y[0], y[2],
      z[4], z[7], z[6], z[1], z[0], z[2],
      &dvdx[5], &dvdy[5], &dvdz[5]);
  VoluDer(x[5], x[4], x[7], x[2], x[1], x[3],
      y[5], y[4], y[7], y[2], y[1], y[3],
      z[5], z[4], z[7], z[2], z[1], z[3],
      &dvdx[6], &dvdy[6], &dvdz[6]);
  VoluDer(x[6], x[5], x[4], x[3], x[2], x[0],
      y[6], y[5], y[4], y[3], y[2], y[0],
      z[6], z[5], z[4], z[3], z[2], z[0],
      &dvdx[7], &dvdy[7], &dvdz[7]);
}

__global__ void hgc (
    Real_t *__restrict__ dvdx,
    Real_t *__restrict__ dvdy,
    Real_t *__restrict__ dvdz,
    Real_t *__restrict__ x8n,
    Real_t *__restrict__ y8n,
    Real_t *__restrict__ z8n,
    Real_t *__restrict__ determ,

    const Real_t *__restrict__ x,
    const Real_t *__restrict__ y,
    const Real_t *__restrict__ z,
    const Index_t *__restrict__ nodelist,
    const Real_t *__restrict__ volo,
    const Real_t *__restrict__ v,
    int *__restrict__ vol_error,
    const Index_t numElem )
{
  Index_t i = blockDim.x*blockIdx.x+threadIdx.x;
  if (i >= numElem) return;

  Real_t  x1[8],  y1[8],  z1[8] ;
  Real_t pfx[8], pfy[8], pfz[8] ;

  const Index_t* elemToNode = nodelist + Index_t(8)*i;

  // CollectDomainNodesToElemNodes(domain, elemToNode, x1, y1, z1);

  // inline the function manually
  Index_t nd0i = elemToNode[0] ;
  Index_t nd1i = elemToNode[1] ;
  Index_t nd2i = elemToNode[2] ;
  Index_t nd3i = elemToNode[3] ;
  Index_t nd4i = elemToNode[4] ;
  Index_t nd5i = elemToNode[5] ;
  Index_t nd6i = elemToNode[6] ;
  Index_t nd7i = elemToNode[7] ;

  x1[0] = x[nd0i];
  x1[1] = x[nd1i];
  x1[2] = x[nd2i];
  x1[3] = x[nd3i];
  x1[4] = x[nd4i];
  x1[5] = x[nd5i];
  x1[6] = x[nd6i];
  x1[7] = x[nd7i];

  y1[0] = y[nd0i];
  y1[1] = y[nd1i];
  y1[2] = y[nd2i];
  y1[3] = y[nd3i];
  y1[4] = y[nd4i];
  y1[5] = y[nd5i];
  y1[6] = y[nd6i];
  y1[7] = y[nd7i];

  z1[0] = z[nd0i];
  z1[1] = z[nd1i];
  z1[2] = z[nd2i];
  z1[3] = z[nd3i];
  z1[4] = z[nd4i];
  z1[5] = z[nd5i];
  z1[6] = z[nd6i];
  z1[7] = z[nd7i];

  CalcElemVolumeDerivative(pfx, pfy, pfz, x1, y1, z1);

  /* load into temporary storage for FB Hour Glass control */
  for(Index_t ii=0;ii<8;++ii){
    Index_t jj=8*i+ii;

    dvdx[jj] = pfx[ii];
    dvdy[jj] = pfy[ii];
    dvdz[jj] = pfz[ii];
    x8n[jj]  = x1[ii];
    y8n[jj]  = y1[ii];
    z8n[jj]  = z1[ii];
  }

  determ[i] = volo[i] * v[i];

  /* Do a check for negative volumes */
  if ( v[i] <= Real_t(0.0) ) {
    vol_error[0] = i;
  }
}


// The arithmetic of hgc, up to the stores: the element's 8 node coordinates
// and their volume derivatives.
__device__ static inline void hgc_values(Real_t (&out)[6][8], const Real_t *x,
                                         const Real_t *y, const Real_t *z,
                                         const Index_t *nodelist, Index_t i) {
  const Index_t *elemToNode = nodelist + Index_t(8) * i;
  for (int n = 0; n < 8; ++n) {
    Index_t nd = elemToNode[n];
    out[3][n] = x[nd];
    out[4][n] = y[nd];
    out[5][n] = z[nd];
  }
  CalcElemVolumeDerivative(out[0], out[1], out[2], out[3], out[4], out[5]);
}

#define HGC_PARAMS                                                             \
  Real_t *__restrict__ dvdx, Real_t *__restrict__ dvdy,                        \
      Real_t *__restrict__ dvdz, Real_t *__restrict__ x8n,                     \
      Real_t *__restrict__ y8n, Real_t *__restrict__ z8n,                      \
      Real_t *__restrict__ determ, const Real_t *__restrict__ x,               \
      const Real_t *__restrict__ y, const Real_t *__restrict__ z,              \
      const Index_t *__restrict__ nodelist, const Real_t *__restrict__ volo,   \
      const Real_t *__restrict__ v, int *__restrict__ vol_error,               \
      const Index_t numElem

__device__ static inline void hgc_tail(Real_t *determ, const Real_t *volo,
                                       const Real_t *v, int *vol_error,
                                       Index_t i) {
  determ[i] = volo[i] * v[i];
  if (v[i] <= Real_t(0.0)) vol_error[0] = i;
}

__global__ void warp_subtile(HGC_PARAMS) {
  __shared__ double2 tiles[8][32 * 4];
  Index_t i = blockDim.x * blockIdx.x + threadIdx.x;
  Index_t warpElem = i - threadIdx.x % 32;
  if (warpElem >= numElem) return;
  bool live = i < numElem;
  int lane = threadIdx.x % 32;
  double2 *tile = tiles[threadIdx.x / 32];
  Real_t values[6][8];
  if (live) hgc_values(values, x, y, z, nodelist, i);
  Real_t *arrays[6] = {dvdx, dvdy, dvdz, x8n, y8n, z8n};
  int liveUnits = min(32, numElem - warpElem) * 4;
  for (int a = 0; a < 6; ++a) {
    if (live)
      for (int n = 0; n < 4; ++n)
        tile[lane * 4 + n] = make_double2(values[a][2 * n], values[a][2 * n + 1]);
    __syncwarp();
    double2 *dst = reinterpret_cast<double2 *>(arrays[a] + Index_t(8) * warpElem);
    for (int u = lane; u < liveUnits; u += 32) dst[u] = tile[u];
    __syncwarp();
  }
  if (live) hgc_tail(determ, volo, v, vol_error, i);
}

__global__ void block_dynamic(HGC_PARAMS) {
  extern __shared__ double2 window[]; // 6 arrays x blockDim.x x 4 units
  Index_t i = blockDim.x * blockIdx.x + threadIdx.x;
  Index_t blockElem = blockDim.x * blockIdx.x;
  bool live = i < numElem;
  Real_t values[6][8];
  if (live) {
    hgc_values(values, x, y, z, nodelist, i);
    for (int a = 0; a < 6; ++a)
      for (int n = 0; n < 4; ++n)
        window[(a * blockDim.x + threadIdx.x) * 4 + n] =
            make_double2(values[a][2 * n], values[a][2 * n + 1]);
  }
  __syncthreads();
  Real_t *arrays[6] = {dvdx, dvdy, dvdz, x8n, y8n, z8n};
  int liveUnits = min((Index_t)blockDim.x, numElem - blockElem) * 4;
  for (int a = 0; a < 6; ++a) {
    double2 *dst = reinterpret_cast<double2 *>(arrays[a] + Index_t(8) * blockElem);
    for (int u = threadIdx.x; u < liveUnits; u += blockDim.x)
      dst[u] = window[a * blockDim.x * 4 + u];
  }
  if (live) hgc_tail(determ, volo, v, vol_error, i);
}

typedef void (*Kernel)(HGC_PARAMS);

int main(int argc, char **argv) {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("# %s\n", prop.name);
  int failures = 0;
  for (int edgeElems : {128, 45}) { // the recipe's -s 128; 45^3 is not a multiple of 256
    const int edgeNodes = edgeElems + 1;
    const Index_t numElem = edgeElems * edgeElems * edgeElems;
    const Index_t numNode = edgeNodes * edgeNodes * edgeNodes;
    std::vector<Index_t> nodelist(8 * (size_t)numElem);
    std::vector<Real_t> hx(numNode), hy(numNode), hz(numNode);
    for (int pl = 0, nidx = 0; pl < edgeNodes; ++pl)
      for (int row = 0; row < edgeNodes; ++row)
        for (int col = 0; col < edgeNodes; ++col, ++nidx) {
          hx[nidx] = 1.125 * col / edgeElems;
          hy[nidx] = 1.125 * row / edgeElems;
          hz[nidx] = 1.125 * pl / edgeElems;
        }
    for (int pl = 0, zidx = 0, nidx = 0; pl < edgeElems; ++pl) {
      for (int row = 0; row < edgeElems; ++row) {
        for (int col = 0; col < edgeElems; ++col, ++zidx, ++nidx) {
          Index_t *n = &nodelist[8 * (size_t)zidx];
          n[0] = nidx;
          n[1] = nidx + 1;
          n[2] = nidx + edgeNodes + 1;
          n[3] = nidx + edgeNodes;
          n[4] = nidx + edgeNodes * edgeNodes;
          n[5] = nidx + edgeNodes * edgeNodes + 1;
          n[6] = nidx + edgeNodes * edgeNodes + edgeNodes + 1;
          n[7] = nidx + edgeNodes * edgeNodes + edgeNodes;
        }
        ++nidx;
      }
      nidx += edgeNodes;
    }
    std::mt19937 gen(7);
    std::uniform_real_distribution<double> dist(0.5, 1.5);
    std::vector<Real_t> hvolo(numElem), hv(numElem);
    for (auto &f : hvolo) f = dist(gen);
    for (auto &f : hv) f = dist(gen);
    auto upload = [](const auto &h) {
      using T = typename std::decay_t<decltype(h)>::value_type;
      T *d;
      CK(cudaMalloc(&d, h.size() * sizeof(T)));
      CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
      return d;
    };
    Real_t *d_x = upload(hx), *d_y = upload(hy), *d_z = upload(hz);
    Index_t *d_nodelist = upload(nodelist);
    Real_t *d_volo = upload(hvolo), *d_v = upload(hv);
    const size_t arrayBytes = 8 * sizeof(Real_t) * (size_t)numElem;
    Real_t *d_out; // six arrays of 8 per element, then determ
    const size_t outBytes = 6 * arrayBytes + numElem * sizeof(Real_t);
    CK(cudaMalloc(&d_out, outBytes));
    int *d_err;
    CK(cudaMalloc(&d_err, sizeof(int)));
    const int threads = 256, blocks = (numElem + threads - 1) / threads;
    const int dynamicBytes = 6 * threads * 64;
    CK(cudaFuncSetAttribute(block_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, dynamicBytes));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    auto time_ms = [&](auto launch) {
      for (int r = 0; r < 3; ++r) launch();
      CK(cudaDeviceSynchronize());
      std::vector<float> ms;
      for (int r = 0; r < 20; ++r) {
        CK(cudaEventRecord(e0));
        launch();
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float t;
        CK(cudaEventElapsedTime(&t, e0, e1));
        ms.push_back(t);
      }
      std::sort(ms.begin(), ms.end());
      return ms[ms.size() / 2];
    };
    void *scratch;
    CK(cudaMalloc(&scratch, outBytes));
    float memcpyMs = time_ms([&] { CK(cudaMemcpyAsync(scratch, d_out, outBytes, cudaMemcpyDeviceToDevice)); });
    printf("hgc %d^3 = %d elements, %d x %d threads\n", edgeElems, numElem, blocks, threads);
    printf("%-14s %8.4f ms %6.0f GB/s (of the bytes hgc writes)\n", "memcpy", memcpyMs, outBytes / memcpyMs / 1e6);
    struct Variant { const char *name; Kernel kernel; int smem; };
    Variant variants[] = {{"orig", hgc, 0}, {"warp_subtile", warp_subtile, 0},
                          {"block_dynamic", block_dynamic, dynamicBytes}};
    std::vector<char> reference(outBytes), out(outBytes);
    float origMs = 0;
    for (auto &var : variants) {
      auto launch = [&] {
        var.kernel<<<blocks, threads, var.smem>>>(
            d_out, d_out + 8 * (size_t)numElem, d_out + 16 * (size_t)numElem,
            d_out + 24 * (size_t)numElem, d_out + 32 * (size_t)numElem,
            d_out + 40 * (size_t)numElem, d_out + 48 * (size_t)numElem, d_x, d_y,
            d_z, d_nodelist, d_volo, d_v, d_err, numElem);
      };
      CK(cudaMemset(d_out, 0xa5, outBytes));
      launch();
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(out.data(), d_out, outBytes, cudaMemcpyDeviceToHost));
      if (var.kernel == hgc) reference = out;
      bool same = memcmp(out.data(), reference.data(), outBytes) == 0;
      failures += !same;
      float ms = time_ms(launch);
      if (var.kernel == hgc) origMs = ms;
      cudaFuncAttributes attr;
      CK(cudaFuncGetAttributes(&attr, var.kernel));
      printf("%-14s %8.4f ms %6.0f GB/s %5.2fx %3d regs %6d B smem  %s\n", var.name, ms,
             outBytes / ms / 1e6, origMs / ms, attr.numRegs, (int)attr.sharedSizeBytes + var.smem,
             same ? "same" : "DIFFERENT");
    }
    for (void *p : {(void *)d_x, (void *)d_y, (void *)d_z, (void *)d_nodelist, (void *)d_volo,
                    (void *)d_v, (void *)d_out, (void *)d_err, scratch})
      CK(cudaFree(p));
  }
  return failures ? 1 : 0;
}
