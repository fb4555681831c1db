//===- CoalescingAnalysis.cpp - Canonical form of GPU memory addresses ----===//
//
// Walks each load/store address of a kernel backwards with a finite automaton
// and writes it as `base + stride*lane + uniform + offset` (bytes).
//
// The automaton has two state families: P (reading a pointer) and I (reading
// an integer). Each IR node moves the walk as follows; every path must end in
// an accepting state, otherwise the access is `unknown` with the reason of the
// rejecting transition.
//
//   state  IR node                          transition / result
//   -----  -------------------------------  --------------------------------
//   P      getelementptr p, i0, i1, ...     P(p) + sum_k I(ik) * size_k, where
//                                           size_k is the DataLayout alloc
//                                           size of the indexed type, or the
//                                           field offset for a struct index
//   P      addrspacecast / bitcast p        P(p) (address space recorded)
//   P      kernel argument / global var     ACCEPT base (space from the
//                                           address space; 3 = shared)
//   P      alloca                           ACCEPT base (local: not reported)
//   P      phi / select of pointers         REJECT "the address is chosen at run
//                                           time among ..." (which objects)
//   P      load / other                     REJECT "pointer loaded ..."
//   I      ConstantInt                      ACCEPT constant
//   I      sext / zext x                    I(x)   (index math is assumed not
//                                           to wrap, as clang's inbounds GEPs)
//   I      trunc x, row-uniform             ACCEPT row-uniform opaque atom
//   I      trunc x, thread-dependent        REJECT "index truncated" (a
//                                           narrowing conversion wraps)
//   I      add / sub x, y                   I(x) +/- I(y)
//   I      mul x, y                         I(x) * I(y)   (polynomial product)
//   I      shl x, C                         I(x) * 2^C
//   I      or x, y  (disjoint bits)         I(x) + I(y)
//   I      xor x, -1  (~x)                  -1 - I(x)
//   I      call sreg.tid.x                  ACCEPT lane atom
//   I      call sreg.{tid.y/z,ctaid,ntid,   ACCEPT row-uniform atom
//               nctaid}.{x,y,z}
//   I      integer kernel argument          ACCEPT row-uniform atom
//   I      phi = [s, entry], [phi + d, latch]
//            with d row-uniform            I(s) + I(d) * iter(phi)  (uniform
//                                           iteration atom: an induction)
//   I      phi / select / udiv / ... that   ACCEPT row-uniform opaque atom
//          RowUniformity proves row-uniform
//          (uniform operands, no phi joining
//          paths of a divergent branch)
//   I      load from a row-uniform address  ACCEPT row-uniform opaque atom
//   I      other load                       REJECT "data-dependent index"
//   I      other thread-dependent node      REJECT "non-linear ..."
//
// The accepted polynomial is then split on the lane atom threadIdx.x: terms
// with tid.x once form the stride, terms without it the uniform part and the
// constant term the offset; tid.x twice or more is rejected as non-linear.
// When the uniform part holds stride*ctaid.x*ntid.x, the lane is the global
// index and that term moves into `stride*gid`.
//
//===----------------------------------------------------------------------===//

#include "coalda/CoalescingAnalysis.h"
#include "BackendVectors.h"
#include "LaneExact.h"
#include "PrivateMemory.h"
#include "RowUniformity.h"
#include "SourceNames.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/CycleAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "coalda-analysis"

using namespace llvm;

STATISTIC(NumLoadedBases, "Addresses based on a pointer loaded from a "
                          "parameter struct, a constant or a uniform slot");
STATISTIC(NumPrivateAccesses, "Accesses through pointers that only reach "
                              "the thread's own memory (not listed)");

