//! gcc's integer bit built-ins: `__builtin_clz`, `__builtin_ctz`,
//! `__builtin_popcount`, `__builtin_parity`, `__builtin_ffs` (each with its
//! `l` and `ll` forms) and `__builtin_bswap16/32/64`.
//!
//! Each is lowered into straight-line shifts, masks, ors and adds of its
//! argument, with no branch and no loop: a symbolic argument stays one
//! expression, so a call adds no decision (and no path) and its result
//! is as symbolic as its argument. gcc compiles them to single
//! instructions (`bsr`, `popcnt`, `bswap`) without branches either, so
//! gcov sees no branch here and neither do the predictions.
//!
//! - `popcount`: the classic SWAR sum (pairs, nibbles, then bytes added
//!   by shifts rather than a multiplication, which the solver handles far
//!   worse);
//! - `clz(x)`: `x` smeared right (`x |= x >> 1`, `>> 2` ... `>> w/2`),
//!   then `w - popcount(x)`;
//! - `ctz(x)`: `popcount(~x & (x - 1))`, the ones below the lowest set bit;
//! - `ffs(x)`: `popcount(x ^ (x - 1))` (one more than `ctz`), masked to 0
//!   when `x == 0` by a comparison turned into an all-ones mask (a
//!   comparison is not a decision: only branches are);
//! - `parity`: the xor fold of the halves down to one bit;
//! - `bswap`: each byte moved to its mirrored position and or-ed.
//!
//! `clz` and `ctz` of 0 are undefined in gcc (the native result is
//! whatever `bsr`/`bsf` leave: 31 for `__builtin_clz(0)` on x86-64 at -O0,
//! while the lowering above would give 32). The call therefore first calls
//! `__pathwise_builtin_nonzero(x)`, a body-less function the engine models
//! as an undefined-behaviour check (`invalid-builtin-argument`, which UBSan's
//! `-fsanitize=builtin` traps natively), like a division's check of its
//! divisor: with error search the zero argument is a test of its own,
//! without it a guard keeps solutions away from 0.
//!
//! The argument converts to the built-in's parameter type as for a
//! prototyped call (`unsigned int`, `unsigned long` or `unsigned long long`;
//! `int`/`long`/`long long` for `ffs`, whose bits are the same); the result
//! is an `int` (`bswap`: `uint16_t`, `uint32_t`, `uint64_t`). `long` is 32
//! bits under ILP32.

use lang_c::ast::Expression;
use lang_c::span::{Node, Span};
use pathwise_ir::{BinOp, CmpOp, Loc, Operand, Type};

use crate::ctypes::{CType, IntKind, INT};
use crate::expr::Val;
use crate::func::FnCtx;
use crate::ops::Conv;
use crate::unit::LResult;

/// The engine's check that the argument of `clz`/`ctz` is not zero.
pub(crate) const NONZERO_CHECK: &str = "__pathwise_builtin_nonzero";

/// The operation of a built-in name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Clz,
    Ctz,
    Popcount,
    Parity,
    Ffs,
    Bswap,
}

/// The operation and the argument's type of `name`, if it is one of ours.
fn classify(name: &str, long: IntKind) -> Option<(Op, IntKind)> {
    let base = name.strip_prefix("__builtin_")?;
    if let Some(bits) = base.strip_prefix("bswap") {
        let kind = match bits {
            "16" => IntKind::UShort,
            "32" => IntKind::UInt,
            "64" => IntKind::ULongLong,
            _ => return None,
        };
        return Some((Op::Bswap, kind));
    }
    let (stem, suffix) = match base.strip_suffix("ll") {
        Some(s) => (s, 2),
        None => match base.strip_suffix('l') {
            Some(s) => (s, 1),
            None => (base, 0),
        },
    };
    let op = match stem {
        "clz" => Op::Clz,
        "ctz" => Op::Ctz,
        "popcount" => Op::Popcount,
        "parity" => Op::Parity,
        "ffs" => Op::Ffs,
        _ => return None,
    };
    let unsigned_long = if long == IntKind::Long { IntKind::ULong } else { IntKind::ULong32 };
    let kind = match (op == Op::Ffs, suffix) {
        (false, 0) => IntKind::UInt,
        (false, 1) => unsigned_long,
        (false, _) => IntKind::ULongLong,
        (true, 0) => IntKind::Int,
        (true, 1) => long,
        (true, _) => IntKind::LongLong,
    };
    Some((op, kind))
}

impl<'u, 'a> FnCtx<'u, 'a> {
    /// A call of one of the integer bit built-ins when the program does
    /// not declare the name (`None` for other names).
    pub fn bit_builtin(&mut self, name: &str, args: &[Node<Expression>], span: Span) -> LResult<Option<Val>> {
        let Some((op, kind)) = classify(name, self.u.model.long()) else { return Ok(None) };
        if args.len() != 1 {
            return Err(self.u.invalid(span, format!("`{name}` expects 1 argument, {} given", args.len())));
        }
        let v = self.rvalue(&args[0])?;
        if !matches!(v.ty, CType::Int(_)) {
            let what = v.ty.spelling();
            return Err(self.u.invalid(args[0].span, format!("`{name}` needs an integer argument, not `{what}`")));
        }
        let v = self.convert(v, &CType::Int(kind), args[0].span, Conv::Implicit)?;
        let loc = self.loc(span);
        let (ty, x) = (kind.ir(), v.op);
        if matches!(op, Op::Clz | Op::Ctz) && !matches!(x, Operand::Const(_, c) if c != 0) {
            self.nonzero_check(ty, x, span);
        }
        let mut e = Bits { cx: self, ty, loc };
        let r = match op {
            Op::Popcount => e.popcount(x),
            Op::Parity => e.parity(x),
            Op::Clz => {
                let smeared = e.smear(x);
                let ones = e.popcount(smeared);
                e.bin(BinOp::Sub, Operand::Const(ty, u64::from(ty.bits())), ones)
            }
            Op::Ctz => {
                let below = e.below_lowest(x);
                e.popcount(below)
            }
            Op::Ffs => e.ffs(x),
            Op::Bswap => e.bswap(x),
        };
        if op == Op::Bswap {
            return Ok(Some(Val { op: r, ty: CType::Int(kind) }));
        }
        // A count fits in an `int`: truncate (64-bit) or keep.
        let r = self.b.cast(false, ty, Type::I32, r, loc);
        Ok(Some(Val { op: r, ty: INT }))
    }

