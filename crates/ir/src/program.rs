//! Programs, functions, blocks and instructions.

use crate::ctype::{CType, StructDef};
use crate::entities::{Block, Local, Reg};
pub use crate::float::{FBinOp, FCastOp, FCmpOp};
use crate::types::{IntTy, Type};

/// A source location: index into [`Program::files`], 1-based line and column.
/// `line == 0` means "no location" (synthesised code).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Loc {
    pub file: u32,
    pub line: u32,
    pub col: u32,
}

impl Loc {
    pub const NONE: Loc = Loc { file: 0, line: 0, col: 0 };

    pub fn is_none(&self) -> bool {
        self.line == 0
    }
}

/// An instruction operand: a register or an immediate constant.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Operand {
    Reg(Reg),
    /// Constant bits (masked to the type's width). A `ptr` constant must be 0
    /// (the null pointer).
    Const(Type, u64),
}

/// Integer binary operations (two's complement, wrap-around, bit-precise).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
}

impl BinOp {
    pub const ALL: [BinOp; 13] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::UDiv,
        BinOp::SDiv,
        BinOp::URem,
        BinOp::SRem,
        BinOp::Shl,
        BinOp::LShr,
        BinOp::AShr,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
    ];

    pub fn name(self) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::UDiv => "udiv",
            BinOp::SDiv => "sdiv",
            BinOp::URem => "urem",
            BinOp::SRem => "srem",
            BinOp::Shl => "shl",
            BinOp::LShr => "lshr",
            BinOp::AShr => "ashr",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Xor => "xor",
        }
    }

    pub fn from_name(s: &str) -> Option<BinOp> {
        BinOp::ALL.into_iter().find(|op| op.name() == s)
    }

    /// Whether `x op y` on signed `width`-bit operands leaves the signed range
    /// (C's undefined signed overflow). For `shl` (C11 6.5.7): a negative
    /// left operand, or a result not representable in the type. Other
    /// operations never overflow here (division has its own checks). The
    /// shift amount is assumed to be in range.
    pub fn signed_overflows(self, width: u32, x: u64, y: u64) -> bool {
        let sx = sign_extend(x, width) as i128;
        let sy = sign_extend(y, width) as i128;
        let exact = match self {
            BinOp::Add => sx + sy,
            BinOp::Sub => sx - sy,
            BinOp::Mul => sx * sy,
            BinOp::Shl => {
                let amount = y & 0x7f;
                if sx < 0 || amount >= width as u64 {
                    return sx < 0;
                }
                sx << amount
            }
            _ => return false,
        };
        let half = 1i128 << (width - 1);
        exact < -half || exact >= half
    }
}

/// The signed value of the low `width` bits of `v`.
fn sign_extend(v: u64, width: u32) -> i64 {
    let shift = 64 - width;
    ((v << shift) as i64) >> shift
}

/// Integer comparisons; the result has type `i1`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CmpOp {
    Eq,
    Ne,
    Ult,
    Ule,
    Ugt,
    Uge,
    Slt,
    Sle,
    Sgt,
    Sge,
}

impl CmpOp {
    pub const ALL: [CmpOp; 10] = [
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Ult,
        CmpOp::Ule,
        CmpOp::Ugt,
        CmpOp::Uge,
        CmpOp::Slt,
        CmpOp::Sle,
        CmpOp::Sgt,
        CmpOp::Sge,
    ];

    pub fn name(self) -> &'static str {
        match self {
            CmpOp::Eq => "eq",
            CmpOp::Ne => "ne",
            CmpOp::Ult => "ult",
            CmpOp::Ule => "ule",
            CmpOp::Ugt => "ugt",
            CmpOp::Uge => "uge",
            CmpOp::Slt => "slt",
            CmpOp::Sle => "sle",
            CmpOp::Sgt => "sgt",
            CmpOp::Sge => "sge",
        }
    }

    pub fn from_name(s: &str) -> Option<CmpOp> {
        CmpOp::ALL.into_iter().find(|op| op.name() == s)
    }
}