namespace coalda {

AnalysisKey CoalescingAnalysis::Key;

//===----------------------------------------------------------------------===//
// The automaton
//===----------------------------------------------------------------------===//

namespace {

/// Outcome of reading one value: a polynomial, or the reason for rejecting.
struct Reading {
  Poly P;
  std::string Reject;
  bool ok() const { return Reject.empty(); }
  static Reading fail(std::string Why) {
    Reading R;
    R.Reject = std::move(Why);
    return R;
  }
};

constexpr size_t MaxTerms = 48;

} // namespace

class AddressWalker {
public:
  AddressWalker(const DataLayout &DL, const RowUniformity &Uniformity)
      : DL(DL), Uniformity(Uniformity) {
    LaneId = atomFor({Atom::ThreadIdx, 0, nullptr});
  }
  std::vector<Atom> Atoms;

  /// State P: read a pointer into base + polynomial.
  Reading readPointer(const Value *Ptr, const Value *&Base) {
    Poly Offset;
    while (true) {
      Ptr = Ptr->stripPointerCastsSameRepresentation();
      if (const auto *ASC = dyn_cast<AddrSpaceCastOperator>(Ptr)) {
        Ptr = ASC->getPointerOperand();
        continue;
      }
      if (const auto *GEP = dyn_cast<GEPOperator>(Ptr)) {
        for (gep_type_iterator GTI = gep_type_begin(GEP),
                               E = gep_type_end(GEP);
             GTI != E; ++GTI) {
          const Value *Idx = GTI.getOperand();
          if (StructType *ST = GTI.getStructTypeOrNull()) {
            unsigned Field = cast<ConstantInt>(Idx)->getZExtValue();
            Offset = Offset + Poly::constant(
                                  DL.getStructLayout(ST)->getElementOffset(
                                      Field));
            continue;
          }
          TypeSize Size = GTI.getSequentialElementStride(DL);
          if (Size.isScalable())
            return Reading::fail("scalable vector index");
          Reading R = readInteger(Idx);
          if (!R.ok())
            return R;
          Offset = Offset + R.P.scaled((int64_t)Size.getFixedValue());
        }
        Ptr = GEP->getPointerOperand();
        continue;
      }
      break;
    }
    if (isa<llvm::Argument>(Ptr) || isa<GlobalVariable>(Ptr) ||
        isa<AllocaInst>(Ptr)) {
      Base = Ptr;
      Reading R;
      R.P = std::move(Offset);
      return R;
    }
    if (const auto *Load = dyn_cast<LoadInst>(Ptr)) {
      if (!isLoadedBase(*Load)) {
        LLVM_DEBUG(dbgs() << "coalda: not a shared base: " << *Load << "\n");
        return Reading::fail("pointer loaded from memory");
      }
      ++NumLoadedBases;
      Base = Ptr;
      Reading R;
      R.P = std::move(Offset);
      return R;
    }
    return Reading::fail(chosenPointer(Ptr));
  }

  /// A pointer the threads of a row share, loaded from a parameter struct's
  /// field or a __constant__ table: a base like a parameter. It is read at
  /// the kernel's start, or can be (hoistableBase), so that it is there
  /// wherever a rewrite needs it.
  bool isLoadedBase(const LoadInst &Load) const {
    if (!Load.isSimple() || !Uniformity.isUniform(&Load))
      return false;
    if (hoistableBase(Load))
      return true;
    // In the entry block already: from a parameter or a global (a table at
    // a uniform index), not from the thread's stack or shared memory.
    const Value *From = getUnderlyingObject(Load.getPointerOperand());
    const auto *GV = dyn_cast<GlobalVariable>(From);
    return Load.getParent()->isEntryBlock() &&
           ((GV && GV->getAddressSpace() != 3) || isa<llvm::Argument>(From));
  }

