//===- SourceNames.cpp - Values named as the CUDA source names them -------===//
//
// A value's source name comes from the debug info: a #dbg_value (or
// llvm.dbg.value) record that binds a variable to exactly that value, with
// no arithmetic in its expression (a DIArgList naming it alone counts, one
// computing `i - first` from it does not), or a parameter's DILocalVariable
// (arg: N). Where a value is bound to several variables (`first = layer`,
// `i = first`), the binding nearest before the instruction that reads it
// names it there: the loop test `i < last` reads i, not layer.
//
// Without debug info a parameter keeps the name clang gave its Argument (the
// parameter's own, where value names are kept); everything else is spelled
// from such names or described by its position.
//
//===----------------------------------------------------------------------===//

#include "SourceNames.h"

#include "coalda/CoalescingAnalysis.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace coalda {

namespace {

/// The special register an intrinsic call reads (`tid.y`), or "".
std::string sregName(const Value *V) {
  const auto *II = dyn_cast<IntrinsicInst>(V);
  if (!II)
    return "";
  StringRef Name = Intrinsic::getBaseName(II->getIntrinsicID());
  return Name.consume_front("llvm.nvvm.read.ptx.sreg.") ? Name.str() : "";
}

/// A C-like spelling of a comparison's predicate.
const char *predicateSpelling(CmpInst::Predicate P) {
  switch (P) {
  case CmpInst::ICMP_EQ:
  case CmpInst::FCMP_OEQ:
  case CmpInst::FCMP_UEQ:
    return "==";
  case CmpInst::ICMP_NE:
  case CmpInst::FCMP_ONE:
  case CmpInst::FCMP_UNE:
    return "!=";
  case CmpInst::ICMP_SLT:
  case CmpInst::FCMP_OLT:
  case CmpInst::FCMP_ULT:
    return "<";
  case CmpInst::ICMP_ULT:
    return "<u";
  case CmpInst::ICMP_SLE:
  case CmpInst::FCMP_OLE:
  case CmpInst::FCMP_ULE:
    return "<=";
  case CmpInst::ICMP_ULE:
    return "<=u";
  case CmpInst::ICMP_SGT:
  case CmpInst::FCMP_OGT:
  case CmpInst::FCMP_UGT:
    return ">";
  case CmpInst::ICMP_UGT:
    return ">u";
  case CmpInst::ICMP_SGE:
  case CmpInst::FCMP_OGE:
  case CmpInst::FCMP_UGE:
    return ">=";
  case CmpInst::ICMP_UGE:
    return ">=u";
  default:
    return "?";
  }
}

/// `_ZZ5stagePhPKhE4tile` -> `tile`: a global variable's own name.
std::string globalName(const GlobalValue &G) {
  std::string Demangled = llvm::demangle(G.getName());
  if (!isa<GlobalVariable>(G))
    return Demangled;
  size_t Scope = Demangled.rfind("::");
  return Scope == std::string::npos ? Demangled : Demangled.substr(Scope + 2);
}

/// The variable's value is V itself: the location is V alone (or V picked
/// out of a DIArgList), and the expression does no arithmetic, at most a
/// conversion (IndVarSimplify widens `int k` to an i64 phi and binds k to
/// its conversion back).
bool holdsExactly(const DIExpression *E, ArrayRef<Value *> Ops, bool ArgList,
                  const Value *V) {
  bool Found = !ArgList && Ops.size() == 1 && Ops[0] == V;
  unsigned Args = 0;
  for (const DIExpression::ExprOperand &Op : E->expr_ops()) {
    switch (Op.getOp()) {
    case dwarf::DW_OP_LLVM_arg:
      if (++Args > 1 || Op.getArg(0) >= Ops.size() ||
          Ops[Op.getArg(0)] != V)
        return false;
      Found = true;
      break;
    case dwarf::DW_OP_LLVM_convert:
    case dwarf::DW_OP_stack_value:
      break;
    default:
      return false; // arithmetic, a fragment, a dereference
    }
  }
  return Found;
}

/// One variable binding of the debug info, in either form (records or the
/// llvm.dbg.* intrinsics).
struct Binding {
  const DILocalVariable *Var = nullptr;
  const DILocation *InlinedAt = nullptr;
  const Instruction *Pos = nullptr; ///< the binding takes effect before it
  bool Holds = false;               ///< the variable is exactly the value
};

Binding bindingOf(const DbgVariableRecord &R, const Value *V) {
  SmallVector<Value *, 4> Ops(R.location_ops());
  const DILocation *DL = R.getDebugLoc().get();
  return {R.getVariable(), DL ? DL->getInlinedAt() : nullptr,
          R.getMarker() ? R.getMarker()->MarkedInstr : nullptr,
          !R.isKillLocation() &&
              holdsExactly(R.getExpression(), Ops, R.hasArgList(), V)};
}

Binding bindingOf(const DbgVariableIntrinsic &D, const Value *V) {
  SmallVector<Value *, 4> Ops(D.location_ops());
  const DILocation *DL = D.getDebugLoc().get();
  return {D.getVariable(), DL ? DL->getInlinedAt() : nullptr, &D,
          !D.isKillLocation() &&
              holdsExactly(D.getExpression(), Ops, D.hasArgList(), V)};
}

/// Every binding of a variable to exactly V.
SmallVector<Binding, 4> bindingsOf(const Value *V) {
  SmallVector<Binding, 4> Out;
  auto *Mutable = const_cast<Value *>(V);
  SmallVector<DbgValueInst *, 2> Intrinsics;
  SmallVector<DbgVariableRecord *, 2> Records;
  findDbgValues(Intrinsics, Mutable, &Records);
  for (DbgVariableRecord *R : Records)
    Out.push_back(bindingOf(*R, V));
  for (DbgValueInst *D : Intrinsics)
    Out.push_back(bindingOf(*D, V));
  // An alloca's declared variable lives at that address: a local array.
  if (isa<AllocaInst>(V)) {
    for (DbgVariableRecord *R : findDVRDeclares(Mutable))
      Out.push_back(bindingOf(*R, V));
    for (DbgDeclareInst *D : findDbgDeclares(Mutable))
      Out.push_back(bindingOf(*D, V));
  }
  erase_if(Out, [](const Binding &B) {
    return !B.Holds || !B.Var || B.Var->getName().empty();
  });
  return Out;
}

/// Layout order of two positions in one function.
bool before(const Instruction *A, const Instruction *B) {
  if (A->getParent() == B->getParent())
    return A->comesBefore(B);
  for (const BasicBlock &BB : *A->getFunction()) {
    if (&BB == A->getParent())
      return true;
    if (&BB == B->getParent())
      return false;
  }
  return false;
}

/// The variable whose latest binding before At is V, looking back through
/// At's block and its unique predecessors. A variable bound to something
/// else nearer to At no longer holds V there.
std::optional<std::string> boundAt(const Value *V, const Instruction *At) {
  SmallPtrSet<const DILocalVariable *, 8> Rebound;
  std::optional<std::string> Name;
  auto Visit = [&](const Binding &B) {
    if (!B.Var || !Rebound.insert(B.Var).second)
      return false;
    if (B.Holds && !B.Var->getName().empty()) {
      Name = B.Var->getName().str();
      return true;
    }
    return false;
  };
  auto VisitRecords = [&](const Instruction &I) {
    SmallVector<const DbgVariableRecord *, 4> Records;
    for (const DbgVariableRecord &R : filterDbgVars(I.getDbgRecordRange()))
      if (R.getType() != DbgVariableRecord::LocationType::Declare)
        Records.push_back(&R);
    for (const DbgVariableRecord *R : llvm::reverse(Records))
      if (Visit(bindingOf(*R, V)))
        return true;
    return false;
  };
  const BasicBlock *BB = At->getParent();
  BasicBlock::const_iterator It = At->getIterator();
  SmallPtrSet<const BasicBlock *, 8> Seen;
  for (unsigned Steps = 0; BB && Seen.insert(BB).second && Steps < 8;
       ++Steps) {
    while (true) {
      if (VisitRecords(*It))
        return Name;
      if (It == BB->begin())
        break;
      --It;
      if (&*It == V)
        return std::nullopt; // V's definition: no earlier binding holds it
      if (const auto *D = dyn_cast<DbgValueInst>(&*It))
        if (Visit(bindingOf(*D, V)))
          return Name;
    }
    BB = BB->getUniquePredecessor();
    if (BB)
      It = BB->getTerminator()->getIterator();
  }
  return std::nullopt;
}

/// Name is a source variable of F's debug info.
bool isVariableOf(const Function &F, StringRef Name) {
  if (const DISubprogram *SP = F.getSubprogram())
    for (const DINode *N : SP->getRetainedNodes())
      if (const auto *Var = dyn_cast<DILocalVariable>(N);
          Var && Var->getName() == Name)
        return true;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      for (const DbgVariableRecord &R : filterDbgVars(I.getDbgRecordRange()))
        if (R.getVariable() && R.getVariable()->getName() == Name)
          return true;
      if (const auto *D = dyn_cast<DbgVariableIntrinsic>(&I))
        if (D->getVariable() && D->getVariable()->getName() == Name)
          return true;
    }
  return false;
}

