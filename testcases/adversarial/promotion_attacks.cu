// Adversarial corpus against the loop promotion (pass/lib/LoopPromotion.cpp):
// loops that accumulate into their thread's uncoalesced global element while
// other accesses of the loop (byte and short views, walks with negative or
// large steps, wrapping and 64-bit indices, stores into a table, shared and
// private memory, a second element) may reach its bytes. Launch specs:
// promotion_attacks.toml. No kernel is __restrict__: the overlap layouts
// (one thread, buffers a few bytes apart) and the alias layout (every
// buffer at one address, the whole grid) must send the overlapping threads
// down the original loop. Each thread writes only its own element and reads
// other threads' bytes only where no thread writes, so the alias layout is
// race-free.
struct F4 { float x, y, z, w; };
struct I4 { int a, b, c, d; };

#define G (blockIdx.x * blockDim.x + threadIdx.x)

// A byte view walks over the element's last three bytes and the next
// member (alias layout: the same buffer; overlap layouts: one byte apart).
__global__ void byte_window(I4 *dest, const unsigned char *bytes, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++)
      dest[t].a += bytes[16 * t + 1 + k];
}

// Two bytes at a fixed address straddle the element's upper half (offset
// 2, not a multiple of the member's size), read as a short through
// memcpy (no strict-aliasing claim; -O0 keeps the call: refused there).
__global__ void short_half(I4 *dest, const unsigned char *bytes, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++) {
      short h;
      __builtin_memcpy(&h, bytes + 16 * t + 2, 2);
      dest[t].a = dest[t].a * 3 + h;
    }
}

// The element's own bytes through a char pointer derived from it, at a
// constant distance: must be refused (PromotionUnanalyzable).
__global__ void own_bytes(I4 *dest, int reps, int n) {
  int t = G;
  if (t < n) {
    const unsigned char *b = (const unsigned char *)&dest[t];
    for (int k = 0; k < reps; k++)
      dest[t].a += b[k + 1];
  }
}

// A negative step: d, c, b, then a (the element in the alias layout).
__global__ void walk_down(I4 *dest, const int *view, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++)
      dest[t].a += view[4 * t + 3 - k];
}

// The same walk with unsigned 32-bit index arithmetic (zero-extended).
__global__ void walk_down_unsigned(I4 *dest, const int *view, unsigned reps, int n) {
  unsigned t = G;
  if (t < (unsigned)n)
    for (unsigned k = 0; k < reps; k++)
      dest[t].a += view[4u * t + 3u - k];
}

// The same walk with 64-bit indices.
__global__ void walk_down_i64(I4 *dest, const int *view, long long reps, int n) {
  long long t = G;
  if (t < n)
    for (long long k = 0; k < reps; k++)
      dest[t].a += view[4 * t + 3 - k];
}

// An 8-bit counter that wraps (252..255, 0..3): the table index falls back
// to the element (tbl[256t] is dest[64t].a in the alias layout) after the
// counter wraps. A range from the first to the last index computed without
// the wrap would miss it.
__global__ void u8_wrap(I4 *dest, const int *tbl, int lo, int hi, int n) {
  int t = G;
  if (t < n)
    for (unsigned char k = (unsigned char)lo; k != (unsigned char)hi; k++)
      dest[64 * t].a += tbl[256 * t + k];
}

// An 8-bit index stepping by 64: 0, 64, 128, 192, 0, ... while a separate
// counter runs the loop: the index returns to the element.
__global__ void u8_hop(I4 *dest, const int *tbl, int reps, int n) {
  int t = G;
  if (t < n) {
    unsigned char i = 64;
    for (int k = 0; k < reps; k++, i += 64)
      dest[64 * t].a += tbl[256 * t + i];
  }
}

// An unsigned step of 2^32 - 1 (-1 modulo 2^32): the index wraps downwards
// in 32 bits, over d, c, b, a.
__global__ void wrap_step(I4 *dest, const int *view, unsigned step, int reps, int n) {
  int t = G;
  if (t < n) {
    unsigned i = 4u * t + 3u;
    for (int k = 0; k < reps; k++, i += step)
      dest[t].a += view[i];
  }
}

// A run-time step that is unsigned (non-negative): b, c, d of the element
// at stride 1 (apart from a, fast path in the alias layout)...
__global__ void stride_apart(I4 *dest, const int *view, unsigned stride, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++)
      dest[t].a += view[4ull * t + 1 + (unsigned long long)k * stride];
}