  /// Why a phi or select of pointers is not read: which objects it chooses
  /// among (a pointer stepped in a loop, or a branch's choice of buffers).
  static std::string chosenPointer(const Value *Ptr) {
    SmallVector<const Value *, 4> Choices;
    if (const auto *Phi = dyn_cast<PHINode>(Ptr))
      Choices.append(Phi->incoming_values().begin(),
                     Phi->incoming_values().end());
    else if (const auto *Sel = dyn_cast<SelectInst>(Ptr))
      Choices.append({Sel->getTrueValue(), Sel->getFalseValue()});
    else
      return "pointer computed at run time (" + operationWords(Ptr) + ")";
    SmallVector<std::string, 4> Names;
    for (const Value *C : Choices) {
      std::string Name = baseName(getUnderlyingObject(C));
      if (!is_contained(Names, Name))
        Names.push_back(Name);
    }
    // "among 2 positions in in", "between the buffers a and b"
    std::string Of =
        Names.size() == 1
            ? "among " + std::to_string(Choices.size()) + " positions in " +
                  Names.front()
            : "between the buffers " +
                  join(ArrayRef(Names).drop_back(), ", ") + " and " +
                  Names.back();
    return "the address is chosen at run time " + Of +
           (isa<PHINode>(Ptr) ? " (a pointer stepped in a loop, or chosen by "
                                "a branch)"
                              : " (by a condition: ?: or if)");
  }

private:
  const DataLayout &DL;
  const RowUniformity &Uniformity;
  unsigned LaneId;
  DenseMap<const Value *, Reading> Memo;
  /// Phis being read as inductions, bound to their own atom meanwhile.
  DenseMap<const Value *, unsigned> OpenPhis;


public:
  unsigned atomFor(Atom A) {
    for (unsigned I = 0, E = Atoms.size(); I != E; ++I)
      if (Atoms[I].Kind == A.Kind && Atoms[I].Dim == A.Dim &&
          Atoms[I].V == A.V)
        return I;
    Atoms.push_back(A);
    return Atoms.size() - 1;
  }

private:
  static std::optional<Atom> specialRegister(const Value *V) {
    const auto *II = dyn_cast<IntrinsicInst>(V);
    if (!II)
      return std::nullopt;
    switch (II->getIntrinsicID()) {
    case Intrinsic::nvvm_read_ptx_sreg_tid_x:
      return Atom{Atom::ThreadIdx, 0, nullptr};
    case Intrinsic::nvvm_read_ptx_sreg_tid_y:
      return Atom{Atom::ThreadIdx, 1, nullptr};
    case Intrinsic::nvvm_read_ptx_sreg_tid_z:
      return Atom{Atom::ThreadIdx, 2, nullptr};
    case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
      return Atom{Atom::BlockIdx, 0, nullptr};
    case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
      return Atom{Atom::BlockIdx, 1, nullptr};
    case Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
      return Atom{Atom::BlockIdx, 2, nullptr};
    case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
      return Atom{Atom::BlockDim, 0, nullptr};
    case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
      return Atom{Atom::BlockDim, 1, nullptr};
    case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
      return Atom{Atom::BlockDim, 2, nullptr};
    case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
      return Atom{Atom::GridDim, 0, nullptr};
    case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
      return Atom{Atom::GridDim, 1, nullptr};
    case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
      return Atom{Atom::GridDim, 2, nullptr};
    default:
      return std::nullopt;
    }
  }

  Reading limit(Reading R) {
    if (R.ok() && R.P.Terms.size() > MaxTerms)
      return Reading::fail("expression too large");
    return R;
  }

public:
  /// State I: read an integer into a polynomial.
  Reading readInteger(const Value *V) {
    if (auto It = OpenPhis.find(V); It != OpenPhis.end())
      return Reading{Poly::atom(It->second), {}};
    if (OpenPhis.empty())
      if (auto It = Memo.find(V); It != Memo.end())
        return It->second;
    Reading R = limit(step(V));
    if (OpenPhis.empty())
      Memo[V] = R;
    return R;
  }

private:
  Reading uniformAtom(const Value *V) {
    return Reading{Poly::atom(atomFor({Atom::Opaque, 0, V})), {}};
  }

  /// I(x) * I(y), I(x) - I(y), or (an add, or an or of disjoint bits)
  /// I(x) + I(y).
  Reading readBinary(const Instruction *I) {
    Reading L = readInteger(I->getOperand(0));
    if (!L.ok())
      return L;
    Reading R = readInteger(I->getOperand(1));
    if (!R.ok())
      return R;
    switch (I->getOpcode()) {
    case Instruction::Mul:
      return Reading{L.P * R.P, {}};
    case Instruction::Sub:
      return Reading{L.P + R.P.scaled(-1), {}};
    default:
      return Reading{L.P + R.P, {}};
    }
  }

