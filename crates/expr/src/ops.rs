//! Concrete semantics of bit-vector operators (SMT-LIB semantics).
//!
//! Values are `u64` holding the low `width` bits (1..=64), upper bits zero.
//! Division by zero follows SMT-LIB (`bvudiv x 0 = all ones`,
//! `bvurem x 0 = x`, signed variants accordingly); the engine guards C's
//! undefined cases before it gets here.

/// Binary bit-vector operators.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum BvOp {
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

impl BvOp {
    /// Every operator, in declaration order.
    pub const ALL: [BvOp; 13] = [
        BvOp::Add,
        BvOp::Sub,
        BvOp::Mul,
        BvOp::UDiv,
        BvOp::SDiv,
        BvOp::URem,
        BvOp::SRem,
        BvOp::Shl,
        BvOp::LShr,
        BvOp::AShr,
        BvOp::And,
        BvOp::Or,
        BvOp::Xor,
    ];
}

/// Bit-vector comparisons (canonical set: `ne`, `ugt`, ... are built from these).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum BvCmp {
    Ult,
    Ule,
    Slt,
    Sle,
}

impl BvCmp {
    /// Every comparison, in declaration order.
    pub const ALL: [BvCmp; 4] = [BvCmp::Ult, BvCmp::Ule, BvCmp::Slt, BvCmp::Sle];
}

/// Mask of the low `width` bits.
pub fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// Sign-extend the low `width` bits of `v` to an `i64`.
pub fn to_signed(v: u64, width: u32) -> i64 {
    if width >= 64 {
        v as i64
    } else {
        let shift = 64 - width;
        ((v << shift) as i64) >> shift
    }
}

/// Apply a binary operator to two `width`-bit values.
pub fn eval_bin(op: BvOp, width: u32, a: u64, b: u64) -> u64 {
    let m = mask(width);
    let (a, b) = (a & m, b & m);
    let r = match op {
        BvOp::Add => a.wrapping_add(b),
        BvOp::Sub => a.wrapping_sub(b),
        BvOp::Mul => a.wrapping_mul(b),
        BvOp::UDiv => a.checked_div(b).unwrap_or(m),
        BvOp::URem => {
            if b == 0 {
                a
            } else {
                a % b
            }
        }
        BvOp::SDiv => {
            let (sa, sb) = (to_signed(a, width), to_signed(b, width));
            if sb == 0 {
                if sa < 0 {
                    1
                } else {
                    m
                }
            } else {
                sa.wrapping_div(sb) as u64
            }
        }
        BvOp::SRem => {
            let (sa, sb) = (to_signed(a, width), to_signed(b, width));
            if sb == 0 {
                a
            } else {
                sa.wrapping_rem(sb) as u64
            }
        }
        BvOp::Shl => {
            if b >= width as u64 {
                0
            } else {
                a << b
            }
        }
        BvOp::LShr => {
            if b >= width as u64 {
                0
            } else {
                a >> b
            }
        }
        BvOp::AShr => {
            let sa = to_signed(a, width);
            if b >= width as u64 {
                if sa < 0 {
                    m
                } else {
                    0
                }
            } else {
                (sa >> b) as u64
            }
        }
        BvOp::And => a & b,
        BvOp::Or => a | b,
        BvOp::Xor => a ^ b,
    };
    r & m
}

/// Whether the product of two `width`-bit values read as signed numbers is
/// representable in `width` signed bits (C's `a * b` does not overflow).
pub fn smul_fits(width: u32, a: u64, b: u64) -> bool {
    let (m, half) = (mask(width), 1i128 << (width - 1));
    let product = to_signed(a & m, width) as i128 * to_signed(b & m, width) as i128;
    (-half..half).contains(&product)
}

/// Apply a comparison to two `width`-bit values.
pub fn eval_cmp(op: BvCmp, width: u32, a: u64, b: u64) -> bool {
    let m = mask(width);
    let (a, b) = (a & m, b & m);
    match op {
        BvCmp::Ult => a < b,
        BvCmp::Ule => a <= b,
        BvCmp::Slt => to_signed(a, width) < to_signed(b, width),
        BvCmp::Sle => to_signed(a, width) <= to_signed(b, width),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_division_truncates_toward_zero() {
        assert_eq!(to_signed(eval_bin(BvOp::SDiv, 32, (-7i64) as u64, 2), 32), -3);
        assert_eq!(to_signed(eval_bin(BvOp::SRem, 32, (-7i64) as u64, 2), 32), -1);
    }

    #[test]
    fn wrap_around_and_shifts() {
        assert_eq!(eval_bin(BvOp::Add, 8, 255, 1), 0);
        assert_eq!(eval_bin(BvOp::AShr, 8, 0x80, 7), 0xff);
        assert_eq!(eval_bin(BvOp::Shl, 32, 1, 40), 0);
        assert!(eval_cmp(BvCmp::Slt, 16, 0x8000, 0));
        assert!(!eval_cmp(BvCmp::Ult, 16, 0x8000, 0));
    }

    #[test]
    fn signed_multiplication_fits() {
        assert!(!smul_fits(8, 0xff, 0x80)); // -1 * -128 = 128
        assert!(smul_fits(8, 0xff, 0x7f)); // -127
        assert!(!smul_fits(8, 16, 8)); // 128
        assert!(smul_fits(8, 16, 0xf8)); // -128
        assert!(!smul_fits(1, 1, 1)); // (-1) * (-1) = 1 does not fit in 1 bit
        assert!(smul_fits(64, 1 << 31, 1 << 31));
        assert!(!smul_fits(64, 1 << 32, 1 << 31));
        assert!(!smul_fits(64, u64::MAX, 1 << 63));
        assert!(smul_fits(64, u64::MAX, (1 << 63) + 1));
    }

    #[test]
    fn smtlib_division_by_zero() {
        assert_eq!(eval_bin(BvOp::UDiv, 8, 5, 0), 0xff);
        assert_eq!(eval_bin(BvOp::URem, 8, 5, 0), 5);
        assert_eq!(eval_bin(BvOp::SDiv, 8, 0xfb, 0), 1);
    }
}