/// clang names a variable promoted to a register after it plus a number
/// (`k.0`, `i.018`), and the loop passes add their suffixes to its copies
/// (`k.022.epil`, `k.022.unr`): the name without them.
StringRef withoutSuffixes(StringRef Name) {
  while (true) {
    auto [Var, Suffix] = Name.rsplit('.');
    bool Numbered =
        !Suffix.empty() && all_of(Suffix, [](char C) { return isDigit(C); });
    bool LoopCopy = is_contained({"epil", "unr", "prol", "lcssa", "ph",
                                  "lver", "peel", "be"},
                                 Suffix);
    if (Var.empty() || Var == Name || !(Numbered || LoopCopy))
      return Name;
    Name = Var;
  }
}

/// The parameter's own variable: arg N+1 of the kernel's subprogram, or the
/// variable a record binds to the Argument (a by-value struct is declared).
const DILocalVariable *parameterVariable(const Argument &A) {
  unsigned Arg = A.getArgNo() + 1;
  const Function &F = *A.getParent();
  if (const DISubprogram *SP = F.getSubprogram())
    for (const DINode *N : SP->getRetainedNodes())
      if (const auto *Var = dyn_cast<DILocalVariable>(N);
          Var && Var->getArg() == Arg && Var->getScope() == SP &&
          !Var->getName().empty())
        return Var;
  for (const Binding &B : bindingsOf(&A))
    if (B.Var->getArg() == Arg && !B.InlinedAt)
      return B.Var;
  auto *Mutable = const_cast<Argument *>(&A);
  for (DbgVariableRecord *R : findDVRDeclares(Mutable))
    if (R->getVariable() && R->getVariable()->getArg() == Arg)
      return R->getVariable();
  return nullptr;
}