  Reading step(const Value *V) {
    if (const auto *C = dyn_cast<ConstantInt>(V))
      return Reading{Poly::constant(C->getSExtValue()), {}};
    if (std::optional<Atom> A = specialRegister(V))
      return Reading{Poly::atom(atomFor(*A)), {}};
    if (const auto *Arg = dyn_cast<llvm::Argument>(V))
      return Reading{Poly::atom(atomFor({Atom::Argument, 0, Arg})), {}};
    const auto *I = dyn_cast<Instruction>(V);
    if (!I)
      return Reading::fail("unsupported constant expression");

    switch (I->getOpcode()) {
    case Instruction::SExt:
    case Instruction::ZExt:
      return readInteger(I->getOperand(0));
    case Instruction::Trunc:
      // A narrowing conversion wraps on purpose (unsigned char j = i): the
      // result is not the polynomial of its operand. Uniform, it is an atom.
      if (Uniformity.isUniform(I))
        return uniformAtom(I);
      return Reading::fail("index truncated to " +
                           std::to_string(I->getType()->getIntegerBitWidth()) +
                           " bits (it may wrap)");
    case Instruction::Or:
      if (!cast<PossiblyDisjointInst>(I)->isDisjoint() &&
          !haveNoCommonBitsSet(I->getOperand(0), I->getOperand(1),
                               SimplifyQuery(DL, I)))
        break; // overlapping bits: not an addition
      [[fallthrough]];
    case Instruction::Add:
    case Instruction::Sub:
    case Instruction::Mul:
      return readBinary(I);
    case Instruction::Shl:
      if (const auto *C = dyn_cast<ConstantInt>(I->getOperand(1));
          C && C->getZExtValue() < 62) {
        Reading L = readInteger(I->getOperand(0));
        if (!L.ok())
          return L;
        return Reading{L.P.scaled(int64_t(1) << C->getZExtValue()), {}};
      }
      break;
    case Instruction::Xor:
      // ~x, which clang makes of `n - 1 - x` (as `(x ^ -1) + n`), is -1 - x
      // in two's complement.
      if (const auto *C = dyn_cast<ConstantInt>(I->getOperand(1));
          C && C->isMinusOne()) {
        Reading L = readInteger(I->getOperand(0));
        if (!L.ok())
          return L;
        return Reading{Poly::constant(-1) + L.P.scaled(-1), {}};
      }
      break;
    case Instruction::PHI:
      return readPhi(cast<PHINode>(I));
    case Instruction::Load:
      // A value every thread of the row loads from the same address (a
      // bound or offset in memory) is uniform; any other is per thread.
      if (Uniformity.isUniform(I))
        return uniformAtom(I);
      return Reading::fail("data-dependent index (loaded from memory)");
    default:
      break;
    }
    if (Uniformity.isUniform(I))
      return uniformAtom(I);
    return Reading::fail("non-linear " + operationWords(I) +
                         " of a thread-dependent value");
  }