/// Width conversions between integer types.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CastOp {
    /// Zero extension (also `i1` to a wider type).
    ZExt,
    /// Sign extension.
    SExt,
    /// Truncation to a narrower type.
    Trunc,
}

impl CastOp {
    pub fn name(self) -> &'static str {
        match self {
            CastOp::ZExt => "zext",
            CastOp::SExt => "sext",
            CastOp::Trunc => "trunc",
        }
    }

    pub fn from_name(s: &str) -> Option<CastOp> {
        [CastOp::ZExt, CastOp::SExt, CastOp::Trunc].into_iter().find(|op| op.name() == s)
    }
}

/// Index of a function in [`Program::funcs`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct FuncId(pub u32);

/// Index of a global in [`Program::globals`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct GlobalId(pub u32);

/// What an instruction computes.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum InstKind {
    /// `%r = add i32 a, b`: result has type `ty`; both operands too.
    /// `nsw` ("no signed wrap", printed `add nsw i32 a, b`) marks C's signed
    /// `+ - * <<`, whose overflow is undefined behaviour; without it the
    /// operation wraps. Only `add`, `sub`, `mul` and `shl` may carry it.
    Bin { op: BinOp, ty: Type, a: Operand, b: Operand, nsw: bool },
    /// `%r = cmp slt i32 a, b`: result `i1`; operands of type `ty` (may be `ptr`
    /// for `eq`/`ne`/unsigned comparisons of pointers into the same object).
    Cmp { op: CmpOp, ty: Type, a: Operand, b: Operand },
    /// `%r = sext i8 a to i32`.
    Cast { op: CastOp, from: Type, to: Type, a: Operand },
    /// `%r = fadd f64 a, b`: floating arithmetic on operands and result of
    /// floating type `ty` (semantics in [`crate::float`]).
    FBin { op: FBinOp, ty: Type, a: Operand, b: Operand },
    /// `%r = fneg f64 a`: C's unary minus on a floating value.
    FNeg { ty: Type, a: Operand },
    /// `%r = fcmp olt f64 a, b`: result `i1`, NaN as C treats it.
    FCmp { op: FCmpOp, ty: Type, a: Operand, b: Operand },
    /// `%r = sitofp i32 a to f64`: a conversion from, to or between
    /// floating types.
    FCast { op: FCastOp, from: Type, to: Type, a: Operand },
    /// `%r = addr $3`: pointer to offset 0 of a local slot of this activation.
    AddrLocal { local: Local },
    /// `%r = addr @g`: pointer to offset 0 of a global.
    AddrGlobal { global: GlobalId },
    /// `%r = addrfn @f`: a pointer to function `f` (C's function
    /// designator converted to a pointer). It points to no data: loads and
    /// stores through it are errors; `callptr` calls it.
    AddrFunc { func: FuncId },
    /// `%r = ptradd p, off`: `p` plus a signed byte offset of type `i64`.
    PtrAdd { base: Operand, offset: Operand },
    /// `checkindex i, n` (no result): C's bound on a subscript of a declared
    /// array of `n` elements that lies inside a larger object (a structure
    /// member, a row of a multidimensional array): the access `a[i]` needs
    /// `0 <= i < n` (an `i64` index, compared unsigned), and `end`
    /// (`checkindex end i, n`) allows `i == n` too, for an address one past
    /// the end (`&a[n]`, a row that decays to a pointer). The object's own
    /// bounds do not catch such an index: `r->buf[8]` of `int buf[8]`
    /// followed by other members reads those members. A run-time error
    /// when it does not hold, as under `-fsanitize=bounds`.
    CheckIndex { index: Operand, len: u64, end: bool },
    /// `%r = ptrdiff a, b`: byte distance `a - b` as `i64`; both must point
    /// into the same object.
    PtrDiff { a: Operand, b: Operand },
    /// `%r = alloca i32, n`: a pointer to offset 0 of fresh storage for `n`
    /// elements of type `elem` (`n` of type `i64`), e.g. a variable-length
    /// array. Each execution allocates a new object, which lives until the
    /// function returns; its elements read as 0 until written, as those of
    /// `local` slots do. A negative or huge `n` is a run-time error.
    Alloca { elem: Type, count: Operand },
    /// `%r = load i32 p`.
    Load { ty: Type, ptr: Operand },
    /// `store i32 p, v` (no result).
    Store { ty: Type, ptr: Operand, value: Operand },
    /// `%r = call @f(args)` or `call @f(args)` for a void callee. The callee
    /// may be a declaration without body: the engine then applies its built-in
    /// model (e.g. `pathwise_assume`) or reports an unknown external.
    Call { func: FuncId, args: Vec<Operand> },
    /// `%r = callptr %p(args) -> i32` or `callptr %p(args)`: a call through
    /// a function pointer. `ret` is the result type the caller's C type
    /// gives (`None` for `void`); the engine checks at run time that `p`
    /// points to a function whose parameters and result match.
    CallPtr { callee: Operand, args: Vec<Operand>, ret: Option<Type> },
}