/// The parameter's own variable's name, or the name clang gave the
/// Argument, which is the parameter's.
std::optional<std::string> parameterName(const Argument &A) {
  if (const DILocalVariable *Var = parameterVariable(A))
    return Var->getName().str();
  if (A.hasName())
    return A.getName().str();
  return std::nullopt;
}

/// `p.vel`: a field of a by-value parameter struct, read at a constant
/// offset, named from the struct's debug info (`p.+8` where it has none).
std::optional<std::string> parameterField(const LoadInst &Load) {
  const DataLayout &DL = Load.getModule()->getDataLayout();
  APInt Offset(DL.getIndexTypeSizeInBits(Load.getPointerOperandType()), 0);
  const Value *Base =
      Load.getPointerOperand()->stripAndAccumulateConstantOffsets(
          DL, Offset, /*AllowNonInbounds=*/true);
  const auto *Arg = dyn_cast<Argument>(Base);
  if (!Arg || !Arg->hasByValAttr())
    return std::nullopt;
  std::optional<std::string> Param = parameterName(*Arg);
  if (!Param) // `the kernel's 1st parameter.+8`
    Param = "(" + positionOf(Arg) + ")";
  uint64_t Bits = Offset.getZExtValue() * 8;
  const DILocalVariable *Var = parameterVariable(*Arg);
  const DIType *Ty = Var ? Var->getType() : nullptr;
  while (const auto *D = dyn_cast_or_null<DIDerivedType>(Ty)) {
    if (D->getTag() != dwarf::DW_TAG_typedef &&
        D->getTag() != dwarf::DW_TAG_const_type)
      break;
    Ty = D->getBaseType();
  }
  if (const auto *Struct = dyn_cast_or_null<DICompositeType>(Ty))
    for (const DINode *E : Struct->getElements())
      if (const auto *Member = dyn_cast<DIDerivedType>(E);
          Member && Member->getTag() == dwarf::DW_TAG_member &&
          Member->getOffsetInBits() == Bits && !Member->getName().empty())
        return *Param + "." + Member->getName().str();
  return *Param + ".+" + std::to_string(Offset.getZExtValue());
}