    /// `__pathwise_builtin_nonzero(x)` (`x` zero-extended to 64 bits),
    /// declared on first use.
    fn nonzero_check(&mut self, ty: Type, x: Operand, span: Span) {
        let loc = self.loc(span);
        let x = self.b.cast(false, ty, Type::I64, x, loc);
        self.call_engine_model(NONZERO_CHECK, vec![CType::Int(IntKind::ULongLong)], vec![x], span);
    }
}

/// Straight-line arithmetic on one integer type at one location.
struct Bits<'c, 'u, 'a> {
    cx: &'c mut FnCtx<'u, 'a>,
    ty: Type,
    loc: Loc,
}

impl Bits<'_, '_, '_> {
    fn bin(&mut self, op: BinOp, a: Operand, b: Operand) -> Operand {
        self.cx.b.bin(op, self.ty, a, b, self.loc)
    }

    fn k(&self, v: u64) -> Operand {
        Operand::Const(self.ty, v & self.ty.mask())
    }

    /// `a op (a >> s)`.
    fn fold(&mut self, op: BinOp, a: Operand, s: u32) -> Operand {
        let shifted = self.bin(BinOp::LShr, a, self.k(u64::from(s)));
        self.bin(op, a, shifted)
    }

    /// The number of set bits (SWAR).
    fn popcount(&mut self, x: Operand) -> Operand {
        let w = self.ty.bits();
        let (m1, m2, m4) = (0x5555_5555_5555_5555u64, 0x3333_3333_3333_3333u64, 0x0f0f_0f0f_0f0f_0f0fu64);
        // x - ((x >> 1) & m1): each pair holds its count.
        let half = self.bin(BinOp::LShr, x, self.k(1));
        let half = self.bin(BinOp::And, half, self.k(m1));
        let x = self.bin(BinOp::Sub, x, half);
        // Nibbles hold their counts.
        let lo = self.bin(BinOp::And, x, self.k(m2));
        let hi = self.bin(BinOp::LShr, x, self.k(2));
        let hi = self.bin(BinOp::And, hi, self.k(m2));
        let x = self.bin(BinOp::Add, lo, hi);
        // Bytes hold their counts (at most 8: no carry into the next byte).
        let x = self.fold(BinOp::Add, x, 4);
        let mut x = self.bin(BinOp::And, x, self.k(m4));
        // The bytes summed into the lowest one (at most 64 < 256).
        let mut s = 8;
        while s < w {
            x = self.fold(BinOp::Add, x, s);
            s *= 2;
        }
        self.bin(BinOp::And, x, self.k(0xff))
    }

    /// Every bit below the highest set bit set too.
    fn smear(&mut self, mut x: Operand) -> Operand {
        let mut s = 1;
        while s < self.ty.bits() {
            x = self.fold(BinOp::Or, x, s);
            s *= 2;
        }
        x
    }

    /// `~x & (x - 1)`: the bits below the lowest set bit (all for 0).
    fn below_lowest(&mut self, x: Operand) -> Operand {
        let not = self.bin(BinOp::Xor, x, self.k(u64::MAX));
        let dec = self.bin(BinOp::Sub, x, self.k(1));
        self.bin(BinOp::And, not, dec)
    }

    /// One plus the index of the lowest set bit, 0 for 0.
    fn ffs(&mut self, x: Operand) -> Operand {
        let dec = self.bin(BinOp::Sub, x, self.k(1));
        let upto = self.bin(BinOp::Xor, x, dec);
        let n = self.popcount(upto);
        let (ty, loc) = (self.ty, self.loc);
        let nonzero = self.cx.b.cmp(CmpOp::Ne, ty, x, self.k(0), loc);
        let one = self.cx.b.cast(false, Type::I1, ty, nonzero, loc);
        let mask = self.bin(BinOp::Sub, self.k(0), one);
        self.bin(BinOp::And, n, mask)
    }

    /// The xor of all bits.
    fn parity(&mut self, mut x: Operand) -> Operand {
        let mut s = self.ty.bits() / 2;
        while s >= 1 {
            x = self.fold(BinOp::Xor, x, s);
            s /= 2;
        }
        self.bin(BinOp::And, x, self.k(1))
    }

    /// The bytes in reverse order.
    fn bswap(&mut self, x: Operand) -> Operand {
        let n = u64::from(self.ty.bytes() as u32);
        let mut out = self.k(0);
        for i in 0..n {
            let (from, to) = (8 * i, 8 * (n - 1 - i));
            let byte = self.bin(BinOp::LShr, x, self.k(from));
            let byte = self.bin(BinOp::And, byte, self.k(0xff));
            let moved = self.bin(BinOp::Shl, byte, self.k(to));
            out = self.bin(BinOp::Or, out, moved);
        }
        out
    }
}