  /// An induction `phi [start, outside], [phi + step, latch]` with a
  /// row-uniform step reads as start + step*iter(phi).
  Reading readPhi(const PHINode *Phi) {
    if (Phi->getNumIncomingValues() == 2) {
      for (unsigned Back = 0; Back < 2; ++Back) {
        const Value *Next = Phi->getIncomingValue(Back);
        const Value *Start = Phi->getIncomingValue(1 - Back);
        if (Next == Phi || !isa<Instruction>(Next))
          continue;
        unsigned Self = atomFor({Atom::Iteration, 0, Phi});
        OpenPhis[Phi] = Self;
        Reading N = readInteger(Next);
        OpenPhis.erase(Phi);
        if (!N.ok())
          continue;
        Poly Step = N.P + Poly::atom(Self).scaled(-1);
        if (Step.mentions(Self) || Step.mentions(LaneId) ||
            Step.Terms.empty())
          continue;
        Reading S = readInteger(Start);
        if (!S.ok())
          return S;
        return Reading{S.P + Step * Poly::atom(Self), {}};
      }
    }
    if (Uniformity.isUniform(Phi))
      return uniformAtom(Phi);
    return Reading::fail("phi that threads may reach from different paths "
                         "(a branch on a thread-dependent value, or a "
                         "loop-carried value that is not an induction)");
  }

public:
  unsigned laneId() const { return LaneId; }
  unsigned globalIndexAtom(Atom::KindTy K) { return atomFor({K, 0, nullptr}); }
};

namespace {

MemorySpace spaceOf(const Value *Base, const Value *Ptr) {
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  if (const auto *GV = dyn_cast<GlobalVariable>(Base))
    AS = GV->getAddressSpace();
  else if (const auto *Cast = dyn_cast<AddrSpaceCastOperator>(Base))
    AS = Cast->getSrcAddressSpace(); // a generic pointer into shared memory
  if (isa<AllocaInst>(Base))
    return MemorySpace::Other;
  // A by-value parameter (a struct of pointers and sizes) lives in the
  // parameter space: reading its fields is not a global-memory access.
  if (const auto *Arg = dyn_cast<llvm::Argument>(Base); Arg && Arg->hasByValAttr())
    return MemorySpace::Other;
  switch (AS) {
  case 0: // generic: kernel pointer parameters point into global memory
  case 1:
    return MemorySpace::Global;
  case 3:
    return MemorySpace::Shared;
  default:
    return MemorySpace::Other;
  }
}

/// Whether a null PTR is a valid address here (null_pointer_is_valid, or an
/// address space where null is an object).
bool nullMayBeAccessed(const Value *Ptr) {
  const Function *F = nullptr;
  if (const auto *I = dyn_cast<Instruction>(Ptr))
    F = I->getFunction();
  else if (const auto *Arg = dyn_cast<Argument>(Ptr))
    F = Arg->getParent();
  return !F ||
         NullPointerIsDefined(F, Ptr->getType()->getPointerAddressSpace());
}

/// The space of an address the automaton cannot read: of every object it
/// may point into, through phis and selects (a pointer stepped over a
/// thread's local array is local memory, one chosen between two shared
/// tiles is shared). Mixed or unknown objects: the pointer's own space.
MemorySpace spaceOfObjects(const Value *Ptr) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects);
  std::optional<MemorySpace> Common;
  for (const Value *Object : Objects) {
    // An access through a null pointer is undefined: a thread that reaches
    // the access took another of the pointer's choices.
    if (isa<ConstantPointerNull>(Object) && !nullMayBeAccessed(Ptr))
      continue;
    MemorySpace Space = spaceOf(Object, Ptr);
    if (Common && *Common != Space)
      return spaceOf(Ptr, Ptr);
    Common = Space;
  }
  return Common ? *Common : spaceOf(Ptr, Ptr);
}

/// "uses the loop counter i after its loop", or with a counter known by
/// its place, "uses the counter of the loop at line 6 after its loop".
std::string usedAfterLoop(const Value *Phi) {
  std::string Name = baseName(Phi);
  return StringRef(Name).starts_with("the ")
             ? "uses " + Name + " after its loop"
             : "uses the loop counter " + Name + " after its loop";
}

/// An induction read as start + step*iter(phi) holds inside its loop, where
/// the threads of a row run the same iteration. After a loop that threads
/// leave in different iterations its value differs per thread: an access
/// outside the loop using iter(phi) is not read.
Reading insideLoops(Reading R, const Instruction &Access,
                    const std::vector<Atom> &Atoms, const CycleInfo &Cycles) {
  for (const auto &[M, C] : R.P.Terms)
    for (unsigned Id : M) {
      if (Atoms[Id].Kind != Atom::Iteration)
        continue;
      const auto *Phi = cast<PHINode>(Atoms[Id].V);
      const Cycle *Loop = Cycles.getCycle(Phi->getParent());
      if (!Loop || !Loop->contains(Access.getParent()))
        return Reading::fail(usedAfterLoop(Phi));
    }
  return R;
}