/// 1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st.
std::string ordinal(unsigned N) {
  static const char *Suffixes[] = {"th", "st", "nd", "rd"};
  unsigned Last = N % 10;
  bool Teen = N % 100 >= 11 && N % 100 <= 13;
  return std::to_string(N) + (Teen || Last > 3 ? "th" : Suffixes[Last]);
}

/// The source location of an instruction; for one without a location (a
/// phi), that of the instruction that steps it, else of its block's first
/// located instruction.
const DILocation *locationOf(const Instruction *I) {
  auto Located = [](const Instruction *J) -> const DILocation * {
    const DILocation *DL = J->getDebugLoc().get();
    return DL && DL->getLine() ? DL : nullptr;
  };
  if (const DILocation *DL = Located(I))
    return DL;
  if (const auto *Phi = dyn_cast<PHINode>(I))
    for (const Value *In : Phi->incoming_values())
      if (const auto *Step = dyn_cast<Instruction>(In);
          Step && is_contained(Step->operands(), Phi))
        if (const DILocation *DL = Located(Step))
          return DL;
  for (const Instruction &J : *I->getParent())
    if (const DILocation *DL = Located(&J))
      return DL;
  return nullptr;
}

/// "line 12" or "line 12:5" in the kernel's own file. Code inlined from
/// another file (atomicAdd from the CUDA headers, a helper's header) is at
/// the line of the kernel that calls it; where no call is in the kernel's
/// file, at its own line with its file: "line 84 of __clang_cuda_math.h".
/// Callee, where given, gets the function inlined at that line ("sinf"), or
/// "" for the kernel's own code.
std::string placeOf(const DILocation &DL, const Function *F, bool Column,
                    std::string *Callee = nullptr) {
  const DISubprogram *SP = F ? F->getSubprogram() : nullptr;
  auto Own = [&](const DILocation *L) {
    return !SP || L->getFile() == SP->getFile() ||
           L->getFilename() == SP->getFilename();
  };
  const DILocation *At = &DL;
  for (const DILocation *L = &DL; L; L = L->getInlinedAt())
    if (Own(L) && L->getLine()) {
      At = L;
      break;
    }
  if (Callee) {
    // The function called at that line: the scope of the location inlined
    // there.
    *Callee = "";
    for (const DILocation *L = &DL; L && L != At; L = L->getInlinedAt())
      if (L->getInlinedAt() == At)
        if (const DISubprogram *Fn = L->getScope()->getSubprogram())
          *Callee = Fn->getName().str();
  }
  std::string S = "line " + std::to_string(At->getLine());
  if (Column && At->getColumn())
    S += ":" + std::to_string(At->getColumn());
  if (!Own(At) && !At->getFilename().empty())
    S += " of " + sys::path::filename(At->getFilename()).str();
  return S;
}

/// V is computed from Phi within a few steps: Phi is a loop's phi that V
/// feeds back into.
bool feedsBack(const Value *V, const PHINode *Phi, unsigned Depth = 4) {
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return false;
  if (I == Phi)
    return true;
  if (Depth == 0 || isa<PHINode>(I))
    return false;
  return any_of(I->operands(),
                [&](const Value *Op) { return feedsBack(Op, Phi, Depth - 1); });
}

std::optional<std::string> spell(const Value *V, const Instruction *At,
                                 unsigned Depth);

/// The values a select or phi chooses among, spelled: those of nested
/// choices too, each once, at most 3. False where one has no spelling, or
/// for a loop's phi (fed back from itself).
bool choices(const Instruction *I, const Instruction *At, unsigned Depth,
             SmallVectorImpl<std::string> &Out) {
  SmallVector<const Value *, 4> Values;
  if (const auto *Sel = dyn_cast<SelectInst>(I))
    Values.append({Sel->getTrueValue(), Sel->getFalseValue()});
  else
    for (const Value *In : cast<PHINode>(I)->incoming_values()) {
      if (feedsBack(In, cast<PHINode>(I)))
        return false;
      Values.push_back(In);
    }
  bool Pointer = I->getType()->isPointerTy();
  for (const Value *V : Values) {
    if (Pointer)
      V = getUnderlyingObject(V);
    const auto *Nested = dyn_cast<Instruction>(V);
    if (Nested && Nested != I && (isa<SelectInst>(V) || isa<PHINode>(V)) &&
        !variableName(V, At) && Depth < 3) {
      if (!choices(Nested, At, Depth + 1, Out))
        return false;
      continue;
    }
    std::optional<std::string> C = spell(V, At, Depth + 1);
    if (!C)
      return false;
    if (!is_contained(Out, *C))
      Out.push_back(*C);
  }
  return !Out.empty() && Out.size() <= 3;
}

