//! C integer literals and value normalisation.
//!
//! The engine hands out values as `i128` "interpreted with the variable's
//! signedness". Before printing we normalise them (wrap to the type's width,
//! reinterpret with its signedness) so that a value the engine computed with a
//! different but equivalent bit pattern still prints as the one C value it
//! denotes. Literals are spelled so that `gcc -Wall -Wextra` stays quiet:
//! the most negative values are written as `(-MAX - 1)` (the literal `MAX + 1`
//! would not fit its type), 64-bit values carry `LL`/`ULL`, unsigned values a
//! `U`, and types other than the literal's natural type get an explicit cast.

use pathwise_ir::{IntTy, Type};

/// Wrap `value` to the width of `ty` and reinterpret it with `ty`'s
/// signedness (`_Bool` becomes 0 or 1 by its lowest bit, as the IR does).
pub fn normalize(value: i128, ty: IntTy) -> i128 {
    // Truncating to the low 64 bits keeps the two's-complement pattern that
    // `to_i128` masks further to the type's width.
    ty.to_i128(value as u64)
}

/// Whether values of `ty` are printed and compared as unsigned.
/// Pointers never appear as values; treat them as unsigned 64-bit if they do.
pub fn is_unsigned(ty: IntTy) -> bool {
    !ty.signed || ty.ty == Type::I1 || ty.ty == Type::Ptr
}

/// The C spellings whose literal needs no cast, per (bits, signed).
fn natural_spellings(bits: u32, signed: bool) -> &'static [&'static str] {
    match (bits, signed) {
        (32, true) => &["int", "signed int", "signed"],
        (32, false) => &["unsigned int", "unsigned"],
        (64, true) => &["long long", "long long int", "signed long long", "signed long long int"],
        (64, false) => &["unsigned long long", "unsigned long long int"],
        _ => &[],
    }
}

/// The literal without any cast: a constant expression of the natural C type
/// for the width (`int`, `unsigned int`, `long long`, `unsigned long long`;
/// `int` for narrower types, which it can represent).
fn bare_literal(v: i128, ty: IntTy) -> String {
    let bits = ty.ty.bits();
    if is_unsigned(ty) {
        return match bits {
            64 => format!("{v}ULL"),
            32 => format!("{v}U"),
            _ => format!("{v}"),
        };
    }
    match bits {
        64 if v == i64::MIN as i128 => "(-9223372036854775807LL - 1)".to_string(),
        64 => format!("{v}LL"),
        32 if v == i32::MIN as i128 => "(-2147483647 - 1)".to_string(),
        _ => format!("{v}"),
    }
}

/// A C expression of type `c_scalar` (the C spelling of `ty`) with value
/// `value`, e.g. `42`, `(-2147483647 - 1)`, `18446744073709551615ULL`,
/// `(unsigned char)200`, `(_Bool)1`.
pub fn c_literal(value: i128, ty: IntTy, c_scalar: &str) -> String {
    let v = normalize(value, ty);
    let bare = bare_literal(v, ty);
    let spelled = c_scalar.split_whitespace().collect::<Vec<_>>().join(" ");
    if natural_spellings(ty.ty.bits(), !is_unsigned(ty)).contains(&spelled.as_str()) || spelled.is_empty() {
        bare
    } else {
        // A cast applies to a unary expression, so `(signed char)-5` needs no
        // extra parentheses; the `(-MAX - 1)` forms carry their own.
        format!("({spelled}){bare}")
    }
}

/// A value as a JSON number: `i64` for signed types, `u64` for unsigned ones
/// (after normalisation every value fits one of them).
pub fn json_number(value: i128, ty: IntTy) -> i128 {
    normalize(value, ty)
}

#[cfg(test)]
mod tests {
    use super::*;

    const I32: IntTy = IntTy { ty: Type::I32, signed: true };
    const U32: IntTy = IntTy { ty: Type::I32, signed: false };
    const I64: IntTy = IntTy { ty: Type::I64, signed: true };
    const U64: IntTy = IntTy { ty: Type::I64, signed: false };
    const U8: IntTy = IntTy { ty: Type::I8, signed: false };
    const I8: IntTy = IntTy { ty: Type::I8, signed: true };
    const BOOL: IntTy = IntTy { ty: Type::I1, signed: false };

    #[test]
    fn normalizes_by_width_and_signedness() {
        assert_eq!(normalize(255, I8), -1);
        assert_eq!(normalize(-1, U8), 255);
        assert_eq!(normalize(-1, U64), u64::MAX as i128);
        assert_eq!(normalize(u64::MAX as i128, I64), -1);
        assert_eq!(normalize(3, BOOL), 1);
        assert_eq!(normalize(1 << 40, I32), 0);
    }

    #[test]
    fn spells_extreme_literals() {
        assert_eq!(c_literal(i32::MIN as i128, I32, "int"), "(-2147483647 - 1)");
        assert_eq!(c_literal(-5, I32, "int"), "-5");
        assert_eq!(c_literal(u32::MAX as i128, U32, "unsigned int"), "4294967295U");
        assert_eq!(c_literal(i64::MIN as i128, I64, "long long"), "(-9223372036854775807LL - 1)");
        assert_eq!(c_literal(7, I64, "long"), "(long)7LL");
        assert_eq!(c_literal(u64::MAX as i128, U64, "unsigned long"), "(unsigned long)18446744073709551615ULL");
        assert_eq!(c_literal(200, U8, "unsigned char"), "(unsigned char)200");
        assert_eq!(c_literal(-5, I8, "signed char"), "(signed char)-5");
        assert_eq!(c_literal(1, BOOL, "_Bool"), "(_Bool)1");
    }
}