/// Splits an accepted address polynomial on the lane atom threadIdx.x:
/// terms with tid.x once form the stride, terms without it the uniform part,
/// the constant term the offset; tid.x twice or more is non-linear. When the
/// uniform part holds stride*ctaid.x*ntid.x, the lane is the global index.
void splitOnLane(AccessExpr &A, const Poly &P, AddressWalker &Walker) {
  unsigned Lane = Walker.laneId();
  for (const auto &[M, C] : P.Terms) {
    unsigned LaneUses = count(M, Lane);
    if (LaneUses > 1) {
      A.Unknown = "non-linear in threadIdx.x";
      return;
    }
    if (LaneUses == 1) {
      Monomial Rest;
      for (unsigned Id : M)
        if (Id != Lane)
          Rest.push_back(Id);
      A.Stride.Terms[Rest] += C;
    } else if (M.empty()) {
      A.Offset = C;
    } else {
      A.Uniform.Terms[M] = C;
    }
  }
  if (A.Stride.Terms.empty())
    return;
  A.Lane = LaneKind::ThreadIdx;
  Monomial Block{Walker.globalIndexAtom(Atom::BlockIdx),
                 Walker.globalIndexAtom(Atom::BlockDim)};
  llvm::sort(Block);
  // The stride may be symbolic: look for every term of stride*ctaid.x*ntid.x
  // in the uniform part.
  Poly BlockTerms = A.Stride * Poly{{{Block, 1}}};
  bool All = all_of(BlockTerms.Terms, [&](const auto &T) {
    auto It = A.Uniform.Terms.find(T.first);
    return It != A.Uniform.Terms.end() && It->second == T.second;
  });
  if (All) {
    A.Uniform = A.Uniform + BlockTerms.scaled(-1);
    A.Lane = LaneKind::GlobalIdx;
  }
}

/// What lane-exact evaluation reads of an address the automaton rejects:
/// the warp's pattern where its warp-uniform part is uniform at the access.
void readLanes(AccessExpr &A, LaneEvaluator &Lanes, const CycleInfo &Cycles) {
  LaneReading<WarpPattern> P = Lanes.readPointer(A.pointer());
  if (!P.Value) {
    if (!P.Reject.empty())
      A.Unknown = P.Reject;
    return;
  }
  for (const Value *Phi : P.Value->Inductions) {
    const Cycle *Loop = Cycles.getCycle(cast<PHINode>(Phi)->getParent());
    if (!Loop || !Loop->contains(A.Inst->getParent())) {
      A.Unknown = usedAfterLoop(Phi);
      return;
    }
  }
  A.Warp = std::move(*P.Value);
}

/// Reads one address into A (unknown with a reason, when the automaton
/// rejects it); false for thread-private memory, which is not reported.
bool readAccess(AccessExpr &A, AddressWalker &Walker, LaneEvaluator &Lanes,
                const CycleInfo &Cycles, const PrivatePointers &Private) {
  Value *Ptr = A.pointer();
  if (Private.isPrivate(Ptr)) {
    LLVM_DEBUG(dbgs() << "coalda: thread-private: " << *A.Inst << "\n");
    ++NumPrivateAccesses;
    return false; // the thread's own memory, through a pointer it keeps
  }
  const Value *Base = nullptr;
  Reading R = Walker.readPointer(Ptr, Base);
  if (R.ok())
    R = insideLoops(std::move(R), *A.Inst, Walker.Atoms, Cycles);
  if (!R.ok()) {
    A.Unknown = R.Reject;
    A.Space = spaceOfObjects(Ptr);
    if (A.Space == MemorySpace::Other)
      return false; // thread-private, parameter or constant memory
    readLanes(A, Lanes, Cycles);
    return true;
  }
  A.Base = Base;
  A.Space = spaceOf(Base, Ptr);
  if (A.Space == MemorySpace::Other)
    return false;
  splitOnLane(A, R.P, Walker);
  return true;
}

} // namespace