/// An instruction with its optional result register and source location.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Inst {
    pub result: Option<Reg>,
    pub kind: InstKind,
    pub loc: Loc,
}

/// The last instruction of a block.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Terminator {
    /// `jmp bb3`.
    Jump(Block),
    /// `br %c, bb1, bb2`: a decision on an `i1` condition.
    Branch { cond: Operand, then_block: Block, else_block: Block },
    /// `ret` / `ret i32 %v`.
    Return(Option<Operand>),
    /// Control never reaches here (e.g. after a call to `abort`).
    Unreachable,
}

impl Terminator {
    /// Successor blocks, in order (then before else).
    pub fn successors(&self) -> Vec<Block> {
        match self {
            Terminator::Jump(b) => vec![*b],
            Terminator::Branch { then_block, else_block, .. } => vec![*then_block, *else_block],
            Terminator::Return(_) | Terminator::Unreachable => vec![],
        }
    }
}

/// A basic block: straight-line instructions and one terminator.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BlockData {
    pub insts: Vec<Inst>,
    pub term: Terminator,
    /// Location of the terminator; for a `br`, the location of its condition.
    pub term_loc: Loc,
}

/// How a C variable (parameter, global, local) looks in the source: enough for
/// emitters to build inputs and check outputs without the front end.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SrcVar {
    /// The C identifier.
    pub name: String,
    /// The C spelling of the scalar (element) type, e.g. `unsigned char`, `int`.
    pub c_scalar: String,
    /// Machine type and signedness of the scalar (element) type.
    pub scalar: IntTy,
    /// The shape of the variable.
    pub shape: Shape,
    /// The full C type, when `c_scalar`/`scalar`/`shape` do not say it all
    /// (always for [`Shape::Heap`] and [`Shape::ByValue`]).
    pub cty: Option<CType>,
}

/// The shape of a C variable as an input or output.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shape {
    /// A scalar of type `scalar`.
    Scalar,
    /// A pointer (or array parameter) to elements of type `scalar`: an input
    /// array whose length the generator chooses.
    Pointer,
    /// A fixed-size array of `n` elements (globals).
    Array(u64),
    /// A pointer to a structure, union or pointer (type in [`SrcVar::cty`]):
    /// an input heap that the engine initialises lazily, with aliasing.
    Heap,
    /// A structure or union passed or returned by value. The IR value is a
    /// pointer to an object holding it (the caller's copy of an argument,
    /// the callee's object for a result, which the caller copies at once);
    /// [`SrcVar::cty`] is that pointer's type. As an input it is a fresh
    /// object that aliases nothing, built like a heap object.
    ByValue,
    /// A pointer to a function ([`SrcVar::cty`] is `Ptr(Func { .. })`): as
    /// an input, null or one of the unit's functions of that C type.
    Function,
    /// A `FILE *` parameter: an input stream open for reading, its
    /// content an input array of `unsigned char` (`scalar`) whose length
    /// is the file's size. Only the modelled `<stdio.h>` functions read
    /// it (`fgetc`, `fgets`, `fread`...); it is never null.
    Stream,
}

/// A stack slot: `count` elements of type `elem`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LocalData {
    /// The C name, for diagnostics and the text form (may be synthetic, e.g. `tmp.3`).
    pub name: String,
    pub elem: Type,
    pub count: u64,
}

