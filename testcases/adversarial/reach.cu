// Adversarial corpus: which threads of a row reach the copy. UniformReach
// (CoalescingTransform.cpp) says a block outside loops runs in all threads
// of a row or none when every branch on the way tests a row-uniform
// condition; a block after a loop qualifies when the loop is entered by all
// or none and "all its exits are uniform", which it checks as: the branch
// CONDITION of every exiting block is a row-uniform value (since 5f0774f:
// every branch in the loop). LoopInfo sees natural loops only: a block in an
// IRREDUCIBLE cycle is "outside loops". Launch specs: reach.toml.
struct Pixel { unsigned char r, g, b; };

#define COPY(d, s, i) { (d)[i].r = (s)[i].r; (d)[i].g = (s)[i].g; (d)[i].b = (s)[i].b; }

// Was a MISCOMPILE at -O0 (fixed in 5f0774f; at -O3 the two tests merge
// into a bounds guard on tid < 5 and the rewrite is right). An exiting block with a uniform
// condition (flag) that only threads 0..4 reach: with flag set, threads
// 0..4 leave the loop to the copy, the others leave through the other exit
// and return. The pass takes the copy for all-or-none and has threads 0..4
// move the whole row's region (ntid.x elements) instead of their 5.
__global__ void divergent_exit_uniform_cond(Pixel *dst, const Pixel *src, int m, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = 0;
  while (true) {
    if (threadIdx.x < 5) {
      if (flag) goto copy;
    }
    k++;
    if (k >= m) return;
  }
copy:
  COPY(dst, src, i);
}

// Held: the same divergently reached uniform break inside the loop around
// the copy. Left alone (two exiting blocks: not a grid-stride loop).
__global__ void divergent_break_in_uniform_loop(Pixel *dst, const Pixel *src, int m, int flag) {
  int base = blockIdx.x * blockDim.x * m;
  for (int k = 0; k < m; ++k) {
    int i = base + k * (int)blockDim.x + (int)threadIdx.x;
    COPY(dst, src, i);
    if (threadIdx.x < 5) {
      if (flag) break;
    }
  }
}

// Held: a copy after a loop with uniform exits only (k < m, and a uniform
// early exit on flag). Rewritten (every thread reaches it together).
__global__ void after_uniform_loop(Pixel *dst, const Pixel *src, int m, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = 0;
  while (true) {
    if (flag) goto copy;
    k++;
    if (k >= m) return;
  }
copy:
  COPY(dst, src, i);
}

// Held: a copy after a loop with a divergent exit condition. Left alone.
__global__ void after_divergent_exit(Pixel *dst, const Pixel *src, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = 0;
  while (true) {
    if (k == (int)(threadIdx.x & 3)) goto copy;
    k++;
    if (k >= m) return;
  }
copy:
  COPY(dst, src, i);
}

// Held: a uniform switch in front of the copy. Left alone at -O0 (only
// branches and returns are read as uniform terminators); -O3 turns the
// switch into branches and rewrites it.
__global__ void uniform_switch(Pixel *dst, const Pixel *src, int sel) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  switch (sel) {
  case 0: return;
  case 1: COPY(dst, src, i); break;
  default: break;
  }
}

// Held: a divergent branch whose both sides rejoin before the copy.
// Rewritten (the copy's block post-dominates the entry).
__global__ void rejoin_before_copy(Pixel *__restrict__ dst, const Pixel *__restrict__ src,
                                   int *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x & 1) out[i] = 1; else out[i] = 2;
  COPY(dst, src, i);
}

// Was a MISCOMPILE at -O0 and -O3 (fixed in the working tree after fe5ac07:
// a copy in an irreducible cycle is left alone). An irreducible cycle {A, B} (entered at A or at
// B, as the uniform flag says) whose only exit is the divergent test after
// the copy in A: thread t copies iterations 0..t%4. A post-dominates the
// entry and is in no natural loop, so UniformReach::allOrNone(A) says every
// thread of the row runs it, and k (a phi of the cycle) reads as a row-uniform
// atom. In iterations 1..3 only some threads run A, but each moves its units
// of the WHOLE row's region, writing the elements of threads that already
// left. (The address walker's insideLoops uses CycleInfo and sees the cycle;
// legality uses LoopInfo and does not.)
__global__ void irreducible_cycle(Pixel *dst, const Pixel *src, int flag) {
  int t = threadIdx.x;
  int base = blockIdx.x * blockDim.x * 4;
  int k = 0;
  if (flag) goto B;
A:
  COPY(dst, src, base + k * (int)blockDim.x + t);
  if (k >= (int)(threadIdx.x % 4)) return;
B:
  k++;
  goto A;
}
