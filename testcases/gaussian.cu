// Rodinia 3.1 gaussian's Fan2 (one step t of Gaussian elimination on a
// Size x Size matrix), as Rodinia writes it: thread (x, y) of a 2-D grid
// updates a[x+1+t][y+t], so consecutive threads of a warp (consecutive x)
// read and write a column. COALDA permutes the read-modify-write through a
// shared tile: the block loads its column pieces in turn, each thread
// updates its element in the tile, and the block stores the pieces back.
__global__ void Fan2(float *m_cuda, float *a_cuda, float *b_cuda, int Size, int j1, int t) {
  if (threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t) return;
  if (threadIdx.y + blockIdx.y * blockDim.y >= Size - t) return;

  int xidx = blockIdx.x * blockDim.x + threadIdx.x;
  int yidx = blockIdx.y * blockDim.y + threadIdx.y;

  a_cuda[Size * (xidx + 1 + t) + (yidx + t)] -= m_cuda[Size * (xidx + 1 + t) + t] * a_cuda[Size * t + (yidx + t)];
  if (yidx == 0) {
    b_cuda[xidx + 1 + t] -= m_cuda[Size * (xidx + 1 + t) + (yidx + t)] * b_cuda[t];
  }
}
