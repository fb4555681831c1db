//===- FlatCopyEmitter.cpp - One flat copy for a grid-stride copy loop ----===//
//
// Phase 3 of the transformation, for a grid-stride loop
// `for (i = gid; i < n; i += ntid.x*nctaid.x)` whose body is only the copy
// (legality's findFlatLoop). The loop covers elements [0, n) over the whole
// grid. In front of it every thread checks that dst and src are aligned to
// the widest unit and disjoint; then the grid runs one flat copy of S*n
// bytes instead (16-byte units at a stride of the grid, four in flight per
// thread, then the last bytes in member-width units) and skips the loop,
// which otherwise runs, each iteration rewritten by the region copy.
//
//===----------------------------------------------------------------------===//

#include "CopyGroup.h"
#include "IRUtils.h"
#include "Options.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "coalda-flat-emit"

using namespace llvm;

namespace coalda {

namespace {

/// V at Before: V itself, or the last of Copies (the pure computation
/// legality found, operands first) repeated in front of Before.
Value *copyBefore(ArrayRef<Instruction *> Copies, Value *V,
                  Instruction *Before) {
  DenseMap<Value *, Value *> Clones =
      cloneInOrder(Copies, [&](Instruction *C, Instruction *Of) {
        C->insertBefore(Before);
        C->setName(Of->getName() + ".coalda");
      });
  if (Value *Mapped = Clones.lookup(V))
    return Mapped;
  return V;
}

class FlatCopyEmitter {
public:
  FlatCopyEmitter(const CopyGroup &G, const RewritePlan &P)
      : G(G), P(P), F(P.FlatEntry->getParent()), Ctx(F->getContext()),
        Loc(G.Stores.back()->Inst->getDebugLoc()),
        I64(Type::getInt64Ty(Ctx)), I8(Type::getInt8Ty(Ctx)),
        U(P.Units.front()),
        MemberAlign(commonAlignment(memberAlignment(G), G.MemberWidth)) {}

  void emit() {
    BasicBlock *Head = emitCheck();
    // Whole units first, then the few bytes of the last partial unit in
    // member-width units.
    LocatedBuilder HB(Head, Loc);
    Value *Whole =
        HB.CreateAnd(Bytes, HB.getInt64(~uint64_t(U - 1)), "flat.whole");
    BasicBlock *Tail = BasicBlock::Create(Ctx, "flat.tail");
    emitLoop(Head, U, 4, HB.getInt64(0), Whole, Tail, "flat.units");
    Tail->insertInto(F);
    emitLoop(Tail, G.MemberWidth, 1, Whole, Bytes, P.FlatExit, "flat.bytes");
    LLVM_DEBUG(dbgs() << "coalda: emitted the flat copy of the loop after "
                      << P.FlatEntry->getName() << " in " << F->getName()
                      << "\n");
  }

private:
  const CopyGroup &G;
  const RewritePlan &P;
  Function *F;
  LLVMContext &Ctx;
  DebugLoc Loc;
  Type *I64, *I8;
  unsigned U; ///< the widest unit
  Align MemberAlign;
  Value *Gid = nullptr, *Threads = nullptr, *Bytes = nullptr;
  Value *Dst = nullptr, *Src = nullptr;

