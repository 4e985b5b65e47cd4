//! Shared helpers for the integration tests: a tiny deterministic PRNG and a
//! generator of arbitrary (mostly invalid) programs for round-trip testing.

#![allow(dead_code)]

use pathwise_ir::*;

/// xorshift64*: deterministic, dependency-free randomness for tests.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize].clone()
    }
}

const NAMES: &[&str] = &[
    "main",
    "f",
    "g",
    "dup",
    "dup",
    "tmp.3",
    "_x",
    ".hidden",
    "bb0",
    "add",
    "with space",
    "",
    "quote\"d",
    "back\\slash",
    "new\nline",
    "tab\there",
    "ctl\u{1}\u{7f}",
    "caf\u{e9}",
    "1starts_with_digit",
    "@at",
    "%pct",
];

const TYPES: [Type; 9] =
    [Type::I1, Type::I8, Type::I16, Type::I32, Type::I64, Type::Ptr, Type::F32, Type::F64, Type::F80];

pub fn ty(r: &mut Rng) -> Type {
    r.pick(&TYPES)
}

pub fn name(r: &mut Rng) -> String {
    r.pick(NAMES).to_string()
}

/// Constant bits: usually masked, sometimes extreme or unmasked.
pub fn bits(r: &mut Rng, t: Type) -> u64 {
    match r.below(6) {
        0 => 0,
        1 => t.mask(),
        2 => 1u64 << (t.bits() - 1),
        3 => r.next(),
        _ => r.next() & t.mask(),
    }
}

pub fn loc(r: &mut Rng) -> Loc {
    match r.below(4) {
        0 => Loc::NONE,
        1 => Loc { file: 0, line: 0, col: r.below(3) as u32 },
        2 => Loc { file: u32::MAX, line: u32::MAX, col: u32::MAX },
        _ => Loc { file: r.below(3) as u32, line: 1 + r.below(500) as u32, col: 1 + r.below(80) as u32 },
    }
}

pub fn src(r: &mut Rng) -> SrcVar {
    let shape = match r.below(5) {
        0 => Shape::Scalar,
        1 => Shape::Pointer,
        2 => Shape::Heap,
        3 => Shape::ByValue,
        _ => Shape::Array(r.below(1000)),
    };
    SrcVar {
        name: name(r),
        c_scalar: r.pick(&["int", "unsigned char", "long long", "", "_Bool"]).to_string(),
        scalar: IntTy { ty: ty(r), signed: r.chance(50) },
        shape,
        cty: if r.chance(50) { Some(cty(r, 3)) } else { None },
    }
}

/// An arbitrary C type (struct indices may dangle), nested at most `depth`.
pub fn cty(r: &mut Rng, depth: u32) -> CType {
    let k = if depth == 0 { r.below(3) } else { r.below(5) };
    match k {
        0 => CType::Void,
        1 => CType::Int {
            c_name: r.pick(&["int", "unsigned char", "", "we\"ird"]).to_string(),
            ty: IntTy { ty: ty(r), signed: r.chance(50) },
        },
        2 => CType::Struct(StructId(r.below(4) as u32)),
        3 => CType::Ptr(Box::new(cty(r, depth - 1))),
        _ => CType::Array(Box::new(cty(r, depth - 1)), r.below(20)),
    }
}

/// An arbitrary structure or union definition (offsets and sizes arbitrary).
pub fn struct_def(r: &mut Rng) -> StructDef {
    StructDef {
        c_name: r.pick(&["struct node", "union u", "list_t", "", "struct \"q\""]).to_string(),
        is_union: r.chance(30),
        size: r.below(64),
        align: r.pick(&[1, 2, 4, 8]),
        fields: (0..r.below(4)).map(|_| FieldDef { name: name(r), offset: r.below(64), ty: cty(r, 3) }).collect(),
        bitfields: (0..r.below(3))
            .map(|_| BitFieldDef { name: name(r), ty: cty(r, 0), bit: r.below(128), width: 1 + r.below(32) as u32 })
            .collect(),
    }
}

pub fn reg(r: &mut Rng, n: u32) -> Reg {
    if r.chance(2) {
        Reg(u32::MAX - r.below(2) as u32)
    } else {
        Reg(r.below(n as u64 + 2) as u32)
    }
}

pub fn operand(r: &mut Rng, n: u32) -> Operand {
    if r.chance(50) {
        Operand::Reg(reg(r, n))
    } else {
        let t = ty(r);
        Operand::Const(t, bits(r, t))
    }
}

