//===- LaunchGrid.cpp - The host side of a reshaped launch ---------------===//
//
// Compiled to LLVM bitcode with the plugin; LaunchHost.cpp links it into
// each host translation unit `coalda cc` builds with reshaped launches, and
// calls __coalda_launch_grid where the kernel's stub called
// cudaLaunchKernel.
//
// Three forms of variant (VariantForm, as LaunchHost.cpp's LaunchForm
// passes it):
//   - rows: the variant reads only blockIdx.x and gridDim.x anew
//     (GridVariant.cpp): it is launched with the original grid's y and z,
//     and each row of blocks loops over its own row, on X = max(1, R / (y *
//     z)) blocks in x, where R is the number of the variant's blocks the
//     device holds at once; the original grid's x size is its extra, last
//     argument;
//   - tiles (GridVariantTile.cpp): each block runs a 32x32 tile of original
//     blocks, 32/x by 32/y of them, for blocks of 256 threads whose x and y
//     are powers of two up to 32 and z is 1 (else the original launches);
//     on a grid of ceil(X / (32/x)) by ceil(Y / (32/y)) by Z, with the
//     original grid's X and Y appended;
//   - rewrite (RewriteChoice.cpp): the kernel is a rewrite whose gain
//     depends on the launch (a block shape, a size), and the variant the
//     kernel as written: the same grid, the same arguments. Its measurement
//     chooses between the rewrite and no rewrite; "original" in the pins
//     and the report is then the variant;
//   - bounded (coalda/driver/registers.py): the kernel is a rewrite given
//     `.maxnreg` so that blocks of 1024 threads launch, and the variant the
//     same code without the limit, as ptxas sizes it (dslash: 20% faster,
//     docs/runs/launches/README.md, run 10). No measurement: the variant
//     wherever the device runs a block of it at the launch's block size
//     (its occupancy), else the kernel; COALDA_LAUNCH=original launches the
//     kernel.
//
// The choice, per launch configuration (device, variant, threads a block
// and the block's x size, dynamic shared memory, the grid's rows (y * z)
// and its x size, each rounded up to a power of two):
//   - the original kernel, on its own grid, when the variant's grid is not
//     smaller (nothing to gain; never for the rewrite form), the block does
//     not fit the tiles, or the device cannot run a block of the variant
//     (its registers at this block size);
//   - else, by measurement: the first 2 * Rounds launches of the
//     configuration run the original and the variant in the Thue-Morse
//     order (O V V O V O O V: each first as often as the other, and as
//     often early as late), each between two CUDA events on the launch's
//     stream. Later launches read the events without blocking
//     (cudaEventQuery); once every trial has completed, the configuration
//     launches the faster of the two for good, by each one's median
//     launch. The order and the median are measured (docs/runs/launches/,
//     runs 12 to 14): successive launches of a kernel in a program do not
//     run alike (the program's data and caches change between them), and
//     with strict alternation and each one's fastest launch, whichever
//     code ran first won on launches of 4 us to 0.13 ms; a first launch
//     may also include the module's lazy loading. Until then, and in a
//     stream that is being captured into a graph (no events there), it
//     launches the static decision, as it does under a profiler that
//     injects itself into the runtime (CUDA_INJECTION64_PATH: its events
//     would time the tool): the variant where the device code
//     marks it preferred (Preferred: a flat copy of small elements,
//     GridVariant.cpp's cost rule), else the original. A program that
//     launches a kernel once, or in one burst that ends before the GPU has
//     run the timed launches, gets the static decision.
// Outputs are equal either way (GridVariant.cpp's proof).
// COALDA_LAUNCH=original or =reshaped pins the choice: the code as written
// or COALDA's (reshaped where the grid allows it; =rewritten is the same,
// the rewrite form's word); COALDA_LAUNCH_REPORT=1 prints each configuration's
// choice and its measurements on stderr, once.
//
// Launches may come from several host threads: the table is guarded by a
// spin lock, held to reserve a trial, read a decision, or read events and
// ask whether the stream is being captured (calls that do not block),
// never across a launch. A trial another thread has reserved but not yet
// launched is waited for, not taken for a failed one. While a stream is
// being captured, its launches read no events: a query in a capture is an
// unsafe call that invalidates it. Events are read in the relaxed capture
// mode (cudaThreadExchangeStreamCaptureMode), so that another thread's
// capture in the global mode does not fail the query and that capture
// (found on an H200 by docs/probe/launch_concurrency.cu: every captured
// graph of the reshaped build failed with error 901). A failed occupancy
// query (a variant the device cannot load) makes the configuration launch
// the original, and clears the error it left so that the program's own
// cudaGetLastError() does not see it.
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
int cudaGetDeviceCount(int *Count);
int cudaDeviceGetAttribute(int *Value, int Attr, int Device);
int cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *Blocks,
                                                  const void *Func,
                                                  int BlockSize,
                                                  size_t SharedMem);