/// The object Load reads and the constant offset into it, when Load reads
/// a read-only by-value parameter or a constant global within its bounds.
static const Value *constantSource(const LoadInst &Load) {
  const DataLayout &DL = Load.getDataLayout();
  APInt Offset(DL.getIndexTypeSizeInBits(Load.getPointerOperandType()), 0);
  const Value *Object =
      Load.getPointerOperand()->stripAndAccumulateConstantOffsets(
          DL, Offset, /*AllowNonInbounds=*/false);
  uint64_t Size = 0;
  if (const auto *Arg = dyn_cast<llvm::Argument>(Object);
      Arg && Arg->hasByValAttr() && Arg->onlyReadsMemory())
    Size = DL.getTypeAllocSize(Arg->getParamByValType());
  else if (const auto *GV = dyn_cast<GlobalVariable>(Object);
           GV && (GV->isConstant() || GV->getAddressSpace() == 4) &&
           !GV->isInterposable())
    Size = DL.getTypeAllocSize(GV->getValueType());
  uint64_t Bytes = DL.getTypeStoreSize(Load.getType());
  if (!Size || Offset.isNegative() || Offset.getZExtValue() + Bytes > Size)
    return nullptr;
  return Object;
}

bool readsConstantMemory(const LoadInst &Load) {
  return Load.isSimple() && constantSource(Load);
}

bool readsParameter(const LoadInst &Load) {
  const Value *Source = Load.isSimple() ? constantSource(Load) : nullptr;
  return Source && isa<llvm::Argument>(Source);
}

bool hoistableBase(const LoadInst &Load) {
  return Load.getType()->isPointerTy() && readsConstantMemory(Load);
}

void hoistConstantLoad(LoadInst &Load) {
  assert(readsConstantMemory(Load) && "not a constant parameter's field");
  // The address: casts and constant GEPs down to the parameter or global,
  // whose operands are constants and the parameter: all of it can go to
  // the top of the entry block, deepest first, so that it dominates every
  // other instruction of the kernel.
  SmallVector<Instruction *, 4> Chain{&Load};
  for (Value *P = Load.getPointerOperand(); auto *I = dyn_cast<Instruction>(P);
       P = I->getOperand(0))
    Chain.push_back(I);
  BasicBlock &Entry = Load.getFunction()->getEntryBlock();
  BasicBlock::iterator At = Entry.getFirstInsertionPt();
  for (Instruction *I : reverse(Chain)) {
    if (&*At == I) {
      ++At;
      continue;
    }
    I->moveBefore(Entry, At);
  }
}

CoalescingInfo::CoalescingInfo() = default;
CoalescingInfo::CoalescingInfo(CoalescingInfo &&) = default;
CoalescingInfo &CoalescingInfo::operator=(CoalescingInfo &&) = default;
CoalescingInfo::~CoalescingInfo() = default;

const RowUniformity &CoalescingInfo::uniformity() const {
  assert(Uniformity && "no uniformity for a declaration");
  return *Uniformity;
}

const std::vector<Atom> &CoalescingInfo::atoms() const {
  static const std::vector<Atom> None;
  return Walker ? Walker->Atoms : None;
}

std::optional<Poly> CoalescingInfo::readInteger(const Value *V) const {
  if (!Walker)
    return std::nullopt;
  Reading R = Walker->readInteger(V);
  if (!R.ok())
    return std::nullopt;
  return R.P;
}

unsigned CoalescingInfo::registerAtom(Atom::KindTy Kind, unsigned Dim) const {
  return Walker->atomFor({Kind, Dim, nullptr});
}

unsigned CoalescingInfo::iterationAtom(const Value *Phi) const {
  return Walker->atomFor({Atom::Iteration, 0, Phi});
}