std::optional<std::string> spell(const Value *V, const Instruction *At,
                                 unsigned Depth) {
  if (const auto *C = dyn_cast<ConstantInt>(V))
    return std::to_string(C->getSExtValue());
  if (isa<ConstantPointerNull>(V))
    return std::string("nullptr");
  if (const auto *G = dyn_cast<GlobalValue>(V))
    return globalName(*G);
  if (std::string Sreg = sregName(V); !Sreg.empty())
    return Sreg;
  if (std::optional<std::string> Name = variableName(V, At))
    return Name;
  if (const auto *CE = dyn_cast<ConstantExpr>(V); CE && CE->isCast())
    return spell(CE->getOperand(0), At, Depth);
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 2)
    return std::nullopt;
  auto Operand = [&](unsigned K) {
    return spell(I->getOperand(K), At, Depth + 1);
  };
  auto Object = [&](const Value *Ptr) {
    return spell(getUnderlyingObject(Ptr), At, Depth + 1);
  };
  if (isa<CastInst>(I))
    return Operand(0);
  if (const auto *Cmp = dyn_cast<CmpInst>(I)) {
    std::optional<std::string> L = Operand(0), R = Operand(1);
    if (!L || !R)
      return std::nullopt;
    return *L + " " + predicateSpelling(Cmp->getPredicate()) + " " + *R;
  }
  if (isa<SelectInst>(I) || isa<PHINode>(I)) {
    // A variable set on two paths (`k = 0` or `k = 1`), a ?: of buffers;
    // nested choices flattened.
    SmallVector<std::string, 3> Choices;
    if (!choices(I, At, Depth, Choices))
      return std::nullopt;
    std::string S = join(Choices, " or ");
    return Depth ? "(" + S + ")" : S;
  }
  if (const auto *Bin = dyn_cast<BinaryOperator>(I)) {
    if (Bin->getOpcode() == Instruction::Xor)
      if (const auto *C = dyn_cast<ConstantInt>(Bin->getOperand(1));
          C && C->isMinusOne()) {
        std::optional<std::string> X = Operand(0);
        return X ? std::optional<std::string>("~" + *X) : std::nullopt;
      }
    if (const auto *C = dyn_cast<ConstantInt>(Bin->getOperand(1));
        C && Bin->getOpcode() == Instruction::Add && C->isNegative() &&
        !C->isMinValue(/*IsSigned=*/true)) {
      // `n + -50` is `n - 50`.
      std::optional<std::string> X = Operand(0);
      return X ? std::optional<std::string>("(" + *X + " - " +
                                            std::to_string(-C->getSExtValue()) +
                                            ")")
               : std::nullopt;
    }
    const char *Symbol = operatorSymbol(Bin->getOpcode());
    if (!Symbol)
      return std::nullopt;
    std::optional<std::string> L = Operand(0), R = Operand(1);
    if (!L || !R)
      return std::nullopt;
    return "(" + *L + " " + Symbol + " " + *R + ")";
  }
  if (const auto *Load = dyn_cast<LoadInst>(I)) {
    if (std::optional<std::string> Field = parameterField(*Load))
      return Field;
    std::optional<std::string> From = Object(Load->getPointerOperand());
    return From ? std::optional<std::string>("load(" + *From + ")")
                : std::nullopt;
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> variableName(const Value *V, const Instruction *At) {
  if (!V)
    return std::nullopt;
  if (const auto *A = dyn_cast<Argument>(V))
    return parameterName(*A);
  if (At && At != V)
    if (std::optional<std::string> Name = boundAt(V, At))
      return Name;
  SmallVector<Binding, 4> Bindings = bindingsOf(V);
  if (!Bindings.empty()) {
    // The first binding in the layout: the variable the value was
    // computed for (`layer`, not the `first = layer` after it).
    const Binding *Best = &Bindings.front();
    for (const Binding &B : Bindings)
      if (B.Pos && Best->Pos && B.Pos != Best->Pos &&
          B.Pos->getFunction() == Best->Pos->getFunction() &&
          before(B.Pos, Best->Pos))
        Best = &B;
    return Best->Var->getName().str();
  }
  // A loop's phi is the variable its step is bound to: `k` where `k + 1`
  // is bound to k.
  if (const auto *Phi = dyn_cast<PHINode>(V))
    for (const Value *In : Phi->incoming_values())
      if (const auto *Step = dyn_cast<BinaryOperator>(In);
          Step && is_contained(Step->operands(), Phi))
        if (std::optional<std::string> Name = variableName(Step))
          return Name;
  // A clang name is a source name only where the debug info has that
  // variable: `i.0` is i's phi, `add` is nothing.
  const auto *I = dyn_cast<Instruction>(V);
  if (I && I->hasName() && I->getFunction()) {
    StringRef Stem = withoutSuffixes(I->getName());
    if (isVariableOf(*I->getFunction(), Stem))
      return Stem.str();
  }
  return std::nullopt;
}

std::optional<std::string> sourceSpelling(const Value *V,
                                          const Instruction *At) {
  if (!V)
    return std::nullopt;
  return spell(V, At, 0);
}

std::string positionOf(const Value *V) {
  if (const auto *A = dyn_cast_or_null<Argument>(V)) {
    const Function &F = *A->getParent();
    std::string Nth = ordinal(A->getArgNo() + 1) + " parameter";
    return isKernel(F) ? "the kernel's " + Nth
                       : "the " + Nth + " of " + sourceName(F);
  }
  const auto *I = dyn_cast_or_null<Instruction>(V);
  if (!I)
    return "a value";
  const DILocation *DL = locationOf(I);
  std::string Callee;
  std::string Line = DL ? placeOf(*DL, I->getFunction(), false, &Callee) : "";
  // An induction: a phi that a step from it feeds.
  const auto *Phi = dyn_cast<PHINode>(I);
  bool Counter = Phi && any_of(Phi->incoming_values(), [&](const Value *In) {
                   const auto *Step = dyn_cast<Instruction>(In);
                   return Step && is_contained(Step->operands(), Phi);
                 });
  if (!DL)
    return Counter ? "a loop counter" : "a value";
  // A value of code inlined there: `a loop in sinf at line 37`.
  if (!Callee.empty())
    return (Counter ? "the counter of a loop in " : "a value in ") + Callee +
           " at " + Line;
  return (Counter ? "the counter of the loop at " : "the value at ") + Line;
}

std::string lineSuffix(const Instruction *I) {
  const DILocation *DL = I->getDebugLoc().get();
  if (!DL || !DL->getLine())
    return "";
  return " at " + placeOf(*DL, I->getFunction(), true);
}

std::string valueAt(const Instruction *I) {
  std::optional<std::string> S = sourceSpelling(I);
  return (S ? " `" + *S + "`" : std::string()) + lineSuffix(I);
}

std::string irLabel(const Value *V) {
  if (const auto *G = dyn_cast_or_null<GlobalVariable>(V))
    return globalName(*G);
  if (std::optional<std::string> Name = variableName(V))
    return *Name;
  if (V && V->hasName() && V->getName() != ".")
    return withoutSuffixes(V->getName()).str();
  return "";
}

/// The name for humans: the source's spelling, else a position.
const char *operatorSymbol(unsigned Opcode) {
  switch (Opcode) {
  case Instruction::Add:
    return "+";
  case Instruction::Sub:
    return "-";
  case Instruction::Mul:
    return "*";
  case Instruction::UDiv:
  case Instruction::SDiv:
    return "/";
  case Instruction::URem:
  case Instruction::SRem:
    return "%";
  case Instruction::And:
    return "&";
  case Instruction::Or:
    return "|";
  case Instruction::Xor:
    return "^";
  case Instruction::Shl:
    return "<<";
  case Instruction::LShr:
  case Instruction::AShr:
    return ">>";
  default:
    return nullptr;
  }
}

std::string operationWords(const Value *V) {
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return "a constant expression";
  if (const char *Symbol = operatorSymbol(I->getOpcode()))
    return std::string("`") + Symbol + "`";
  if (isa<CastInst>(I))
    return "a conversion";
  if (isa<CallBase>(I))
    return "a call";
  if (isa<LoadInst, AtomicRMWInst, AtomicCmpXchgInst>(I))
    return "a value read from memory";
  return std::string("`") + I->getOpcodeName() + "`";
}

std::string baseName(const Value *Base) {
  if (!Base)
    return "?";
  if (std::optional<std::string> S = sourceSpelling(Base))
    return *S;
  return positionOf(Base);
}

} // namespace coalda
