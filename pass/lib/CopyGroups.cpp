//===- CopyGroups.cpp - Collect the strided copies of a kernel ------------===//
//
// Phase 1 of the transformation. The stores of one basic block that share
// base, lane, lane stride and uniform part (`dst[i].r = ...; dst[i].g = ...`)
// form a group. A group is a candidate when it is a whole, pure copy:
//
//   1. the lane stride S is a constant > the member width, or a run-time
//      value not depending on a loop iteration (then S is taken to be the
//      bytes the members cover, and the rewrite checks it at run time);
//   2. every store stores a value loaded (by an analysed access) from one
//      source region with the same lane stride;
//   3. sorted by offset, the members tile [0, S): each starts where the
//      previous one ended, at the same relative offset on both sides.
//
// A group failing any of these carries the MissedReason of the first check
// it fails. The fallback unit is the largest power of two dividing every
// member width (units are indexed by shifts and naturally aligned).
//
//===----------------------------------------------------------------------===//

#include "CopyGroup.h"
#include "SourceNames.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Local.h"

#include <numeric>

#define DEBUG_TYPE "coalda-collect"

using namespace llvm;

STATISTIC(NumGroups, "Copy groups collected");

namespace coalda {

namespace {

bool sameRegion(const AccessExpr &A, const AccessExpr &B) {
  return A.Base == B.Base && A.Lane == B.Lane && A.Stride == B.Stride &&
         A.Uniform == B.Uniform;
}

std::string partialCopy(int64_t From, int64_t To, int64_t Stride) {
  return "partial copy: bytes [" + std::to_string(From) + ", " +
         std::to_string(To) + ") of each " + std::to_string(Stride) +
         "-byte element are not copied";
}

/// The stores of each block bucketed by canonical form, in program order.
std::vector<GroupOutcome> bucketStores(const CoalescingInfo &Info) {
  std::vector<GroupOutcome> Groups;
  for (const AccessExpr &A : Info.Accesses) {
    if (!A.IsStore || !A.isKnown() || A.Lane == LaneKind::None)
      continue;
    auto It = find_if(Groups, [&](const GroupOutcome &O) {
      return sameRegion(O.Group.first(), A) &&
             O.Group.first().Inst->getParent() == A.Inst->getParent();
    });
    if (It == Groups.end()) {
      Groups.emplace_back();
      It = std::prev(Groups.end());
    }
    It->Group.Stores.push_back(&A);
  }
  return Groups;
}

/// Check 1: the lane stride.
Verdict readStride(CopyGroup &G, const CoalescingInfo &Info) {
  const AccessExpr &Head = G.first();
  std::optional<int64_t> S = Head.constantStride();
  if (S) {
    G.Stride = *S;
    if (Head.isCoalesced())
      return Missed{MissedReason::AlreadyCoalesced,
                    "already coalesced (lane stride " + std::to_string(*S) +
                        " bytes, access width " +
                        std::to_string(Head.pieceWidth()) + ")"};
    if (*S < 0)
      return Missed{MissedReason::NegativeStride, "negative lane stride"};
    return std::nullopt;
  }
  // A run-time stride (a[n*tid + k]): the copy can be versioned on the
  // stride being the bytes its members cover, if it can be computed.
  bool Computable = all_of(Head.Stride.Terms, [&](const auto &T) {
    return none_of(T.first, [&](unsigned Id) {
      return Info.atoms()[Id].Kind == Atom::Iteration;
    });
  });
  if (!Computable)
    return Missed{MissedReason::IterationStride,
                  "run-time lane stride (" + Info.exprString(Head) +
                      ") that depends on a loop iteration"};
  G.RuntimeStride = Head.Stride;
  return std::nullopt;
}

/// Check 2: each store's value is loaded from the source region.
Verdict pairLoads(CopyGroup &G, const CoalescingInfo &Info) {
  const AccessExpr &Head = G.first();
  G.MemberWidth = Head.Width;
  for (const AccessExpr *St : G.Stores) {
    // A memory transfer copies from its own source; a store stores a value
    // some load produced.
    const AccessExpr *Ld = nullptr;
    if (St->isTransfer())
      Ld = Info.transferSource(St->Inst);
    else if (auto *Value = dyn_cast<LoadInst>(
                 cast<StoreInst>(St->Inst)->getValueOperand()))
      Ld = Info.lookup(Value);
    if (!Ld || !Ld->isKnown())
      return Missed{MissedReason::ComputedValue,
                    "not a pure copy: the value stored at offset " +
                        std::to_string(St->Offset - Head.Offset) +
                        " is computed, not loaded"};
    G.Loads.push_back(Ld);
    // Members may differ in width (SLP merges some at -O3).
    G.MemberWidth = std::gcd(G.MemberWidth, St->Width);
  }
  // e.g. 2 for two 6-byte <3 x i16> members; at most 16, the widest unit.
  G.MemberWidth = std::min<uint64_t>(G.MemberWidth & -G.MemberWidth, 16);
  G.Assignment = G.Stores.size() == 1 && Head.isTransfer();
  if (G.source().Stride != Head.Stride)
    return Missed{MissedReason::SourceStride,
                  "source lane stride differs from the destination's"};
  return std::nullopt;
}

/// Check 3: sorted by offset, the members tile [0, S) on both sides.
Verdict checkTiling(CopyGroup &G) {
  const AccessExpr &Head = G.first(), &Src = G.source();
  int64_t SrcMin = Src.Offset;
  for (const AccessExpr *Ld : G.Loads)
    SrcMin = std::min(SrcMin, Ld->Offset);
  int64_t Covered = 0;
  for (auto [St, Ld] : zip(G.Stores, G.Loads)) {
    int64_t DstRel = St->Offset - Head.Offset;
    int64_t SrcRel = Ld->Offset - SrcMin;
    if (!sameRegion(*Ld, Src))
      return Missed{MissedReason::SourceRegions,
                    "members load from different source regions"};
    if (DstRel != SrcRel)
      return Missed{MissedReason::Swizzle,
                    "swizzle: the bytes stored at offset " +
                        std::to_string(DstRel) + " are loaded from offset " +
                        std::to_string(SrcRel)};
    if (DstRel < Covered)
      return Missed{MissedReason::MembersOverlap,
                    "members overlap (offset " + std::to_string(DstRel) +
                        " is stored twice)"};
    if (DstRel > Covered)
      return Missed{MissedReason::PartialCopy,
                    G.RuntimeStride
                        ? "the members leave a gap at byte " +
                              std::to_string(Covered)
                        : partialCopy(Covered, DstRel, G.Stride)};
    Covered = DstRel + St->Width;
  }
  if (G.RuntimeStride) {
    // Versioned at run time on stride == Covered (see the rewrite).
    G.Stride = Covered;
    if (G.Stores.size() == 1)
      return Missed{MissedReason::SingleMember,
                    "run-time lane stride over a single member: coalesced "
                    "when the stride equals the member width"};
    return std::nullopt;
  }
  if (Covered < G.Stride)
    return Missed{MissedReason::PartialCopy,
                  partialCopy(Covered, G.Stride, G.Stride)};
  if (Covered > G.Stride)
    return Missed{MissedReason::PastStride,
                  "members reach past the lane stride"};
  return std::nullopt;
}

} // namespace

namespace {

/// What the instruction does, without its location.
std::string whatItDoes(const Instruction *I) {
  auto Object = [](const Value *Ptr) {
    return baseName(getUnderlyingObject(Ptr));
  };
  if (const auto *L = dyn_cast<LoadInst>(I))
    return std::string(L->isVolatile() ? "a volatile load" : "a load") +
           " of " + Object(L->getPointerOperand());
  if (const auto *S = dyn_cast<StoreInst>(I))
    return std::string(S->isVolatile() ? "a volatile store" : "a store") +
           " to " + Object(S->getPointerOperand());
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(I))
    return "an atomic " +
           AtomicRMWInst::getOperationName(RMW->getOperation()).str() +
           " on " + Object(RMW->getPointerOperand());
  if (const auto *X = dyn_cast<AtomicCmpXchgInst>(I))
    return "an atomic compare-and-swap on " + Object(X->getPointerOperand());
  if (isa<FenceInst>(I))
    return "a memory fence";
  if (const auto *Call = dyn_cast<CallBase>(I)) {
    if (Call->isInlineAsm())
      return "inline assembly";
    const Function *Callee = Call->getCalledFunction();
    if (!Callee)
      return "an indirect call";
    switch (Callee->getIntrinsicID()) {
    case Intrinsic::memcpy:
    case Intrinsic::memcpy_inline:
      return "a memcpy";
    case Intrinsic::memmove:
      return "a memmove";
    case Intrinsic::memset:
      return "a memset";
    case Intrinsic::nvvm_barrier0:
    case Intrinsic::nvvm_barrier0_and:
    case Intrinsic::nvvm_barrier0_or:
    case Intrinsic::nvvm_barrier0_popc:
      return "__syncthreads()";
    case Intrinsic::nvvm_bar_warp_sync:
      return "__syncwarp()";
    case Intrinsic::not_intrinsic:
      return "a call to " + llvm::demangle(Callee->getName());
    default:
      return "a call to " + Callee->getName().str();
    }
  }
  if (const auto *Br = dyn_cast<BranchInst>(I)) {
    if (!Br->isConditional())
      return "a branch";
    // The condition as the source writes it, or the branch alone (its line
    // follows): never clang's name for it (`cmp`, `found.conflict`).
    const Value *Cond = Br->getCondition();
    std::optional<std::string> S = sourceSpelling(Cond, Br);
    return S ? "the branch on `" + *S + "`" : "the branch";
  }
  if (const auto *Cmp = dyn_cast<CmpInst>(I)) {
    std::optional<std::string> S = sourceSpelling(Cmp, Cmp);
    return S ? "`" + *S + "`" : "a comparison";
  }
  std::optional<std::string> S = sourceSpelling(I);
  return S ? "`" + *S + "`" : "a computation";
}

} // namespace

