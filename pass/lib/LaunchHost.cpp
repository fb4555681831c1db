//===- LaunchHost.cpp - Launches of the grid-stride variants ------------===//
//
// Issue 40's reshaped launches, host half. In a `coalda cc` build the device
// compile runs first and gives some kernels K a variant K__coalda_grid
// (GridVariant.cpp); `coalda cc` reads their names from the PTX and runs
// this pass on the host compile of the same translation unit, with
// -coalda-launch-variants=K1,K2,... and -coalda-launch-runtime=the bitcode
// of pass/runtime/LaunchGrid.cpp. It runs at the pipeline's start, before
// the stubs are inlined (docs/design/launch-control.md has what clang 19
// emits).
//
// For each listed K:
//  1. its registration, `__cudaRegisterFunction(fatbin, @stub, "K", "K",
//     ...)` in __cuda_register_globals, gets a twin that registers a new
//     host handle (an internal i8 of this unit) under the name
//     "K__coalda_grid";
//  2. the stub's `cudaLaunchKernel(@stub, grid, block, args, shmem,
//     stream)` becomes `__coalda_launch_grid(@stub, @handle, "K", grid,
//     block, args, number of args, shmem, stream, preferred, form)`, which
//     chooses at run time (LaunchGrid.cpp); preferred: K is in
//     -coalda-launch-preferred, form: 1 when K is in -coalda-launch-tiles
//     (a tile variant), 2 when in -coalda-launch-rewrites (the variant is
//     the kernel as written, K its rewrite: RewriteChoice.cpp), 3 when in
//     -coalda-launch-bounded (K is limited in registers so that 1024
//     threads launch, the variant is the same code without the limit,
//     launched where the block allows it: coalda/driver/registers.py),
//     else 0;
//  3. the runtime's bitcode is linked in, its function made internal.
// A K whose registration or launch is not in these forms is left as it is.
// A direct `cudaLaunchKernel(K, ...)` written by the user, and launches of
// other forms (cudaLaunchKernelEx, cooperative launches, the per-thread
// default stream's _ptsz entry), keep launching the original: only the
// stub's own call is changed.
//
// Template kernels: their stubs are linkonce_odr, in a COMDAT. When the
// linker keeps a copy from a unit built without `coalda cc`, that copy
// launches the original, which is correct; the copy of this unit refers
// to a handle registered by this unit's constructor, with this unit's
// device code, which holds the variant.
//
//===----------------------------------------------------------------------===//

#include "coalda/LaunchHost.h"
#include "GridVariant.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/TargetParser/Triple.h"

#define DEBUG_TYPE "coalda-launch-host"

using namespace llvm;

STATISTIC(NumLaunchesRedirected, "Kernel stubs that launch through the "
                                 "run-time choice of a grid variant");
STATISTIC(NumLaunchesKept, "Listed kernels whose stub or registration was "
                           "not found in the expected form");

static cl::list<std::string>
    LaunchVariants("coalda-launch-variants", cl::CommaSeparated,
                   cl::desc("Host side: the device names of the kernels "
                            "whose device code has a grid variant "
                            "(coalda cc passes them)"));
static cl::list<std::string> LaunchPreferred(
    "coalda-launch-preferred", cl::CommaSeparated,
    cl::desc("Host side: those of -coalda-launch-variants whose variant is "
             "launched until the run-time measurement is in (coalda cc "
             "reads them from the PTX's K__coalda_prefer)"));
static cl::list<std::string> LaunchTiles(
    "coalda-launch-tiles", cl::CommaSeparated,
    cl::desc("Host side: those of -coalda-launch-variants whose variant is "
             "of the tile form, launched on 32x32 tiles (coalda cc reads "
             "them from the PTX's K__coalda_tile)"));
static cl::list<std::string> LaunchRewrites(
    "coalda-launch-rewrites", cl::CommaSeparated,
    cl::desc("Host side: those of -coalda-launch-variants whose variant is "
             "the rewritten kernel itself, launched on the same grid against "
             "the original (coalda cc reads them from the PTX's "
             "K__coalda_rewrite)"));
static cl::list<std::string> LaunchBounded(
    "coalda-launch-bounded", cl::CommaSeparated,
    cl::desc("Host side: those of -coalda-launch-variants given .maxnreg so "
             "that blocks of 1024 threads launch, whose variant is the same "
             "kernel without the limit (coalda cc passes those its "
             "registers.py limited)"));