/// A global variable: `count` elements of type `elem`, with initial values.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GlobalData {
    pub name: String,
    pub elem: Type,
    pub count: u64,
    /// Initial element values; missing trailing elements are zero.
    pub init: Vec<u64>,
    /// C-level description, for emitters (absent for synthesised globals).
    pub src: Option<SrcVar>,
    /// `const`-qualified: never an output.
    pub is_const: bool,
    /// Pointers in the initial contents (`int *p = &x;`, `char *s =
    /// "ab";`, a table of strings), in offset order; the bytes they cover
    /// hold no value of `init`.
    pub relocs: Vec<GlobalReloc>,
}

/// A pointer in a global's initial contents: at byte `offset` of the
/// global, the address of `target` plus `addend` bytes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GlobalReloc {
    pub offset: u64,
    pub target: RelocTarget,
    pub addend: u64,
}

/// What a [`GlobalReloc`] points to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RelocTarget {
    /// A global (`int *p = &x;`, a string literal's `.str.N`).
    Global(GlobalId),
    /// A function (`int (*op)(int) = neg;`, a table of handlers); the
    /// addend is then 0.
    Func(FuncId),
}

/// A function parameter: its register and C description.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Param {
    pub reg: Reg,
    pub ty: Type,
    pub src: SrcVar,
}

/// A function definition or declaration (`blocks` empty).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FuncData {
    pub name: String,
    pub params: Vec<Param>,
    /// Return type, `None` for `void`.
    pub ret: Option<Type>,
    /// C description of the return value (name is empty), `None` for `void`.
    pub ret_src: Option<SrcVar>,
    pub locals: Vec<LocalData>,
    /// Blocks; `bb0` is the entry. Empty for a declaration.
    pub blocks: Vec<BlockData>,
    /// Blocks where an iteration of a loop starts (the body entry of a
    /// `while`/`for`, the body of a `do`-`while` or of an infinite loop), so
    /// that "k iterations" counts body executions, also those left early by
    /// `return` or `break`. A loop without one counts its back edges.
    pub iteration_starts: Vec<Block>,
    /// The decision blocks of each `switch`, lowered as a chain of `x == v`
    /// decisions (one per case label). Paths treat each as a decision; a
    /// coverage tool such as gcov counts one branch per distinct target of
    /// the whole `switch`, and predictions follow it.
    pub switches: Vec<Vec<Block>>,
    /// Number of registers used (`%0 .. %{num_regs-1}`); parameters come first.
    pub num_regs: u32,
    pub is_static: bool,
    /// The function's C type (a [`CType::Func`]), when the front end gives
    /// it: what a function pointer of that type may point to.
    pub cty: Option<CType>,
    /// Location of the function's name in its definition or declaration.
    pub loc: Loc,
}

impl FuncData {
    pub fn is_declaration(&self) -> bool {
        self.blocks.is_empty()
    }

    pub fn block(&self, b: Block) -> &BlockData {
        &self.blocks[b.index()]
    }
}

/// The directory of the C library code the front end lowers with a unit
/// (`qsort`, `bsearch`: they call back into the unit), in
/// [`Program::files`]: such functions are not code under test (no
/// coverage; natively the real library runs).
pub const LIBRARY_FILE_PREFIX: &str = "<pathwise-libc>/";

/// The engine model the front end calls right before a string function
/// whose destination is an array member or row, with the bytes that array
/// has from there: the next call's writes through its destination stay
/// within them (C's array ends there; `_FORTIFY_SOURCE=2` checks it).
pub const MEMBER_ROOM_MODEL: &str = "__pathwise_member_room";

/// The string functions [`MEMBER_ROOM_MODEL`] limits: those whose first
/// argument is a destination glibc's fortified forms check against the
/// enclosing member (`__builtin_object_size(dst, 1)`); `memcpy` and
/// `memset` are checked against the whole object, so not here.
pub const MEMBER_ROOM_LIMITED: &[&str] = &[
    "strcpy",
    "stpcpy",
    "strncpy",
    "stpncpy",
    "strcat",
    "strncat",
    "sprintf",
    "snprintf",
    "vsprintf",
    "vsnprintf",
    "fgets",
    "gets",
];