/// An instruction as its source reads: `a load of dst at line 28:12`, the
/// guard `i < n`: names from the debug info (SourceNames.h), never clang's
/// value names or an IR dump.
std::string describe(const Instruction *I) {
  return whatItDoes(I) + lineSuffix(I);
}

Instruction *lastMember(const CopyGroup &G) {
  Instruction *Last = G.first().Inst;
  for (const AccessExpr *S : G.Stores)
    if (Last->comesBefore(S->Inst))
      Last = S->Inst;
  return Last;
}

Align memberAlignment(const CopyGroup &G) {
  Align A(16);
  for (const AccessExpr *M : G.members())
    A = std::min(A, M->alignment());
  return A;
}

ConstantInt *integerLimit(Type *Wide, unsigned Bits, bool Signed,
                          bool Greatest) {
  APInt Limit = Greatest ? (Signed ? APInt::getSignedMaxValue(Bits)
                                   : APInt::getMaxValue(Bits))
                         : (Signed ? APInt::getSignedMinValue(Bits)
                                   : APInt::getMinValue(Bits));
  unsigned WideBits = Wide->getIntegerBitWidth();
  return ConstantInt::get(Wide->getContext(), Signed ? Limit.sext(WideBits)
                                                     : Limit.zext(WideBits));
}