static cl::opt<std::string>
    LaunchRuntime("coalda-launch-runtime",
                  cl::desc("Host side: the bitcode of the run-time choice "
                           "(coalda-launch-runtime.bc, beside the plugin)"));

namespace coalda {
namespace {

constexpr StringLiteral RuntimeEntry = "__coalda_launch_grid";

/// The grid a variant is launched on, as LaunchGrid.cpp's Form reads it.
enum class LaunchForm : uint32_t {
  Rows = 0,    ///< fewer blocks in x, the original x size appended
  Tiles = 1,   ///< 32x32 tiles of blocks, the original x and y sizes appended
  Rewrite = 2, ///< the original grid and arguments (RewriteChoice.cpp)
  Bounded = 3, ///< the same, the variant K without its register limit
};

/// Kernel's variant form, as the device code marked it.
LaunchForm formOf(StringRef Kernel) {
  if (is_contained(LaunchTiles, Kernel))
    return LaunchForm::Tiles;
  if (is_contained(LaunchRewrites, Kernel))
    return LaunchForm::Rewrite;
  if (is_contained(LaunchBounded, Kernel))
    return LaunchForm::Bounded;
  return LaunchForm::Rows;
}

/// The registration calls in Register, by the device name they register.
StringMap<CallInst *> registrations(Function &Register) {
  StringMap<CallInst *> Found;
  for (Instruction &I : instructions(Register)) {
    auto *Call = dyn_cast<CallInst>(&I);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (!Callee || Callee->getName() != "__cudaRegisterFunction" ||
        Call->arg_size() < 4)
      continue;
    StringRef Name;
    if (getConstantStringInfo(Call->getArgOperand(2), Name))
      Found[Name] = Call;
  }
  return Found;
}

/// The stub's own `cudaLaunchKernel(@stub, ...)`, or null.
CallInst *stubLaunch(Function &Stub) {
  for (Instruction &I : instructions(Stub)) {
    auto *Call = dyn_cast<CallInst>(&I);
    Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    if (Callee && Callee->getName() == "cudaLaunchKernel" &&
        Call->arg_size() == 8 &&
        Call->getArgOperand(0)->stripPointerCasts() == &Stub)
      return Call;
  }
  return nullptr;
}

/// The run-time choice's declaration, as the calls below pass it.
FunctionCallee runtimeEntry(Module &M, Type *Status) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  return M.getOrInsertFunction(
      RuntimeEntry, FunctionType::get(Status,
                                      {Ptr, Ptr, Ptr, I64, I32, I64, I32, Ptr,
                                       I32, I64, Ptr, I32, I32},
                                      false));
}

/// Registers Variant's handle beside Original's registration.
GlobalVariable *registerVariant(CallInst &Original, StringRef Variant) {
  Module &M = *Original.getModule();
  auto *Handle = new GlobalVariable(
      M, Type::getInt8Ty(M.getContext()), /*isConstant=*/true,
      GlobalValue::InternalLinkage,
      ConstantInt::get(Type::getInt8Ty(M.getContext()), 0),
      "__coalda_grid_handle");
  IRBuilder<> B(&Original);
  Value *Name = B.CreateGlobalStringPtr(Variant, "__coalda_grid_name");
  auto *Twin = cast<CallInst>(Original.clone());
  Twin->setArgOperand(1, Handle);
  Twin->setArgOperand(2, Name);
  Twin->setArgOperand(3, Name);
  Twin->insertAfter(&Original);
  return Handle;
}

/// Launch, the stub's call, goes through the run-time choice; Preferred:
/// the variant until measured; Form: the grid it is launched on.
void redirect(CallInst &Launch, GlobalVariable &Handle, StringRef Kernel,
              bool Preferred, LaunchForm Form) {
  Function &Stub = *Launch.getFunction();
  IRBuilder<> B(&Launch);
  Value *Name = B.CreateGlobalStringPtr(Kernel, "__coalda_kernel_name");
  SmallVector<Value *, 12> Args{Launch.getArgOperand(0), &Handle, Name};
  for (unsigned I = 1; I <= 5; ++I) // grid.xy, grid.z, block.xy, block.z, args
    Args.push_back(Launch.getArgOperand(I));
  Args.push_back(B.getInt32(Stub.arg_size()));
  Args.push_back(Launch.getArgOperand(6)); // shared memory
  Args.push_back(Launch.getArgOperand(7)); // stream
  Args.push_back(B.getInt32(Preferred));
  Args.push_back(B.getInt32(uint32_t(Form)));
  CallInst *Choice = B.CreateCall(
      runtimeEntry(*Stub.getParent(), Launch.getType()), Args);
  Choice->setDebugLoc(Launch.getDebugLoc());
  Launch.replaceAllUsesWith(Choice);
  Launch.eraseFromParent();
}

/// The runtime's bitcode, read for M; null (with a diagnostic) when it
/// cannot be read or was built for another architecture (its calls pass
/// dim3 by value in the x86-64 ABI, as clang's stubs there do).
std::unique_ptr<Module> readRuntime(Module &M) {
  SMDiagnostic Err;
  std::unique_ptr<Module> Runtime =
      parseIRFile(LaunchRuntime, Err, M.getContext());
  if (!Runtime) {
    M.getContext().emitError("coalda: cannot read the launch runtime '" +
                             LaunchRuntime + "': " + Err.getMessage());
    return nullptr;
  }
  if (Triple(Runtime->getTargetTriple()).getArch() !=
      Triple(M.getTargetTriple()).getArch()) {
    M.getContext().emitError("coalda: the launch runtime '" + LaunchRuntime +
                             "' was built for " +
                             Runtime->getTargetTriple() + ", not " +
                             M.getTargetTriple());
    return nullptr;
  }
  // Its own flags (PIC level, frame pointer) would conflict with the
  // unit's; the unit's hold.
  if (NamedMDNode *Flags = Runtime->getModuleFlagsMetadata())
    Runtime->eraseNamedMetadata(Flags);
  Runtime->setTargetTriple(M.getTargetTriple());
  Runtime->setDataLayout(M.getDataLayout());
  return Runtime;
}

/// Links Runtime into M and makes its entry internal.
void linkRuntime(Module &M, std::unique_ptr<Module> Runtime) {
  if (Linker::linkModules(M, std::move(Runtime),
                          Linker::Flags::LinkOnlyNeeded))
    return; // the linker has reported why
  if (Function *Entry = M.getFunction(RuntimeEntry))
    Entry->setLinkage(GlobalValue::InternalLinkage);
}

} // namespace