int cudaGetLastError(void);
int cudaEventCreate(void **Event);
int cudaEventDestroy(void *Event);
int cudaEventRecord(void *Event, void *Stream);
int cudaEventQuery(void *Event);
int cudaEventElapsedTime(float *Ms, void *Start, void *End);
int cudaStreamIsCapturing(void *Stream, int *Status);
int cudaThreadExchangeStreamCaptureMode(int *Mode);
}

namespace {

constexpr int MultiProcessorCount = 16; // cudaDevAttrMultiProcessorCount
constexpr unsigned TableSize = 128;
constexpr unsigned Rounds = 4;          // timed launches of each kernel
constexpr unsigned Trials = 2 * Rounds; // in the order of codeOf

enum class Choice { Original, Variant };

/// The code trial I runs: the Thue-Morse sequence (the parity of I's
/// bits), O V V O V O O V.
Choice codeOf(unsigned I) {
  return __builtin_popcount(I) % 2 ? Choice::Variant : Choice::Original;
}

/// A reserved trial's state: its launching thread sets it after the launch.
enum class Trial : uint8_t {
  InFlight = 0, ///< reserved, not yet launched (zero: a fresh entry's)
  Timed,        ///< launched between its two events
  Untimed,      ///< its launch or an event record failed: no time
};

/// cudaStreamCaptureModeRelaxed.
constexpr int RelaxedCaptureMode = 2;

/// The variant's form (LaunchHost.cpp's LaunchForm, as the stub passes
/// it): which grid it is launched on, with which sizes appended.
enum class Form : uint32_t {
  Rows = 0,  ///< fewer blocks in x; the original grid's x size appended
  Tiles = 1, ///< a 32x32 tile of original blocks per block; x and y sizes
  Rewrite = 2, ///< the original grid and arguments: the kernel as written
  Bounded = 3, ///< the same; the kernel without its register limit
};

Form formOf(uint32_t VariantForm) {
  switch (VariantForm) {
  case uint32_t(Form::Tiles):
    return Form::Tiles;
  case uint32_t(Form::Rewrite):
    return Form::Rewrite;
  case uint32_t(Form::Bounded):
    return Form::Bounded;
  default:
    return Form::Rows;
  }
}

/// One launch configuration's state.
struct Entry {
  const void *Variant;
  int Device;
  unsigned Threads;
  unsigned BlockX;    // a tile's shape depends on it, not only on Threads
  size_t SharedMem;
  unsigned SizeClass; // of the grid's x size and rows
  int Blocks;         // of the variant the device holds at once; 0: none
  unsigned Issued;    // trials reserved so far
  unsigned Done;      // trials whose events were read
  Trial State[Trials];
  void *Start[Trials], *Stop[Trials];
  float Times[2][Rounds]; // the original's and variant's timed trials
  unsigned Count[2];
  float Ms[2];        // their medians, once decided
  bool Decided;
  Choice Chosen;
  bool Reported;
};

Entry Table[TableSize];
unsigned Used;
bool Locked;

void lock() {
  while (__atomic_test_and_set(&Locked, __ATOMIC_ACQUIRE))
    ;
}
void unlock() { __atomic_clear(&Locked, __ATOMIC_RELEASE); }

/// Read(getenv(Name)), read once per process into Slot (a program may
/// launch a kernel 10,000 times); racing first reads agree.
template <typename ReadFn>
int fromEnvironment(int &Slot, const char *Name, ReadFn Read) {
  int Known = __atomic_load_n(&Slot, __ATOMIC_RELAXED);
  if (Known < 0) {
    Known = Read(getenv(Name));
    __atomic_store_n(&Slot, Known, __ATOMIC_RELAXED);
  }
  return Known;
}

int Pin = -1, Reporting = -1, Injected = -1;
/// COALDA_LAUNCH: 0 unset, 1 original, 2 reshaped (or rewritten).
int pin() {
  return fromEnvironment(Pin, "COALDA_LAUNCH", [](const char *Set) {
    if (!Set)
      return 0;
    if (!strcmp(Set, "original"))
      return 1;
    return !strcmp(Set, "reshaped") || !strcmp(Set, "rewritten") ? 2 : 0;
  });
}
bool reporting() {
  return fromEnvironment(Reporting, "COALDA_LAUNCH_REPORT",
                         [](const char *Set) {
                           return int(Set && !strcmp(Set, "1"));
                         });
}
/// Whether a tool is injected into the CUDA runtime (ncu and nsys set
/// CUDA_INJECTION64_PATH): it serializes and replays launches, so events
/// would time the tool, not the kernels (docs/runs/launches/README.md,
/// run 3a). Then no launch is timed, and the static decision stands.
bool toolInjected() {
  return fromEnvironment(Injected, "CUDA_INJECTION64_PATH",
                         [](const char *Set) { return int(Set && *Set); });
}

int DeviceCount = -1;
/// The calling thread's current device. A process that sees one device
/// (most do; CUDA_VISIBLE_DEVICES) is on device 0 without asking: the
/// question is a runtime call on every launch otherwise, and the bulk of
/// the choice's cost once decided (docs/runs/launches/README.md, run 16).
bool currentDevice(int &Device) {
  int Count = __atomic_load_n(&DeviceCount, __ATOMIC_RELAXED);
  if (Count < 0) {
    if (cudaGetDeviceCount(&Count) != 0) {
      cudaGetLastError();
      Count = 0; // ask each time
    }
    __atomic_store_n(&DeviceCount, Count, __ATOMIC_RELAXED);
  }
  if (Count == 1) {
    Device = 0;
    return true;
  }
  if (cudaGetDevice(&Device) == 0)
    return true;
  cudaGetLastError();
  return false;
}

unsigned sizeClass(unsigned GridX) {
  unsigned Class = 0;
  while ((1u << Class) < GridX && Class < 31)
    ++Class;
  return Class;
}

/// A new entry's measured parts: the occupancy and, for a form that times
/// its trials, their events. Called without the lock.
void prepare(Entry &E, bool Timed) {
  int PerSM = 0, SMs = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&PerSM, E.Variant,
                                                    E.Threads,
                                                    E.SharedMem) != 0 ||
      cudaDeviceGetAttribute(&SMs, MultiProcessorCount, E.Device) != 0) {
    cudaGetLastError();
    PerSM = 0;
  }
  E.Blocks = PerSM * SMs;
  for (unsigned I = 0; Timed && I < Trials; ++I)
    if (cudaEventCreate(&E.Start[I]) != 0 || cudaEventCreate(&E.Stop[I]) != 0)
      E.Blocks = 0; // no timing: the original for good (events leak: rare)
  if (E.Blocks == 0)
    cudaGetLastError();
}