Poly CoalescingInfo::addressPoly(const AccessExpr &A) const {
  Poly Lane = Poly::atom(registerAtom(Atom::ThreadIdx, 0));
  if (A.Lane == LaneKind::GlobalIdx)
    Lane = Lane + Poly::atom(registerAtom(Atom::BlockIdx, 0)) *
                      Poly::atom(registerAtom(Atom::BlockDim, 0));
  return A.Stride * Lane + A.Uniform + Poly::constant(A.Offset);
}

CoalescingInfo CoalescingAnalysis::run(Function &F,
                                       FunctionAnalysisManager &FAM) {
  CoalescingInfo Info;
  // Callers decide which functions are kernels (a module-wide question);
  // uniformity of parameters needs the answer for this one.
  if (F.isDeclaration())
    return Info;
  const DataLayout &DL = F.getDataLayout();
  const CycleInfo &Cycles = FAM.getResult<CycleAnalysis>(F);
  Info.Uniformity = std::make_unique<RowUniformity>(
      F, isKernel(F), FAM.getResult<DominatorTreeAnalysis>(F), Cycles);
  Info.Walker = std::make_unique<AddressWalker>(DL, *Info.Uniformity);
  AddressWalker &Walker = *Info.Walker;
  LaneEvaluator Lanes(
      DL, *Info.Uniformity, Walker.Atoms,
      [&](Atom A) { return Walker.atomFor(A); },
      [&](const Value *V) -> std::optional<Poly> {
        Reading R = Walker.readInteger(V);
        return R.ok() ? std::optional<Poly>(R.P) : std::nullopt;
      });
  PrivatePointers Private(F, isKernel(F));
  auto Read = [&](AccessExpr &A) {
    return readAccess(A, Walker, Lanes, Cycles, Private);
  };
  auto Record = [&](AccessExpr A, DenseMap<const Instruction *, unsigned> &In) {
    LLVM_DEBUG(dbgs() << "coalda: " << *A.Inst << "\n    => "
                      << Info.exprString(A) << "\n");
    In[A.Inst] = Info.Accesses.size();
    Info.Accesses.push_back(std::move(A));
  };
  for (Instruction &I : instructions(F)) {
    if (const auto *MT = dyn_cast<MemTransferInst>(&I)) {
      // A transfer of a constant size: its destination and its source.
      const auto *Size = dyn_cast<ConstantInt>(MT->getLength());
      if (!Size || Size->isZero() || Size->getZExtValue() > 4096)
        continue;
      AccessExpr Dst, Src;
      for (AccessExpr *A : {&Dst, &Src}) {
        A->Inst = &I;
        A->IsStore = A == &Dst;
        A->Width = Size->getZExtValue();
        A->AccessTy = ArrayType::get(Type::getInt8Ty(F.getContext()), A->Width);
      }
      if (Read(Dst))
        Record(std::move(Dst), Info.Index);
      if (Read(Src))
        Record(std::move(Src), Info.SourceIndex);
      continue;
    }
    if (!getLoadStorePointerOperand(&I))
      continue;
    AccessExpr A;
    A.Inst = &I;
    A.IsStore = isa<StoreInst>(I);
    A.AccessTy = getLoadStoreType(&I);
    A.Width = DL.getTypeStoreSize(A.AccessTy).getFixedValue();
    if (Read(A))
      Record(std::move(A), Info.Index);
  }
  markBackendVectors(F, Info.Accesses, FAM.getResult<AAManager>(F));
  return Info;
}

PreservedAnalyses CoalescingPrinterPass::run(Function &F,
                                             FunctionAnalysisManager &FAM) {
  if (!isKernel(F))
    return PreservedAnalyses::all();
  const CoalescingInfo &Info = FAM.getResult<CoalescingAnalysis>(F);
  OS << "COALDA accesses of kernel '" << F.getName() << "':\n";
  for (const AccessExpr &A : Info.Accesses) {
    OS << "  ";
    Info.printAccess(OS, A);
    OS << "\n";
  }
  return PreservedAnalyses::all();
}

} // namespace coalda
