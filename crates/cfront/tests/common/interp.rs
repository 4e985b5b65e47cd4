//! A reference interpreter of the IR for tests: byte-addressed objects,
//! pointers encoded as `object << 32 | offset` (object 0 is null). It lets
//! tests check the meaning of lowered code against gcc-compiled C.

use pathwise_ir::{
    float, BinOp, BlockData, CastOp, CmpOp, FuncData, FuncId, InstKind, Operand, Program, RelocTarget, Terminator, Type,
};
use std::collections::HashMap;

pub struct Interp<'p> {
    pub p: &'p Program,
    pub mem: Vec<Vec<u8>>,
    globals: Vec<u64>,
    pub steps: u64,
}

/// A function's address: object numbers with the top bit set.
fn func_pointer(f: FuncId) -> u64 {
    (0x8000_0000 | u64::from(f.0)) << 32
}

fn sext(v: u64, bits: u32) -> i64 {
    ((v << (64 - bits)) as i64) >> (64 - bits)
}

impl<'p> Interp<'p> {
    pub fn new(p: &'p Program) -> Interp<'p> {
        let mut it = Interp { p, mem: vec![Vec::new()], globals: Vec::new(), steps: 0 };
        for g in &p.globals {
            let ptr = it.alloc((g.count * g.elem.bytes()) as usize);
            for (i, v) in g.init.iter().enumerate() {
                it.write(ptr + i as u64 * g.elem.bytes(), g.elem, *v);
            }
            it.globals.push(ptr);
        }
        for (g, &base) in p.globals.iter().zip(&it.globals.clone()) {
            for r in &g.relocs {
                let target = match r.target {
                    RelocTarget::Global(t) => it.globals[t.0 as usize] + r.addend,
                    RelocTarget::Func(f) => func_pointer(f),
                };
                it.write(base + r.offset, Type::Ptr, target);
            }
        }
        it
    }

    pub fn alloc(&mut self, bytes: usize) -> u64 {
        self.mem.push(vec![0; bytes]);
        ((self.mem.len() - 1) as u64) << 32
    }

    /// Allocates an array of `i32` and returns a pointer to it.
    pub fn int_array(&mut self, vals: &[i32]) -> u64 {
        let p = self.alloc(vals.len() * 4);
        for (i, v) in vals.iter().enumerate() {
            self.write(p + 4 * i as u64, Type::I32, *v as u32 as u64);
        }
        p
    }

    pub fn read_ints(&self, p: u64, n: usize) -> Vec<i32> {
        (0..n).map(|i| self.read(p + 4 * i as u64, Type::I32) as u32 as i32).collect()
    }

    pub fn global(&self, name: &str) -> u64 {
        self.globals[self.p.global_by_name(name).expect("global").0 as usize]
    }

    pub fn read(&self, ptr: u64, ty: Type) -> u64 {
        let (obj, off) = ((ptr >> 32) as usize, (ptr & 0xFFFF_FFFF) as usize);
        assert!(obj != 0, "null dereference");
        let m = &self.mem[obj];
        let n = ty.bytes() as usize;
        assert!(off + n <= m.len(), "out of bounds read at {obj}+{off}");
        let mut v = 0u64;
        for i in 0..n {
            v |= u64::from(m[off + i]) << (8 * i);
        }
        v
    }

    pub fn write(&mut self, ptr: u64, ty: Type, v: u64) {
        let (obj, off) = ((ptr >> 32) as usize, (ptr & 0xFFFF_FFFF) as usize);
        assert!(obj != 0, "null dereference");
        let n = ty.bytes() as usize;
        let m = &mut self.mem[obj];
        assert!(off + n <= m.len(), "out of bounds write at {obj}+{off}");
        for i in 0..n {
            m[off + i] = (v >> (8 * i)) as u8;
        }
    }

    pub fn call_by_name(&mut self, name: &str, args: &[u64]) -> Option<u64> {
        let id = self.p.func_by_name(name).unwrap_or_else(|| panic!("no function {name}"));
        self.call(id, args)
    }

    pub fn call(&mut self, id: FuncId, args: &[u64]) -> Option<u64> {
        let f: &'p FuncData = self.p.func(id);
        assert!(!f.blocks.is_empty(), "call to declaration {}", f.name);
        let locals: Vec<u64> = f.locals.iter().map(|l| self.alloc((l.count * l.elem.bytes()) as usize)).collect();
        let mut regs: HashMap<u32, u64> = HashMap::new();
        for (prm, a) in f.params.iter().zip(args) {
            regs.insert(prm.reg.0, *a & prm.ty.mask());
        }
        let mut block: &BlockData = &f.blocks[0];
        loop {
            self.steps += 1;
            assert!(self.steps < 10_000_000, "step limit");
            for inst in &block.insts {
                let val = |o: &Operand, regs: &HashMap<u32, u64>| match o {
                    Operand::Reg(r) => regs[&r.0],
                    Operand::Const(t, v) => v & t.mask(),
                };
                let res = match &inst.kind {
                    InstKind::Bin { op, ty, a, b, .. } => Some(bin(*op, *ty, val(a, &regs), val(b, &regs))),
                    InstKind::Cmp { op, ty, a, b } => Some(u64::from(cmp(*op, *ty, val(a, &regs), val(b, &regs)))),
                    InstKind::Cast { op, from, to, a } => {
                        let v = val(a, &regs);
                        Some(match op {
                            CastOp::SExt => sext(v, from.bits()) as u64 & to.mask(),
                            _ => v & to.mask(),
                        })
                    }
                    InstKind::FBin { op, ty, a, b } => float::eval_fbin(*op, *ty, val(a, &regs), val(b, &regs)).ok(),
                    InstKind::FNeg { ty, a } => Some(float::eval_fneg(*ty, val(a, &regs))),
                    InstKind::FCmp { op, ty, a, b } => {
                        Some(u64::from(float::eval_fcmp(*op, *ty, val(a, &regs), val(b, &regs))))
                    }
                    InstKind::FCast { op, from, to, a } => {
                        let v = float::eval_fcast(*op, *from, *to, val(a, &regs));
                        Some(v.unwrap_or_else(|_| panic!("undefined {} in {}", op.name(), f.name)))
                    }
                    InstKind::AddrLocal { local } => Some(locals[local.index()]),
                    InstKind::AddrGlobal { global } => Some(self.globals[global.0 as usize]),
                    InstKind::AddrFunc { func } => Some(func_pointer(*func)),
                    InstKind::PtrAdd { base, offset } => Some(val(base, &regs).wrapping_add(val(offset, &regs))),
                    InstKind::PtrDiff { a, b } => {
                        let (x, y) = (val(a, &regs), val(b, &regs));
                        assert_eq!(x >> 32, y >> 32, "ptrdiff across objects");
                        Some(((x & 0xFFFF_FFFF) as i64 - (y & 0xFFFF_FFFF) as i64) as u64)
                    }
                    InstKind::Load { ty, ptr } => Some(self.read(val(ptr, &regs), *ty)),
                    InstKind::CheckIndex { index, len, end } => {
                        let i = val(index, &regs);
                        assert!(i < len + u64::from(*end), "index {i} out of an array of {len} in {}", f.name);
                        None
                    }
                    InstKind::Alloca { elem, count } => {
                        let n = val(count, &regs);
                        assert!(n <= 1 << 24, "alloca of {n} elements");
                        Some(self.alloc((n * elem.bytes()) as usize))
                    }
                    InstKind::Store { ty, ptr, value } => {
                        let (p, v) = (val(ptr, &regs), val(value, &regs));
                        self.write(p, *ty, v);
                        None
                    }
                    InstKind::Call { func, args } => {
                        let a: Vec<u64> = args.iter().map(|x| val(x, &regs)).collect();
                        let name = self.p.func(*func).name.as_str();
                        if name == "__pathwise_builtin_nonzero" {
                            // The engine's check of `__builtin_clz`/`ctz`'s argument.
                            assert_ne!(a[0], 0, "zero argument of __builtin_clz/ctz in {}", f.name);
                            None
                        } else if name == "pathwise_assume" {
                            // A variable-length array parameter's contract
                            // (positive lengths), which these programs keep.
                            assert_ne!(a[0] & 0xffff_ffff, 0, "assumption broken in {}", f.name);
                            None
                        } else if name == "pathwise_array_len" {
                            // The engine's length tie: nothing to run.
                            None
                        } else {
                            self.call(*func, &a)
                        }
                    }
                    InstKind::CallPtr { callee, args, .. } => {
                        let p = val(callee, &regs);
                        assert_eq!(p >> 63, 1, "call through a pointer that is not a function's");
                        let a: Vec<u64> = args.iter().map(|x| val(x, &regs)).collect();
                        self.call(FuncId(((p >> 32) & 0x7fff_ffff) as u32), &a)
                    }
                };
                if let (Some(r), Some(v)) = (inst.result, res) {
                    regs.insert(r.0, v);
                }
            }
            let val = |o: &Operand| match o {
                Operand::Reg(r) => regs[&r.0],
                Operand::Const(t, v) => v & t.mask(),
            };
            block = match &block.term {
                Terminator::Jump(b) => &f.blocks[b.index()],
                Terminator::Branch { cond, then_block, else_block } => {
                    &f.blocks[if val(cond) != 0 { then_block.index() } else { else_block.index() }]
                }
                Terminator::Return(v) => return v.as_ref().map(val),
                Terminator::Unreachable => panic!("reached unreachable in {}", f.name),
            };
        }
    }
}

fn bin(op: BinOp, ty: Type, a: u64, b: u64) -> u64 {
    let bits = ty.bits();
    let (sa, sb) = (sext(a, bits), sext(b, bits));
    let r = match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::UDiv => a / b,
        BinOp::URem => a % b,
        BinOp::SDiv => sa.wrapping_div(sb) as u64,
        BinOp::SRem => sa.wrapping_rem(sb) as u64,
        BinOp::Shl => a << (b % 64),
        BinOp::LShr => a >> (b % 64),
        BinOp::AShr => (sa >> (b % 64)) as u64,
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
    };
    r & ty.mask()
}

fn cmp(op: CmpOp, ty: Type, a: u64, b: u64) -> bool {
    let bits = ty.bits();
    let (sa, sb) = (sext(a, bits), sext(b, bits));
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        CmpOp::Ult => a < b,
        CmpOp::Ule => a <= b,
        CmpOp::Ugt => a > b,
        CmpOp::Uge => a >= b,
        CmpOp::Slt => sa < sb,
        CmpOp::Sle => sa <= sb,
        CmpOp::Sgt => sa > sb,
        CmpOp::Sge => sa >= sb,
    }
}