Value *loopIndexCannotWrap(IRBuilder<> &B, const PrefixBound &Bound,
                           Value *Step) {
  unsigned Bits = Bound.Hi->getType()->getIntegerBitWidth();
  Type *Wide = B.getIntNTy(std::max(64u, 2 * Bits));
  Value *End = Bound.Signed ? B.CreateSExt(Bound.Hi, Wide)
                            : B.CreateZExt(Bound.Hi, Wide);
  Value *Next = B.CreateAdd(B.CreateAdd(End, B.CreateZExt(Step, Wide)),
                            ConstantInt::get(Wide, Bound.Inclusive ? 1 : 0));
  return B.CreateICmpSLE(Next, integerLimit(Wide, Bits, Bound.Signed, true),
                         "coalda.loop.nowrap");
}

void eraseMembers(const CopyGroup &G) {
  // Every address first: a transfer is a load and a store, so erasing as
  // we go would read an erased instruction's operand.
  // Stores before loads: a store may use a member load's value.
  SmallVector<WeakTrackingVH, 16> Addresses;
  SmallSetVector<Instruction *, 16> Members;
  for (const auto *List : {&G.Stores, &G.Loads})
    for (const AccessExpr *A : *List) {
      Addresses.push_back(A->pointer());
      Members.insert(A->Inst);
    }
  for (Instruction *I : Members)
    I->eraseFromParent();
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(Addresses);
}

std::vector<GroupOutcome> collectCopyGroups(const CoalescingInfo &Info) {
  std::vector<GroupOutcome> Groups = bucketStores(Info);
  for (GroupOutcome &O : Groups) {
    ++NumGroups;
    CopyGroup &G = O.Group;
    llvm::sort(G.Stores, [](const AccessExpr *L, const AccessExpr *R) {
      return L->Offset < R->Offset;
    });
    O.Skip = readStride(G, Info);
    if (!O.Skip)
      O.Skip = pairLoads(G, Info);
    if (!O.Skip)
      O.Skip = checkTiling(G);
    LLVM_DEBUG(if (O.Skip) dbgs() << "coalda: not a candidate: "
                                  << Info.exprString(G.first()) << ": "
                                  << O.Skip->Detail << "\n");
  }
  return Groups;
}

} // namespace coalda