/// The entry of a configuration, made on first use; null when the table
/// is full (the original then). Returns with the lock held when non-null.
Entry *entryFor(const void *Variant, int Device, const CoaldaDim3 &Block,
                size_t SharedMem, unsigned SizeClass, bool Timed) {
  unsigned Threads = Block.x * Block.y * Block.z;
  auto Find = [&]() -> Entry * { // with the lock held
    for (unsigned I = 0; I < Used; ++I) {
      Entry &E = Table[I];
      if (E.Variant == Variant && E.Device == Device &&
          E.Threads == Threads && E.BlockX == Block.x &&
          E.SharedMem == SharedMem && E.SizeClass == SizeClass)
        return &E;
    }
    return nullptr;
  };
  lock();
  if (Entry *Known = Find())
    return Known;
  unlock();
  Entry Fresh{};
  Fresh.Variant = Variant;
  Fresh.Device = Device;
  Fresh.Threads = Threads;
  Fresh.BlockX = Block.x;
  Fresh.SharedMem = SharedMem;
  Fresh.SizeClass = SizeClass;
  prepare(Fresh, Timed);
  lock();
  if (Entry *Known = Find()) // another thread made it meanwhile
    return Known;
  if (Used == TableSize) {
    unlock();
    return nullptr;
  }
  Table[Used] = Fresh;
  return &Table[Used++];
}