// ...and from a itself (overlap in the alias layout).
__global__ void stride_hit(I4 *dest, const int *view, unsigned stride, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++)
      dest[t].a += view[4ull * t + (unsigned long long)k * stride];
}

// A step of two elements (32 bytes) over y members nobody writes: the range
// covers other threads' x but not this one's (fast path in alias).
__global__ void y_hop(F4 *dest, const float *view, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++)
      dest[t].x += view[4 * t + 1 + 8 * k];
}

// A negative step of one element over z members, ending at this thread's.
__global__ void z_hop_down(F4 *dest, const float *view, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++)
      dest[t].x = dest[t].x * 0.5f + view[4 * (t + reps - 1 - k) + 2];
}

// A bound that is a parameter and negative (n = 256: -2, over a and b),
// or zero trips (n = 300).
__global__ void negative_start(I4 *dest, const int *view, int lo, int n) {
  int t = G;
  if (t < n)
    for (int k = lo; k < 0; k++)
      dest[t].a += view[4 * t + 2 + k];
}

// A do-while: one trip even when reps is 0; reads a itself (alias).
__global__ void do_once(I4 *dest, const int *view, int reps, int n) {
  int t = G;
  if (t < n) {
    int k = 0;
    do {
      dest[t].a = dest[t].a * 5 + view[4 * t + k];
    } while (++k < reps);
  }
}

// A count-down loop over c, b, a.
__global__ void count_down(I4 *dest, const int *view, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = reps - 1; k >= 0; k--)
      dest[t].a ^= view[4 * t + k] + k;
}

// Two elements (a of one buffer, b of another) that meet in the overlap
// layout (b[0].b is a[0].a when b is 4 bytes before a); src at a fixed
// address too.
__global__ void two_elements(I4 *a, I4 *b, const I4 *src, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++) {
      a[t].a += src[t].c;
      b[t].b = b[t].b * 3 + a[t].a;
    }
}

// The element stored as a float, then as an int (memcpy: no
// strict-aliasing claim; -O0 keeps the calls).
__global__ void float_then_int(F4 *dest, const F4 *src, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++) {
      dest[t].x += src[t].y;
      int v;
      __builtin_memcpy(&v, &dest[t].x, 4);
      v ^= 0x00100000;
      __builtin_memcpy(&dest[t].x, &v, 4);
    }
}

// The element stored as a float and loaded as an int, and as 8 bytes
// across x and y (y stored too).
__global__ void load_as_int(F4 *dest, const F4 *src, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++) {
      dest[t].x = src[t].z + 1.0f;
      int i;
      long long l;
      __builtin_memcpy(&i, &dest[t].x, 4);
      __builtin_memcpy(&l, &dest[t].x, 8);
      dest[t].y = (float)(i & 0xffff) + (float)(l & 0xff);
    }
}

// A return in the loop: two ways out, must be refused (PromotionLoopShape).
__global__ void early_return(I4 *dest, const I4 *src, int reps, int n) {
  int t = G;
  if (t >= n)
    return;
  for (int k = 0; k < reps; k++) {
    if ((src[t].d & 3) == k)
      return;
    dest[t].a += src[t].b;
  }
  dest[t].c = 1;
}

// The loop writes a table beside the element (b, c, d of the same element
// in the alias layout): apart, fast path.
__global__ void table_beside(I4 *dest, int *tab, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++) {
      tab[4 * t + 1 + k] = dest[t].a;
      dest[t].a += 3;
    }
}

// The loop writes a table that holds the element (a first): the element
// must be read back from memory after each write.
__global__ void table_over(I4 *dest, int *tab, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++) {
      tab[4 * t + k] = 5 * k + 1;
      dest[t].a += 3;
    }
}

// An inner promoted loop in an outer one; the outer loop reads the element
// and writes c (read by the next inner loop through view in the alias
// layout).
__global__ void nested(I4 *dest, I4 *out, const int *view, int reps, int outer, int n) {
  int t = G;
  if (t < n)
    for (int j = 0; j < outer; j++) {
      for (int k = 0; k < reps; k++)
        dest[t].a += view[4 * t + 1 + k];
      out[t].c += dest[t].a ^ j;
    }
}

// The exit in the middle of the body: c is stored on all but the last trip.
__global__ void middle_exit(I4 *dest, const I4 *src, int reps, int n) {
  int t = G;
  if (t < n) {
    int k = 0;
    for (;;) {
      dest[t].a += src[t].b;
      if (++k >= reps)
        break;
      dest[t].c += 1;
    }
  }
}

