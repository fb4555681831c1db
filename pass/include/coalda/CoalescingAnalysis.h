//===- CoalescingAnalysis.h - Canonical form of GPU memory addresses ------===//
//
// The COALDA analysis: for every global- or shared-memory load and store of a
// CUDA kernel it walks the address backwards over its def-use tree (the
// automaton documented in CoalescingAnalysis.cpp) and writes it in the
// canonical form
//
//     base + stride*lane + uniform + offset          (all in bytes)
//
// where lane is threadIdx.x (or the global x index ctaid.x*ntid.x+tid.x),
// uniform is a polynomial of values equal for every thread of one row of a
// block (blockIdx, threadIdx.y/z, kernel scalars, loop iterations) and offset
// is a constant. Accesses the automaton cannot read are kept with a reason.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_COALESCINGANALYSIS_H
#define COALDA_COALESCINGANALYSIS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace coalda {

/// A leaf of an address polynomial.
struct Atom {
  enum KindTy {
    ThreadIdx,  ///< llvm.nvvm.read.ptx.sreg.tid.{x,y,z}
    BlockIdx,   ///< ctaid
    BlockDim,   ///< ntid
    GridDim,    ///< nctaid
    Argument,   ///< an integer kernel parameter
    Iteration,  ///< the trip count of a loop, keyed by its induction phi
    Opaque,     ///< any other value proven equal for every thread of a row
    WarpIdx     ///< tid.x / 32: the warp within its row (lane-exact reading)
  };
  KindTy Kind;
  unsigned Dim = 0;                  ///< 0,1,2 = x,y,z for special registers
  const llvm::Value *V = nullptr;    ///< the value, for the non-register kinds

  bool isLane() const { return Kind == ThreadIdx && Dim == 0; }
  std::string name() const;
};

/// A product of atoms, as sorted atom ids (repetition = power).
using Monomial = llvm::SmallVector<unsigned, 3>;

/// Sum of integer-coefficient monomials; the empty monomial is the constant.
class Poly {
public:
  std::map<Monomial, int64_t> Terms;

  static Poly constant(int64_t C);
  static Poly atom(unsigned Id);
  Poly operator+(const Poly &O) const;
  Poly operator*(const Poly &O) const;
  Poly scaled(int64_t C) const;
  bool isConstant() const;
  int64_t constantTerm() const;
  bool mentions(unsigned AtomId) const;
  bool operator==(const Poly &O) const { return Terms == O.Terms; }
  bool operator!=(const Poly &O) const { return Terms != O.Terms; }
  bool operator<(const Poly &O) const { return Terms < O.Terms; }
  void print(llvm::raw_ostream &OS, const std::vector<Atom> &Atoms) const;
};

enum class MemorySpace { Global, Shared, Other };
enum class LaneKind { None, ThreadIdx, GlobalIdx };

/// The lanes of a warp, as lane-exact evaluation reads them.
inline constexpr unsigned WarpLanes = 32;

/// An address the linear form cannot hold that lane-exact evaluation
/// (LaneExact.cpp) reads for the 32 lanes of one warp: base + U + Offsets[l],
/// with U the same for every lane of the warp. It holds where a warp is 32
/// consecutive threadIdx.x of one row (blockDim.x a multiple of 32).
struct WarpPattern {
  /// The buffer: a parameter, a global, or a pointer every thread of the row
  /// shares (loaded from a uniform address, chosen by a uniform branch).
  const llvm::Value *Base = nullptr;
  std::array<int64_t, WarpLanes> Offsets{}; ///< bytes past base + U, per lane
  /// base + U is a multiple of 32 bytes (a parameter's allocation, terms that
  /// are multiples of 32), so Offsets place the lanes in their sectors;
  /// otherwise counts assume the best alignment.
  bool SectorAligned = false;
  /// The induction phis whose iteration counts the warp-uniform part holds:
  /// it is warp-uniform only inside their loops.
  llvm::SmallVector<const llvm::Value *, 2> Inductions;

  /// 32-byte sectors one warp request of Piece bytes per lane touches.
  unsigned sectors(uint64_t Piece) const;
  /// The fewest sectors that hold the distinct bytes the lanes move.
  unsigned idealSectors(uint64_t Piece) const;
  /// Every lane reads or writes the same address.
  bool sameAddress() const;
  /// At the best alignment, the request touches no more than idealSectors.
  bool isCoalesced(uint64_t Piece) const;
  /// The most distinct 4-byte words one shared-memory bank serves in one
  /// request (1: no bank conflict).
  unsigned bankConflictWays(uint64_t Piece) const;
};

/// One load or store written in canonical form. A memory transfer of a
/// constant size (llvm.memcpy/memmove: clang's struct assignment `dst[i] =
/// src[i]`) is two accesses of the same instruction: its destination (a
/// store) and its source (a load).
struct AccessExpr {
  llvm::Instruction *Inst = nullptr;
  bool IsStore = false;
  llvm::Type *AccessTy = nullptr; ///< for a transfer, [Width x i8]
  uint64_t Width = 0; ///< bytes

  /// Empty when the automaton accepted the address.
  std::string Unknown;
  /// For an address the automaton rejects: what lane-exact evaluation reads
  /// of one warp. The access stays unknown to the rewrites (they need the
  /// linear form); findings and classes use the pattern.
  std::optional<WarpPattern> Warp;

  const llvm::Value *Base = nullptr;
  MemorySpace Space = MemorySpace::Global;
  LaneKind Lane = LaneKind::None;
  Poly Stride;  ///< coefficient of the lane, in bytes
  Poly Uniform; ///< row-uniform, non-constant terms
  int64_t Offset = 0;
  /// Bytes of the vector access the backend makes of this access and its
  /// neighbours in the element (BackendVectors.cpp); 0 when none. Such a
  /// vector is as wide as the stride: the warp access is contiguous.
  uint64_t VectorWidth = 0;

