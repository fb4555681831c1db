//===- LaunchGrid.cpp - The host side of a reshaped launch ---------------===//
//
// Compiled to LLVM bitcode with the plugin; LaunchHost.cpp links it into
// each host translation unit `coalda cc` builds with reshaped launches, and
// calls __coalda_launch_grid where the kernel's stub called
// cudaLaunchKernel.
//
// The choice, per launch:
//   - the original kernel, on its own grid, when COALDA_LAUNCH=original,
//     when the grid has more than one dimension (the variant reads only
//     blockIdx.x anew, GridVariant.cpp), or when the grid is no larger than
//     the blocks the device holds at once (nothing to gain);
//   - else the variant, on a one-dimensional grid of the blocks the device
//     holds at once (the variant's occupancy times the SM count), with the
//     original grid's x size as its extra, last argument.
// Outputs are equal either way (GridVariant.cpp's proof). The occupancy is
// asked once per device, variant, block size and dynamic shared memory
// size, and kept; the table is guarded by a spin lock, as launches may come
// from several host threads. A failed query (a variant the device cannot
// load) launches the original and clears the error it left, so that the
// program's own cudaGetLastError() does not see it.
// COALDA_LAUNCH_REPORT=1 prints each choice once per table entry, on
// stderr.
//
// The CUDA runtime's C API is declared here rather than included, so that
// the bitcode builds without CUDA's headers; dim3 is passed by value as
// clang's stubs pass it.
//
//===----------------------------------------------------------------------===//

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" {
struct CoaldaDim3 {
  unsigned x, y, z;
};
int cudaLaunchKernel(const void *Func, CoaldaDim3 Grid, CoaldaDim3 Block,
                     void **Args, size_t SharedMem, void *Stream);
int cudaGetDevice(int *Device);
int cudaDeviceGetAttribute(int *Value, int Attr, int Device);
int cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *Blocks,
                                                  const void *Func,
                                                  int BlockSize,
                                                  size_t SharedMem);
int cudaGetLastError(void);
}

namespace {

constexpr int MultiProcessorCount = 16; // cudaDevAttrMultiProcessorCount
constexpr unsigned TableSize = 64;

struct Entry {
  const void *Variant;
  int Device;
  unsigned Threads;
  size_t SharedMem;
  int Blocks; // blocks the device holds at once; 0: the variant cannot run
};

Entry Table[TableSize];
unsigned Used;
bool Locked;

void lock() {
  while (__atomic_test_and_set(&Locked, __ATOMIC_ACQUIRE))
    ;
}
void unlock() { __atomic_clear(&Locked, __ATOMIC_RELEASE); }

/// Whether the environment sets Name to Value, read once per process (a
/// program may launch a kernel 10,000 times). Racing first reads agree.
bool envIs(const char *Name, const char *Value, int &Cached) {
  int Known = __atomic_load_n(&Cached, __ATOMIC_RELAXED);
  if (Known < 0) {
    const char *Set = getenv(Name);
    Known = Set && strcmp(Set, Value) == 0;
    __atomic_store_n(&Cached, Known, __ATOMIC_RELAXED);
  }
  return Known;
}
int PinnedOriginal = -1, Reporting = -1;

/// The blocks of Variant the current device holds at once; 0 when it cannot
/// say. Reported the first time each entry is made.
int residentBlocks(const void *Variant, unsigned Threads, size_t SharedMem,
                   bool &Fresh) {
  int Device = 0;
  if (cudaGetDevice(&Device) != 0) {
    cudaGetLastError();
    return 0;
  }
  lock();
  for (unsigned I = 0; I < Used; ++I) {
    const Entry &E = Table[I];
    if (E.Variant == Variant && E.Device == Device && E.Threads == Threads &&
        E.SharedMem == SharedMem) {
      int Blocks = E.Blocks;
      unlock();
      Fresh = false;
      return Blocks;
    }
  }
  unlock();
  int PerSM = 0, SMs = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&PerSM, Variant, Threads,
                                                    SharedMem) != 0 ||
      cudaDeviceGetAttribute(&SMs, MultiProcessorCount, Device) != 0) {
    cudaGetLastError();
    PerSM = 0;
  }
  int Blocks = PerSM * SMs;
  lock();
  if (Used < TableSize)
    Table[Used++] = Entry{Variant, Device, Threads, SharedMem, Blocks};
  unlock();
  Fresh = true;
  return Blocks;
}

void report(const char *Name, const CoaldaDim3 &Grid, unsigned Threads,
            int Blocks, const char *Choice) {
  fprintf(stderr,
          "coalda: %s: grid %u x %u x %u, %u threads a block: %s (the device "
          "holds %d blocks of the variant at once)\n",
          Name, Grid.x, Grid.y, Grid.z, Threads, Choice, Blocks);
}

} // namespace

extern "C" int __coalda_launch_grid(const void *Kernel, const void *Variant,
                                    const char *Name, uint64_t GridXY,
                                    uint32_t GridZ, uint64_t BlockXY,
                                    uint32_t BlockZ, void **Args,
                                    uint32_t NumArgs, uint64_t SharedMem,
                                    void *Stream) {
  CoaldaDim3 Grid{unsigned(GridXY), unsigned(GridXY >> 32), GridZ};
  CoaldaDim3 Block{unsigned(BlockXY), unsigned(BlockXY >> 32), BlockZ};
  unsigned Threads = Block.x * Block.y * Block.z;
  if (envIs("COALDA_LAUNCH", "original", PinnedOriginal) || Grid.y != 1 || Grid.z != 1)
    return cudaLaunchKernel(Kernel, Grid, Block, Args, SharedMem, Stream);
  bool Fresh = false;
  int Blocks = residentBlocks(Variant, Threads, SharedMem, Fresh);
  bool Reshape = Blocks > 0 && Grid.x > unsigned(Blocks);
  if (Fresh && envIs("COALDA_LAUNCH_REPORT", "1", Reporting))
    report(Name, Grid, Threads, Blocks,
           Reshape ? "reshaped" : "original (the grid fits the device)");
  if (!Reshape)
    return cudaLaunchKernel(Kernel, Grid, Block, Args, SharedMem, Stream);
  void *Inline[32];
  void **Moved = NumArgs < 32 ? Inline
                              : static_cast<void **>(
                                    malloc((NumArgs + 1) * sizeof(void *)));
  if (!Moved)
    return cudaLaunchKernel(Kernel, Grid, Block, Args, SharedMem, Stream);
  for (uint32_t I = 0; I < NumArgs; ++I)
    Moved[I] = Args[I];
  unsigned VirtualBlocks = Grid.x;
  Moved[NumArgs] = &VirtualBlocks;
  int Status = cudaLaunchKernel(Variant, CoaldaDim3{unsigned(Blocks), 1, 1},
                                Block, Moved, SharedMem, Stream);
  if (Moved != Inline)
    free(Moved);
  return Status;
}