/// The calling thread in the relaxed capture mode for its lifetime: reading
/// an event is an unsafe call while any thread captures in the global mode.
class RelaxedCapture {
  int Saved = RelaxedCaptureMode;
  bool Swapped;

public:
  RelaxedCapture()
      : Swapped(cudaThreadExchangeStreamCaptureMode(&Saved) == 0) {}
  ~RelaxedCapture() {
    if (Swapped)
      cudaThreadExchangeStreamCaptureMode(&Saved);
  }
};

/// The median of Times' first N (N at most Rounds): the mean of the two
/// middle ones for an even N; 0 for none.
float median(float *Times, unsigned N) {
  for (unsigned I = 1; I < N; ++I) // insertion sort: four at most
    for (unsigned J = I; J > 0 && Times[J - 1] > Times[J]; --J) {
      float T = Times[J];
      Times[J] = Times[J - 1];
      Times[J - 1] = T;
    }
  if (N == 0)
    return 0;
  return N % 2 ? Times[N / 2] : (Times[N / 2 - 1] + Times[N / 2]) / 2;
}

/// Reads the completed trials' events; decides when all are in. Called
/// with the lock held, never for a stream being captured; cudaEventQuery
/// does not block.
void collect(Entry &E) {
  RelaxedCapture Relaxed;
  for (unsigned I = E.Done; I < E.Issued; ++I) {
    if (E.State[I] == Trial::InFlight) // another thread is launching it
      return;
    if (E.State[I] == Trial::Untimed) { // a failed launch: no time
      E.Done = I + 1;
      continue;
    }
    if (cudaEventQuery(E.Stop[I]) != 0)
      return;
    float Ms = 0;
    if (cudaEventElapsedTime(&Ms, E.Start[I], E.Stop[I]) == 0) {
      unsigned Which = unsigned(codeOf(I));
      E.Times[Which][E.Count[Which]++] = Ms;
    }
    E.Done = I + 1;
  }
  if (E.Done < Trials)
    return;
  E.Decided = true;
  for (unsigned Which = 0; Which < 2; ++Which)
    E.Ms[Which] = median(E.Times[Which], E.Count[Which]);
  E.Chosen = E.Count[0] && E.Count[1] && E.Ms[1] < E.Ms[0]
                 ? Choice::Variant
                 : Choice::Original;
}

/// The variant's blocks in x for Grid: the blocks the device holds at
/// once, shared by the grid's rows, at least one.
unsigned rowBlocks(unsigned Blocks, const CoaldaDim3 &Grid) {
  uint64_t Rows = uint64_t(Grid.y) * Grid.z;
  return Rows >= Blocks ? 1u : unsigned(Blocks / Rows);
}

bool powerOfTwoUpTo32(unsigned N) { return N && N <= 32 && !(N & (N - 1)); }

/// The tile form's blocks: a tile's 32x32 virtual threads are each block
/// thread's four (GridVariantTile.cpp, unrolled for 256 threads), so the
/// block has 256 threads, its x and y sizes divide 32 (32x8, 16x16, 8x32)
/// and its z is 1. Otherwise there is no tile grid (z of 0).
CoaldaDim3 tileGrid(const CoaldaDim3 &Grid, const CoaldaDim3 &Block) {
  if (Block.z != 1 || !powerOfTwoUpTo32(Block.x) ||
      !powerOfTwoUpTo32(Block.y) || Block.x * Block.y != 256)
    return CoaldaDim3{0, 0, 0};
  unsigned Across = 32 / Block.x, Down = 32 / Block.y;
  return CoaldaDim3{Grid.x / Across + (Grid.x % Across != 0),
                    Grid.y / Down + (Grid.y % Down != 0), Grid.z};
}