  bool isKnown() const { return Unknown.empty(); }
  /// Known, or read lane-exactly for one warp: findings can class it.
  bool isClassified() const { return isKnown() || Warp.has_value(); }
  /// Part of a memory transfer (memcpy/memmove).
  bool isTransfer() const;
  /// The address operand: of the load or store, or the transfer's
  /// destination (IsStore) or source.
  llvm::Value *pointer() const;
  /// The alignment the instruction declares for this address.
  llvm::Align alignment() const;
  /// Neither volatile nor atomic.
  bool isSimple() const;
  std::optional<int64_t> constantStride() const {
    if (!isKnown() || !Stride.isConstant())
      return std::nullopt;
    return Stride.constantTerm();
  }
  /// The bytes one machine access moves: Width for a load or store; a
  /// transfer is lowered into pieces as wide as its alignment allows.
  uint64_t pieceWidth() const;
  /// True when a warp's accesses are contiguous (|stride| <= piece width).
  bool isCoalesced() const;
  std::string laneName() const;
};

class AddressWalker;
class RowUniformity;

/// The analysis result for one function.
class CoalescingInfo {
public:
  CoalescingInfo();
  CoalescingInfo(CoalescingInfo &&);
  CoalescingInfo &operator=(CoalescingInfo &&);
  ~CoalescingInfo();

  std::vector<AccessExpr> Accesses;

  const std::vector<Atom> &atoms() const;
  /// Which values and branches are equal for all threads of a block row.
  const RowUniformity &uniformity() const;
  /// Reads any integer value with the automaton (state I); nullopt when it
  /// rejects. Shares the atom table of the accesses, so results compare.
  std::optional<Poly> readInteger(const llvm::Value *V) const;
  /// The atom id of a special register, e.g. (ThreadIdx, 0) for tid.x.
  unsigned registerAtom(Atom::KindTy Kind, unsigned Dim) const;
  /// The atom id of the trip count of the loop whose induction is Phi.
  unsigned iterationAtom(const llvm::Value *Phi) const;
  /// The full byte polynomial of an access: stride*lane + uniform + offset.
  Poly addressPoly(const AccessExpr &A) const;

  /// The access of a load or store; for a memory transfer its destination.
  const AccessExpr *lookup(const llvm::Instruction *I) const;
  /// The source access of a memory transfer, or null.
  const AccessExpr *transferSource(const llvm::Instruction *I) const;
  /// The canonical expression without kind and verdict, e.g. "%out + 3*gid + 1".
  void printExpr(llvm::raw_ostream &OS, const AccessExpr &A) const;
  /// "store i8 @ %out + 3*gid + 1 (width 1): uncoalesced".
  void printAccess(llvm::raw_ostream &OS, const AccessExpr &A) const;
  std::string exprString(const AccessExpr &A) const;

private:
  friend class CoalescingAnalysis;
  llvm::DenseMap<const llvm::Instruction *, unsigned> Index;
  llvm::DenseMap<const llvm::Instruction *, unsigned> SourceIndex;
  /// Row uniformity, which the walker consults.
  std::unique_ptr<RowUniformity> Uniformity;
  /// Owns the atom table; on the heap so that the result can move.
  std::unique_ptr<AddressWalker> Walker;
};

/// Marks the transformation's copy of a kernel with its device functions
/// inlined (its arguments are the kernel's).
inline constexpr const char *InlinedKernelAttr = "coalda-inlined-kernel";

/// True for functions that are CUDA kernels (nvvm.annotations "kernel" or the
/// ptx_kernel calling convention, or a copy marked InlinedKernelAttr). Scans the module's annotations: for many
/// functions use kernelsOf.
bool isKernel(const llvm::Function &F);

/// Whether Load reads a read-only by-value parameter or a constant global,
/// within its bounds: memory no store of the kernel writes.
bool readsConstantMemory(const llvm::LoadInst &Load);

/// Whether Load reads a field of a read-only struct taken by value.
bool readsParameter(const llvm::LoadInst &Load);

/// Whether Load reads a pointer from a read-only by-value parameter or a
/// constant global (readsConstantMemory): it reads the same at any point of
/// the kernel, a base like a parameter.
bool hoistableBase(const llvm::LoadInst &Load);

/// Moves a readsConstantMemory load, and the constant address it reads, to
/// the top of the kernel's entry block (where a rewrite's code can use it).
void hoistConstantLoad(llvm::LoadInst &Load);

/// The kernels of a module, in one pass over its annotations.
llvm::DenseSet<const llvm::Function *> kernelsOf(const llvm::Module &M);

/// Source-level name of a function's symbol ("copy_naive" for
/// "_Z10copy_naiveP5PixelPKS_").
std::string sourceName(const llvm::Function &F);

/// Name of a value for humans, as the source names it (SourceNames.cpp): the
/// variable the debug info binds to it, else an expression of such names,
/// else its position ("the kernel's 2nd parameter"); never an IR name.
std::string baseName(const llvm::Value *Base);

class CoalescingAnalysis : public llvm::AnalysisInfoMixin<CoalescingAnalysis> {
  friend llvm::AnalysisInfoMixin<CoalescingAnalysis>;
  static llvm::AnalysisKey Key;

public:
  using Result = CoalescingInfo;
  Result run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

/// `opt -passes='print<coalda>'`: one line per access of each kernel.
class CoalescingPrinterPass
    : public llvm::PassInfoMixin<CoalescingPrinterPass> {
  llvm::raw_ostream &OS;

public:
  explicit CoalescingPrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  static bool isRequired() { return true; }
};

} // namespace coalda

#endif // COALDA_COALESCINGANALYSIS_H