PreservedAnalyses LaunchHostPass::run(Module &M, ModuleAnalysisManager &) {
  if (LaunchVariants.empty() || Triple(M.getTargetTriple()).isNVPTX())
    return PreservedAnalyses::all();
  Function *Register = M.getFunction("__cuda_register_globals");
  if (!Register || Register->isDeclaration()) {
    LLVM_DEBUG(dbgs() << "coalda: no __cuda_register_globals: the unit "
                         "embeds no device code, launches kept\n");
    return PreservedAnalyses::all();
  }
  std::unique_ptr<Module> Runtime = readRuntime(M);
  if (!Runtime)
    return PreservedAnalyses::all();
  StringMap<CallInst *> Registered = registrations(*Register);
  bool Changed = false;
  for (const std::string &Kernel : LaunchVariants) {
    CallInst *Registration = Registered.lookup(Kernel);
    auto *Stub = Registration ? dyn_cast<Function>(
                                    Registration->getArgOperand(1)
                                        ->stripPointerCasts())
                              : nullptr;
    CallInst *Launch = Stub ? stubLaunch(*Stub) : nullptr;
    if (!Launch) {
      LLVM_DEBUG(dbgs() << "coalda: " << Kernel
                        << ": no registration or stub launch in the "
                           "expected form, launch kept\n");
      ++NumLaunchesKept;
      continue;
    }
    GlobalVariable *Handle =
        registerVariant(*Registration, Kernel + GridVariantSuffix.str());
    redirect(*Launch, *Handle, Kernel, is_contained(LaunchPreferred, Kernel),
             formOf(Kernel));
    ++NumLaunchesRedirected;
    Changed = true;
  }
  if (!Changed)
    return PreservedAnalyses::all();
  linkRuntime(M, std::move(Runtime));
  return PreservedAnalyses::none();
}

} // namespace coalda