/// The variant's grid for a launch of Grid by Block, Blocks of it fitting
/// the device at once; z of 0 where the variant has nothing to gain.
CoaldaDim3 variantGrid(Form F, unsigned Blocks, const CoaldaDim3 &Grid,
                       const CoaldaDim3 &Block) {
  if (Blocks == 0)
    return CoaldaDim3{0, 0, 0};
  if (F == Form::Rewrite || F == Form::Bounded)
    return Grid;
  if (F == Form::Tiles) {
    CoaldaDim3 Tiles = tileGrid(Grid, Block);
    return uint64_t(Tiles.x) * Tiles.y < uint64_t(Grid.x) * Grid.y
               ? Tiles
               : CoaldaDim3{0, 0, 0};
  }
  unsigned X = rowBlocks(Blocks, Grid);
  return X < Grid.x ? CoaldaDim3{X, Grid.y, Grid.z} : CoaldaDim3{0, 0, 0};
}

void report(Form F, const char *Name, const CoaldaDim3 &Grid,
            const CoaldaDim3 &Reshaped, const Entry &E, const char *Why) {
  unsigned Each = E.Count[0] < E.Count[1] ? E.Count[0] : E.Count[1];
  if (F == Form::Rewrite) { // the kernel is the rewrite, the variant not
    fprintf(stderr,
            "coalda: %s: grid %u x %u x %u, %u threads a block: %s (original "
            "%.4f ms, rewritten %.4f ms, the median of %u launches each)\n",
            Name, Grid.x, Grid.y, Grid.z, E.Threads, Why, E.Ms[1], E.Ms[0],
            Each);
    return;
  }
  fprintf(stderr,
          "coalda: %s: grid %u x %u x %u, %u threads a block: %s (original "
          "%.4f ms, reshaped onto %u x %u x %u blocks %.4f ms, the median "
          "of %u launches each)\n",
          Name, Grid.x, Grid.y, Grid.z, E.Threads, Why, E.Ms[0], Reshaped.x,
          Reshaped.y, Reshaped.z, E.Ms[1], Each);
}

/// Launches the variant on Reshaped, with the original grid's x size (and,
/// for tiles, its y size) appended to the arguments.
int launchVariant(const void *Variant, CoaldaDim3 Reshaped,
                  CoaldaDim3 Grid, CoaldaDim3 Block, void **Args,
                  uint32_t NumArgs, size_t SharedMem, void *Stream,
                  int &Failed) {
  void *Inline[32];
  void **Moved = NumArgs + 2 <= 32 ? Inline
                                   : static_cast<void **>(malloc(
                                         (NumArgs + 2) * sizeof(void *)));
  if (!Moved) {
    Failed = 1;
    return 0;
  }
  for (uint32_t I = 0; I < NumArgs; ++I)
    Moved[I] = Args[I];
  unsigned VirtualX = Grid.x, VirtualY = Grid.y;
  Moved[NumArgs] = &VirtualX;
  Moved[NumArgs + 1] = &VirtualY; // a parameter of tiles only
  int Status =
      cudaLaunchKernel(Variant, Reshaped, Block, Moved, SharedMem, Stream);
  if (Moved != Inline)
    free(Moved);
  return Status;
}

bool capturing(void *Stream) {
  int Status = 0;
  if (cudaStreamIsCapturing(Stream, &Status) != 0) {
    cudaGetLastError();
    return true; // cannot tell: no events
  }
  return Status != 0;
}

/// The bounded form's launch, E locked: the variant (the kernel without its
/// register limit) wherever the device holds a block of it, decided on the
/// configuration's first launch and reported once.
template <typename UnboundedFn, typename LimitedFn>
int launchBounded(Entry &E, const char *Name, const CoaldaDim3 &Grid,
                  UnboundedFn Unbounded, LimitedFn Limited) {
  if (!E.Decided) {
    E.Decided = true;
    E.Chosen = E.Blocks > 0 ? Choice::Variant : Choice::Original;
  }
  bool Report = !E.Reported && reporting();
  E.Reported = E.Reported || Report;
  Choice Use = E.Chosen;
  unlock();
  if (Report)
    fprintf(stderr,
            "coalda: %s: grid %u x %u x %u, %u threads a block: %s\n", Name,
            Grid.x, Grid.y, Grid.z, E.Threads,
            Use == Choice::Variant
                ? "without its register limit (a block of it fits)"
                : "with its register limit (a block of it without the "
                  "limit does not fit)");
  return Use == Choice::Variant ? Unbounded() : Limited();
}

} // namespace