  BasicBlock *emitCheck();
  void emitLoop(BasicBlock *From, unsigned Width, unsigned Unroll,
                Value *First, Value *Limit, BasicBlock *Next,
                const std::string &Name);
  void move(IRBuilder<> &B, Type *Ty, Align A, ArrayRef<Value *> At);
};

/// In front of the loop: `br flat.ok, flat.copy, <the original jump into
/// the loop>`; returns flat.copy.
BasicBlock *FlatCopyEmitter::emitCheck() {
  Instruction *Term = P.FlatEntry->getTerminator();
  IRBuilder<> B(Term);
  B.SetCurrentDebugLocation(Loc);
  auto Reg = [&](Intrinsic::ID ID, const char *Name) {
    return B.CreateZExt(B.CreateIntrinsic(ID, {}, {}), I64, Name);
  };
  Value *Tid = Reg(Intrinsic::nvvm_read_ptx_sreg_tid_x, "flat.tid");
  Value *Ntid = Reg(Intrinsic::nvvm_read_ptx_sreg_ntid_x, "flat.ntid");
  Value *Ctaid = Reg(Intrinsic::nvvm_read_ptx_sreg_ctaid_x, "flat.ctaid");
  Value *Nctaid = Reg(Intrinsic::nvvm_read_ptx_sreg_nctaid_x, "flat.nctaid");
  Gid = B.CreateAdd(B.CreateMul(Ctaid, Ntid), Tid, "flat.gid");
  Threads = B.CreateMul(Ntid, Nctaid, "flat.threads");
  const PrefixBound &Loop = P.Bounds.front();
  Value *Bound = copyBefore(P.FlatEndCopies, Loop.Hi, Term);
  Value *End =
      Loop.Signed ? B.CreateSExt(Bound, I64) : B.CreateZExt(Bound, I64);
  if (Loop.Inclusive) // i <= n covers elements [0, n]
    End = B.CreateAdd(End, B.getInt64(1));
  Bytes = B.CreateMul(
      B.CreateBinaryIntrinsic(Intrinsic::smax, End, B.getInt64(0)),
      B.getInt64(G.Stride), "flat.bytes");
  // Element 0's member 0, on both sides.
  auto Start = [&](const AccessExpr &A, const char *Name) {
    return B.CreateGEP(I8, const_cast<Value *>(A.Base), B.getInt64(A.Offset),
                       Name);
  };
  Dst = Start(G.first(), "flat.dst");
  Src = Start(G.source(), "flat.src");
  Value *DstInt = B.CreatePtrToInt(Dst, I64);
  Value *SrcInt = B.CreatePtrToInt(Src, I64);
  Value *Ok = B.CreateICmpEQ(
      B.CreateAnd(B.CreateOr(DstInt, SrcInt), B.getInt64(U - 1)),
      B.getInt64(0));
  if (P.NeedsOverlapCheck)
    Ok = B.CreateAnd(Ok, emitApart(B, DstInt, Bytes, SrcInt, Bytes));
  // The loop covers [0, n) only if its index cannot wrap on its way past n:
  // n + ntid.x*nctaid.x fits the index's type. (A 64-bit n counts elements
  // of an allocation, far below 2^63.)
  if (Loop.Hi->getType()->getIntegerBitWidth() < 64) {
    unsigned Bits = Loop.Hi->getType()->getIntegerBitWidth();
    Value *Past = B.CreateAdd(End, Threads);
    Ok = B.CreateAnd(
        Ok, B.CreateICmpSLE(Past, integerLimit(I64, Bits, Loop.Signed, true)));
  }
  Ok->setName("flat.ok");

  BasicBlock *Orig = BasicBlock::Create(Ctx, "flat.orig", F);
  Term->removeFromParent();
  Term->insertInto(Orig, Orig->end());
  for (BasicBlock *Succ : successors(Orig))
    Succ->replacePhiUsesWith(P.FlatEntry, Orig);
  BasicBlock *Head = BasicBlock::Create(Ctx, "flat.copy", F);
  B.SetInsertPoint(P.FlatEntry);
  B.CreateCondBr(Ok, Head, Orig, MDBuilder(Ctx).createLikelyBranchWeights());
  return Head;
}

/// Loads of the units at offsets At from Src, then their stores to Dst.
void FlatCopyEmitter::move(IRBuilder<> &B, Type *Ty, Align A,
                           ArrayRef<Value *> At) {
  SmallVector<Value *, 4> Vs;
  for (Value *Offset : At) {
    LoadInst *V = B.CreateAlignedLoad(Ty, B.CreateGEP(I8, Src, Offset), A);
    if (opts::InvariantLoads)
      V->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(Ctx, {}));
    Vs.push_back(V);
  }
  for (auto [Offset, V] : zip(At, Vs))
    B.CreateAlignedStore(V, B.CreateGEP(I8, Dst, Offset), A);
}

/// A grid-stride loop over `Width`-byte units: thread gid moves the units at
/// First + (gid + k*threads)*Width below Limit, Unroll of them per iteration
/// (all loads, then all stores), then the rest one by one.
void FlatCopyEmitter::emitLoop(BasicBlock *From, unsigned Width,
                               unsigned Unroll, Value *First, Value *Limit,
                               BasicBlock *Next, const std::string &Name) {
  LocatedBuilder FB(From, Loc);
  Type *Ty = copyUnitType(FB.getContext(), Width);
  // Whole units are aligned by the run-time check; member-width units as
  // the original members were.
  Align A = Width == G.MemberWidth && Width < U ? MemberAlign : Align(Width);
  Value *Step = FB.CreateMul(Threads, FB.getInt64(Width), Name + ".step");
  Value *Begin = FB.CreateAdd(First, FB.CreateMul(Gid, FB.getInt64(Width)));
  BasicBlock *Many = BasicBlock::Create(Ctx, Name + ".many", F);
  BasicBlock *SingleTest = BasicBlock::Create(Ctx, Name + ".rest", F);
  BasicBlock *Single = BasicBlock::Create(Ctx, Name + ".one", F);
  Value *Reach = FB.CreateMul(Step, FB.getInt64(Unroll - 1));
  // Unroll units in flight per thread while the last of them is in range.
  FB.CreateCondBr(FB.CreateICmpULT(FB.CreateAdd(Begin, Reach), Limit), Many,
                  SingleTest);
  LocatedBuilder MB(Many, Loc);
  PHINode *At = MB.CreatePHI(I64, 2, Name + ".at");
  At->addIncoming(Begin, From);
  SmallVector<Value *, 4> Ats{At};
  for (unsigned K = 1; K < Unroll; ++K)
    Ats.push_back(MB.CreateAdd(At, MB.CreateMul(Step, MB.getInt64(K))));
  move(MB, Ty, A, Ats);
  Value *After = MB.CreateAdd(At, MB.CreateMul(Step, MB.getInt64(Unroll)));
  At->addIncoming(After, Many);
  MB.CreateCondBr(MB.CreateICmpULT(MB.CreateAdd(After, Reach), Limit), Many,
                  SingleTest);
  // The remaining units, one per iteration.
  LocatedBuilder TB(SingleTest, Loc);
  PHINode *From1 = TB.CreatePHI(I64, 2, Name + ".from");
  From1->addIncoming(Begin, From);
  From1->addIncoming(After, Many);
  TB.CreateCondBr(TB.CreateICmpULT(From1, Limit), Single, Next);
  LocatedBuilder OB(Single, Loc);
  PHINode *One = OB.CreatePHI(I64, 2, Name + ".at1");
  One->addIncoming(From1, SingleTest);
  move(OB, Ty, A, {One});
  Value *Again = OB.CreateAdd(One, Step);
  One->addIncoming(Again, Single);
  OB.CreateCondBr(OB.CreateICmpULT(Again, Limit), Single, Next);
}

} // namespace

std::string describeFlatOnly(const CopyGroup &G, const RewritePlan &P) {
  return "rewritten: the whole grid-stride loop runs as one flat copy of " +
         std::to_string(G.Stride) +
         "*n bytes by all threads when aligned and disjoint (the buffers may "
         "overlap, so each iteration keeps its original code)";
}

void emitFlatCopy(const CopyGroup &G, const RewritePlan &P) {
  FlatCopyEmitter(G, P).emit();
}

} // namespace coalda