pub fn inst_kind(r: &mut Rng, n: u32, nfuncs: u32, nglobals: u32) -> InstKind {
    let mut op = || operand(r, n);
    let (a, b) = (op(), op());
    match r.below(16) {
        0 => {
            let op = r.pick(&BinOp::ALL);
            let nsw = matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl) && r.below(2) == 0;
            InstKind::Bin { op, ty: ty(r), a, b, nsw }
        }
        1 => InstKind::Cmp { op: r.pick(&CmpOp::ALL), ty: ty(r), a, b },
        2 => InstKind::Cast { op: r.pick(&[CastOp::ZExt, CastOp::SExt, CastOp::Trunc]), from: ty(r), to: ty(r), a },
        3 => InstKind::AddrLocal { local: Local(r.below(4) as u32) },
        4 => InstKind::AddrGlobal { global: GlobalId(r.below(nglobals as u64 + 2) as u32) },
        5 => InstKind::PtrAdd { base: a, offset: b },
        6 => InstKind::PtrDiff { a, b },
        7 => InstKind::Load { ty: ty(r), ptr: a },
        8 => InstKind::Store { ty: ty(r), ptr: a, value: b },
        9 => InstKind::Alloca { elem: ty(r), count: a },
        10 => InstKind::CheckIndex { index: a, len: r.below(1 << 20), end: r.below(2) == 0 },
        11 => InstKind::FBin { op: r.pick(&FBinOp::ALL), ty: ty(r), a, b },
        12 => InstKind::FNeg { ty: ty(r), a },
        13 => InstKind::FCmp { op: r.pick(&FCmpOp::ALL), ty: ty(r), a, b },
        14 => InstKind::FCast { op: r.pick(&FCastOp::ALL), from: ty(r), to: ty(r), a },
        _ => {
            let args = (0..r.below(4)).map(|_| operand(r, n)).collect();
            InstKind::Call { func: FuncId(r.below(nfuncs as u64 + 2) as u32), args }
        }
    }
}

pub fn term(r: &mut Rng, n: u32, nblocks: u32) -> Terminator {
    let blk = |r: &mut Rng| Block(r.below(nblocks as u64 + 1) as u32);
    match r.below(5) {
        0 => Terminator::Jump(blk(r)),
        1 => Terminator::Branch { cond: operand(r, n), then_block: blk(r), else_block: blk(r) },
        2 => Terminator::Return(None),
        3 => Terminator::Return(Some(operand(r, n))),
        _ => Terminator::Unreachable,
    }
}

pub fn func(r: &mut Rng, nfuncs: u32, nglobals: u32) -> FuncData {
    let n = r.below(12) as u32;
    let params = (0..r.below(4))
        .map(|_| {
            let t = ty(r);
            // Half of the parameters keep the default description, which
            // the printer omits.
            let s = if r.chance(50) { pathwise_ir::printer::default_param_src(t) } else { src(r) };
            Param { reg: reg(r, n), ty: t, src: s }
        })
        .collect();
    let nblocks = if r.chance(20) { 0 } else { 1 + r.below(5) as u32 };
    let blocks = (0..nblocks)
        .map(|_| BlockData {
            insts: (0..r.below(6))
                .map(|_| Inst {
                    result: if r.chance(80) { Some(reg(r, n)) } else { None },
                    kind: inst_kind(r, n, nfuncs, nglobals),
                    loc: loc(r),
                })
                .collect(),
            term: term(r, n, nblocks),
            term_loc: loc(r),
        })
        .collect();
    let ret = if r.chance(40) { None } else { Some(ty(r)) };
    let mut f = FuncData {
        name: name(r),
        params,
        ret,
        ret_src: if r.chance(50) { Some(src(r)) } else { None },
        locals: (0..r.below(3)).map(|_| LocalData { name: name(r), elem: ty(r), count: r.below(20) }).collect(),
        blocks,
        iteration_starts: (0..r.below(2)).map(|_| Block(r.below(6) as u32)).collect(),
        switches: (0..r.below(2)).map(|_| (0..1 + r.below(3)).map(|_| Block(r.below(6) as u32)).collect()).collect(),
        num_regs: 0,
        is_static: r.chance(30),
        cty: if r.chance(30) { Some(CType::Func { ret: "int".into(), params: "char *, ...".into() }) } else { None },
        loc: loc(r),
    };
    f.num_regs = if r.chance(50) { pathwise_ir::visit::min_num_regs(&f) } else { r.below(40) as u32 };
    f
}

/// An arbitrary program: valid syntax-wise, usually semantically invalid.
pub fn program(seed: u64) -> Program {
    let mut r = Rng::new(seed);
    let nfuncs = r.below(5) as u32;
    let nglobals = r.below(4) as u32;
    let files = (0..r.below(3)).map(|_| name(&mut r)).collect();
    let globals = (0..nglobals)
        .map(|_| {
            let elem = ty(&mut r);
            GlobalData {
                name: name(&mut r),
                elem,
                count: r.below(10),
                init: (0..r.below(5)).map(|_| bits(&mut r, elem)).collect(),
                src: if r.chance(50) { Some(src(&mut r)) } else { None },
                is_const: r.chance(30),
                // Relocations to earlier globals (any index is in range for the
                // printer and parser; the verifier is not run on these).
                relocs: (0..r.below(3))
                    .map(|i| GlobalReloc {
                        offset: 8 * i,
                        target: RelocTarget::Global(GlobalId(0)),
                        addend: r.below(4),
                    })
                    .collect(),
            }
        })
        .collect();
    let funcs = (0..nfuncs).map(|_| func(&mut r, nfuncs, nglobals)).collect();
    let structs = (0..r.below(3)).map(|_| struct_def(&mut r)).collect();
    Program { files, globals, funcs, structs }
}

/// Parse `text`, panicking with the error and the text on failure.
pub fn parse(text: &str) -> Program {
    match parse_program(text) {
        Ok(p) => p,
        Err(e) => panic!("parse error {e}\n---\n{text}"),
    }
}