extern "C" int __coalda_launch_grid(const void *Kernel, const void *Variant,
                                    const char *Name, uint64_t GridXY,
                                    uint32_t GridZ, uint64_t BlockXY,
                                    uint32_t BlockZ, void **Args,
                                    uint32_t NumArgs, uint64_t SharedMem,
                                    void *Stream, uint32_t Preferred,
                                    uint32_t VariantForm) {
  Form F = formOf(VariantForm);
  CoaldaDim3 Grid{unsigned(GridXY), unsigned(GridXY >> 32), GridZ};
  CoaldaDim3 Block{unsigned(BlockXY), unsigned(BlockXY >> 32), BlockZ};
  auto Original = [&] {
    return cudaLaunchKernel(Kernel, Grid, Block, Args, SharedMem, Stream);
  };
  // The rewrite form's variant, the code as written: K's grid and arguments.
  auto AsWrittenHere = [&] {
    return cudaLaunchKernel(Variant, Grid, Block, Args, SharedMem, Stream);
  };
  // The code as written and COALDA's: the kernel and its variant, but for
  // the rewrite form, whose kernel is the rewrite.
  Choice AsWritten = F == Form::Rewrite ? Choice::Variant : Choice::Original;
  Choice Coaldas = F == Form::Rewrite ? Choice::Original : Choice::Variant;
  // An empty grid or block is the launch's own error (cudaLaunchKernel
  // reports it, as in a plain build): no entry, no variant grid (whose rows
  // would divide by a zero y or z).
  if (!Grid.x || !Grid.y || !Grid.z || !Block.x || !Block.y || !Block.z)
    return Original();
  int Device = 0;
  if (pin() == 1)
    return AsWritten == Choice::Variant ? AsWrittenHere() : Original();
  if (!currentDevice(Device))
    return Original();
  // The bounded form's decision depends on the block alone: one entry for
  // every grid (a program with many grid sizes would fill the table).
  unsigned SizeClass = F == Form::Bounded
                           ? 0
                           : sizeClass(Grid.x) * 32 + sizeClass(Grid.y * Grid.z);
  Entry *E = entryFor(Variant, Device, Block, SharedMem, SizeClass,
                      F != Form::Bounded);
  if (!E)
    return Original();
  // Locked from here until the choice is made.
  if (F == Form::Bounded) // the same code: where it fits, for good
    return launchBounded(*E, Name, Grid, AsWrittenHere, Original);
  CoaldaDim3 Reshaped = variantGrid(F, unsigned(E->Blocks), Grid, Block);
  if (Reshaped.z == 0) {
    unlock();
    return Original();
  }
  // Until measured (and in a stream being captured): the static decision.
  Choice Use = Preferred ? Choice::Variant : Choice::Original;
  int Reserved = -1;
  if (pin() == 2) {
    Use = Coaldas;
  } else if (E->Decided) {
    Use = E->Chosen;
  } else if (!toolInjected() && !capturing(Stream)) {
    if (E->Issued < Trials) {
      Reserved = int(E->Issued++);
      Use = codeOf(unsigned(Reserved));
    } else {
      collect(*E);
      if (E->Decided)
        Use = E->Chosen;
    }
  }
  bool Report = E->Decided && !E->Reported && reporting();
  if (Report)
    E->Reported = true;
  unlock();
  if (Report)
    report(F, Name, Grid, Reshaped, *E,
           E->Chosen == AsWritten ? "original, measured faster"
           : F == Form::Rewrite   ? "rewritten, measured faster"
                                  : "reshaped, measured faster");

  void *Start = Reserved >= 0 ? E->Start[Reserved] : nullptr;
  void *Stop = Reserved >= 0 ? E->Stop[Reserved] : nullptr;
  bool Timed = Start && cudaEventRecord(Start, Stream) == 0;
  int Failed = 0;
  int Status =
      Use == Choice::Original ? Original()
      : F == Form::Rewrite
          ? AsWrittenHere()
          : launchVariant(Variant, Reshaped, Grid, Block, Args, NumArgs,
                          SharedMem, Stream, Failed);
  if (Failed)
    Status = Original();
  Timed = Timed && Status == 0 && !Failed &&
          cudaEventRecord(Stop, Stream) == 0;
  if (Reserved >= 0) {
    lock();
    E->State[Reserved] = Timed ? Trial::Timed : Trial::Untimed;
    unlock();
  }
  return Status;
}