/// The name of a variadic function's last parameter, which the front end
/// adds after its declared ones: the address of the call's argument area
/// (see cfront's `varargs.rs`; a space, so no C identifier names it).
pub const VA_AREA: &str = "va area";

/// Bytes per argument in a variadic call's argument area (every promoted
/// argument but a `long double` fits).
pub const VA_SLOT: u64 = 8;

/// The name prefix of the front end's declarations that stand for a
/// callback member of an input structure (`pathwise_stub_field_S_m`): the
/// engine calls them where such a member is called, and the emitted tests
/// define them.
pub const FIELD_STUB_PREFIX: &str = "pathwise_stub_field_";

/// A whole translation unit.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Program {
    /// Source file names; [`Loc::file`] indexes this.
    pub files: Vec<String>,
    pub globals: Vec<GlobalData>,
    pub funcs: Vec<FuncData>,
    /// Structure and union definitions, indexed by [`crate::StructId`].
    pub structs: Vec<StructDef>,
}

impl Program {
    /// Whether function `id` is C library code the front end added (see
    /// [`LIBRARY_FILE_PREFIX`]).
    pub fn is_library(&self, id: FuncId) -> bool {
        let f = self.func(id);
        self.files.get(f.loc.file as usize).is_some_and(|n| n.starts_with(LIBRARY_FILE_PREFIX))
    }

    pub fn func(&self, id: FuncId) -> &FuncData {
        &self.funcs[id.0 as usize]
    }

    pub fn global(&self, id: GlobalId) -> &GlobalData {
        &self.globals[id.0 as usize]
    }

    pub fn func_by_name(&self, name: &str) -> Option<FuncId> {
        self.funcs.iter().position(|f| f.name == name).map(|i| FuncId(i as u32))
    }

    pub fn global_by_name(&self, name: &str) -> Option<GlobalId> {
        self.globals.iter().position(|g| g.name == name).map(|i| GlobalId(i as u32))
    }

    /// `file:line:col` for a location, or `?` when unknown.
    pub fn describe_loc(&self, loc: Loc) -> String {
        if loc.is_none() {
            return "?".to_string();
        }
        let file = self.files.get(loc.file as usize).map(String::as_str).unwrap_or("?");
        format!("{file}:{}:{}", loc.line, loc.col)
    }
}

#[cfg(test)]
mod tests {
    use super::BinOp;

    #[test]
    fn signed_overflow_boundaries() {
        let max32 = 0x7fff_ffff;
        let min32 = 0x8000_0000;
        assert!(BinOp::Add.signed_overflows(32, max32, 1));
        assert!(!BinOp::Add.signed_overflows(32, max32, 0));
        assert!(!BinOp::Add.signed_overflows(32, max32, 0xffff_ffff)); // max + (-1)
        assert!(BinOp::Sub.signed_overflows(32, min32, 1));
        assert!(BinOp::Sub.signed_overflows(32, 0, min32)); // 0 - INT_MIN
        assert!(BinOp::Mul.signed_overflows(32, min32, 0xffff_ffff)); // INT_MIN * -1
        assert!(!BinOp::Mul.signed_overflows(32, 46340, 46340));
        assert!(BinOp::Mul.signed_overflows(32, 46341, 46341));
        assert!(BinOp::Mul.signed_overflows(64, 1 << 62, 2));
        assert!(BinOp::Add.signed_overflows(64, i64::MAX as u64, 1));
        assert!(BinOp::Shl.signed_overflows(32, 1, 31)); // C11 6.5.7: 2^31 is not an int
        assert!(!BinOp::Shl.signed_overflows(32, 1, 30));
        assert!(BinOp::Shl.signed_overflows(32, 0xffff_ffff, 1)); // negative left operand
        assert!(BinOp::Add.signed_overflows(8, 0x7f, 1));
        assert!(!BinOp::Xor.signed_overflows(32, max32, min32));
    }
}