// A while loop whose exit test reads the element (no trip count): at most
// 15 trips.
__global__ void while_element(I4 *dest, const I4 *src, int n) {
  int t = G;
  if (t < n)
    while (dest[t].a & 15) {
      dest[t].a += 1;
      dest[t].c += src[t].b;
    }
}

// The element at a run-time byte offset (4: member b) of a byte buffer;
// the reads walk over a, b, c in the alias layout.
__global__ void offset_element(unsigned char *base, const int *src, int off, int reps, int n) {
  int t = G;
  if (t < n) {
    int *e = (int *)(base + 16 * t + off);
    for (int k = 0; k < reps; k++)
      *e = *e * 7 + src[4 * t + k];
  }
}

// Reads from shared memory (every slot written before the loop): the
// checks compare a shared address with a global one.
__global__ void shared_reads(I4 *dest, const I4 *src, int reps, int n) {
  __shared__ int s[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    s[i] = i * 3 + 1;
  __syncthreads();
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++)
      dest[t].a += s[threadIdx.x + k] + src[t].b;
}

// A private array with run-time indices, read and written in the loop.
__global__ void private_table(I4 *dest, const I4 *src, int reps, int n) {
  int t = G;
  if (t < n) {
    int acc[8];
    for (int i = 0; i < 8; i++)
      acc[i] = src[t].b + i;
    for (int k = 0; k < reps; k++) {
      dest[t].a += acc[k];
      acc[k + 1] ^= dest[t].a;
    }
    dest[t].d = acc[reps];
  }
}

// An invariant char store into another buffer: an element too, never
// compared with the int element (a of dest) that it meets in the alias
// layout (byte 1 of a).
__global__ void char_store(I4 *dest, unsigned char *bytes, const I4 *src, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++) {
      dest[t].a += src[t].b;
      bytes[16 * t + 1] = (unsigned char)k;
    }
}

// An IV stepping by two over b and d (never a).
__global__ void step_two(I4 *dest, const int *view, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k += 2)
      dest[t].a += view[4 * t + 1 + k];
}

// A byte index k * (2^62 - 1), wrapping modulo 2^64, read on every fourth
// trip only (the other trips' addresses are nowhere): b's first byte at
// k = 0, then, 4 * (2^62 - 1) = 2^64 - 4 bytes further, a's first byte at
// k = 4 (the element in the alias layout). From the first address to the
// last, computed modulo 2^64, the range is inverted (empty).
__global__ void wrap_around(I4 *dest, const unsigned char *bytes, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++) {
      int v = 1;
      if ((k & 3) == 0)
        v = bytes[16 * t + 4 + (long long)((unsigned long long)k * 0x3FFFFFFFFFFFFFFFull)];
      dest[t].a += v;
    }
}

// The same with a negative step, -(2^62 - 1): a's first byte at k = 0,
// then b's (the element) at k = 4.
__global__ void wrap_around_down(I4 *dest, const unsigned char *bytes, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++) {
      int v = 1;
      if ((k & 3) == 0)
        v = bytes[16 * t + (long long)((unsigned long long)k * 0xC000000000000001ull)];
      dest[t].b += v;
    }
}

// wrap_around at -O3: not unrolled (unrolled by four, the read runs on
// every trip of the main loop, whose step, 2^64 - 4 bytes, is -4).
__global__ void wrap_around_rolled(I4 *dest, const unsigned char *bytes, int reps, int n) {
  int t = G;
  if (t < n)
#pragma unroll 1
    for (int k = 0; k < reps; k++) {
      int v = 1;
      if ((k & 3) == 0)
        v = bytes[16 * t + 4 + (long long)((unsigned long long)k * 0x3FFFFFFFFFFFFFFFull)];
      dest[t].a += v;
    }
}

// An inner loop with 64-bit indices (analyzable at -O3) over b and c, in
// an outer loop that reads the element and writes c through out (the same
// bytes as view's in the alias layout).
__global__ void nested_i64(I4 *dest, I4 *out, const int *view, long long reps, int outer, int n) {
  long long t = G;
  if (t < n)
    for (int j = 0; j < outer; j++) {
      for (long long k = 0; k < reps; k++)
        dest[t].a += view[4 * t + 1 + k];
      out[t].c += dest[t].a ^ j;
    }
}
