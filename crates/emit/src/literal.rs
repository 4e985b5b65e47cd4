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
//!
//! Floating values (`f32`, `f64`) arrive as their IEEE bits and are written
//! exactly: hexadecimal floating literals (`0x1.8p+1`, `0x1.8p+1f`), gcc's
//! `__builtin_inf()` and `__builtin_nan("payload")` for the special values
//! (also constant expressions); Test-Comp inputs use the forms `strtod`
//! reads (`0x1.8p+1`, `-inf`, `nan(0x1)`), JSON the bits as an unsigned
//! integer.

use pathwise_ir::x87::X87;
use pathwise_ir::{EnumDef, IntTy, SrcVar, Type};

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

/// The IEEE bits of a floating value handed out as an `i128` (`float`,
/// `double`; a `long double` is [`x87_value`]).
pub fn float_bits(value: i128, ty: Type) -> u64 {
    value as u64 & ty.mask()
}

/// A `long double` handed out as an `i128`: its x87 80 bits.
pub fn x87_value(value: i128) -> X87 {
    X87(value as u128 & ((1 << 80) - 1))
}

/// A `long double` as a C constant: the double it equals when it equals
/// one (`0.5`, converted exactly), else `0xc.ccccccccccccccdp-7L`.
fn long_double_literal(x: X87) -> String {
    if let Some(d) = x.as_double() {
        return c_float_literal(d.to_bits(), Type::F64);
    }
    match x.hex_literal() {
        Some(text) if x.sign() => format!("({text})"),
        Some(text) => text,
        None if x.sign() => "(-__builtin_nanl(\"\"))".to_string(),
        None => "__builtin_nanl(\"\")".to_string(),
    }
}

/// A `long double` as `strtold` reads it, and for comments: the double's
/// text when it equals one, else the exact hexadecimal form.
pub(crate) fn long_double_text(x: X87) -> String {
    match (x.as_double(), x.hex_literal()) {
        (Some(d), _) => float_text(d.to_bits(), Type::F64),
        (None, Some(text)) => text.trim_end_matches('L').to_string(),
        (None, None) => format!("{}nan", if x.sign() { "-" } else { "" }),
    }
}

/// (sign, biased exponent, fraction) of floating bits, with the widths of
/// the exponent and fraction.
fn float_parts(bits: u64, ty: Type) -> (bool, u64, u64, u32, u32) {
    let (ew, fw) = if ty == Type::F32 { (8, 23) } else { (11, 52) };
    let sign = (bits >> (ew + fw)) & 1 == 1;
    (sign, (bits >> fw) & ((1 << ew) - 1), bits & ((1 << fw) - 1), ew, fw)
}

/// The hexadecimal form of a finite value without sign: `0x1.8p+1`,
/// `0x0p+0`, subnormals as `0x0.000001p-126` (exact, as `%a` prints).
fn hex_magnitude(exp: u64, frac: u64, ew: u32, fw: u32) -> String {
    if exp == 0 && frac == 0 {
        return "0x0p+0".to_string();
    }
    // The fraction in whole hex digits (23 bits: shifted to 24).
    let digits = fw.div_ceil(4) as usize;
    let f = frac << (digits as u32 * 4 - fw);
    let text = format!("{f:0digits$x}");
    let text = text.trim_end_matches('0');
    let bias = (1i64 << (ew - 1)) - 1;
    let (lead, e) = if exp == 0 { (0, 1 - bias) } else { (1, exp as i64 - bias) };
    let dot = if text.is_empty() { String::new() } else { format!(".{text}") };
    format!("0x{lead}{dot}p{e:+}")
}

/// An exact C constant expression of floating type `ty` with IEEE bits
/// `bits` (parenthesised when negative).
pub fn c_float_literal(bits: u64, ty: Type) -> String {
    let (sign, exp, frac, ew, fw) = float_parts(bits, ty);
    let f = if ty == Type::F32 { "f" } else { "" };
    let magnitude = if exp == (1 << ew) - 1 && frac == 0 {
        format!("__builtin_inf{f}()")
    } else if exp == (1 << ew) - 1 {
        let quiet = frac >> (fw - 1) & 1 == 1;
        let payload = frac & ((1 << (fw - 1)) - 1);
        let text = if payload == 0 { String::new() } else { format!("0x{payload:x}") };
        format!("__builtin_nan{}{f}(\"{text}\")", if quiet { "" } else { "s" })
    } else {
        format!("{}{f}", hex_magnitude(exp, frac, ew, fw))
    };
    if sign {
        format!("(-{magnitude})")
    } else {
        magnitude
    }
}

/// A floating value as `strtod` reads it (Test-Comp inputs): `0x1.8p+1`,
/// `-0x0p+0`, `inf`, `-nan`, `nan(0x1)`; exact except that a signalling
/// NaN reads back quiet.
pub fn float_text(bits: u64, ty: Type) -> String {
    let (sign, exp, frac, ew, fw) = float_parts(bits, ty);
    let s = if sign { "-" } else { "" };
    if exp == (1 << ew) - 1 && frac == 0 {
        format!("{s}inf")
    } else if exp == (1 << ew) - 1 {
        let payload = frac & ((1 << (fw - 1)) - 1);
        if payload == 0 {
            format!("{s}nan")
        } else {
            format!("{s}nan(0x{payload:x})")
        }
    } else {
        format!("{s}{}", hex_magnitude(exp, frac, ew, fw))
    }
}

/// A value readably, for comments and summaries: integers normalised,
/// floating values in the shortest decimal that reads back exactly.
pub fn display_value(value: i128, ty: IntTy) -> String {
    match ty.ty {
        Type::F32 => format!("{:?}", f32::from_bits(float_bits(value, ty.ty) as u32)),
        Type::F64 => format!("{:?}", f64::from_bits(float_bits(value, ty.ty))),
        Type::F80 => match x87_value(value).as_double() {
            Some(d) => format!("{d:?}"),
            None => long_double_text(x87_value(value)),
        },
        _ => normalize(value, ty).to_string(),
    }
}

/// A C expression of type `c_scalar` (the C spelling of `ty`) with value
/// `value`, e.g. `42`, `(-2147483647 - 1)`, `18446744073709551615ULL`,
/// `(unsigned char)200`, `(_Bool)1`, `0x1.8p+1`.
pub fn c_literal(value: i128, ty: IntTy, c_scalar: &str) -> String {
    if ty.ty == Type::F80 {
        return long_double_literal(x87_value(value));
    }
    if ty.ty.is_float() {
        return c_float_literal(float_bits(value, ty.ty), ty.ty);
    }
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

/// A C expression of the type of `src` (a scalar) with value `value`: the
/// name of an enumeration constant when `src`'s type is one of `enums` and
/// a constant has that value (`RED`), else as [`c_literal`] (`(enum
/// light)7U` for a value no constant has).
pub fn c_value(value: i128, src: &SrcVar, enums: &[EnumDef]) -> String {
    let v = normalize(value, src.scalar);
    match enums.iter().find(|e| e.c_name == src.c_scalar).and_then(|e| e.name_of(v)) {
        Some(name) => name.to_string(),
        None => c_literal(value, src.scalar, &src.c_scalar),
    }
}

/// The bytes of a character array that holds a string, without the final
/// terminator, or `None`: the array must end with a NUL and hold something
/// other than NULs (`{0, 0, 0}` says so better than `"\0\0"`). Bytes that
/// are not printable are written as escapes by [`c_string_literal`]
/// (`{1, 'a', 0}` is `"\001a"`; `{'a', 'b', 0, 0}` is `"ab\0"`). Only
/// 8-bit integer types qualify (`char`, `signed char`, `unsigned char`,
/// which C all lets a string literal initialise). An array without a final
/// NUL stays a list of values: `char a[2] = "ab"` drops the literal's
/// terminator, which gcc 15's `-Wextra` reports.
pub fn text_bytes(values: &[i128], ty: IntTy) -> Option<Vec<u8>> {
    if ty.ty != Type::I8 {
        return None;
    }
    let bytes: Vec<u8> = values.iter().map(|&v| v as u8).collect();
    let (&last, body) = bytes.split_last()?;
    if last != 0 || (!body.is_empty() && body.iter().all(|&b| b == 0)) {
        return None;
    }
    Some(body.to_vec())
}

/// A C string literal holding exactly `bytes` (plus its terminator):
/// `"ab\0"`, with escapes for quotes, backslashes, control bytes
/// (`\n`, `\t`, `\r`, octal otherwise: `\0`, or `\000` before a digit)
/// and a `?` after a `?` (no trigraph can form).
pub fn c_string_literal(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for (i, &b) in bytes.iter().enumerate() {
        let next_is_digit = bytes.get(i + 1).is_some_and(|n| n.is_ascii_digit());
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            b'\r' => out.push_str("\\r"),
            b'?' if i > 0 && bytes[i - 1] == b'?' => out.push_str("\\?"),
            0 if !next_is_digit => out.push_str("\\0"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\{b:03o}")),
        }
    }
    out.push('"');
    out
}

/// A value as a JSON number: `i64` for signed types, `u64` for unsigned ones
/// (after normalisation every value fits one of them); a floating value's
/// IEEE bits as an unsigned integer (exact, NaNs and `-0.0` included; a
/// `long double`'s 80 bits).
pub fn json_number(value: i128, ty: IntTy) -> i128 {
    if ty.ty == Type::F80 {
        return x87_value(value).0 as i128;
    }
    if ty.ty.is_float() {
        return float_bits(value, ty.ty) as i128;
    }
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

    #[test]
    fn spells_strings() {
        let t = |vs: &[i128]| text_bytes(vs, I8).map(|b| c_string_literal(&b));
        assert_eq!(t(&[97, 98, 0]).as_deref(), Some("\"ab\""));
        assert_eq!(t(&[97, 98, 0, 0]).as_deref(), Some("\"ab\\0\""));
        assert_eq!(t(&[0]).as_deref(), Some("\"\""));
        assert_eq!(t(&[0, 0]), None);
        assert_eq!(t(&[34, 92, 10, 63, 63, 47, 0]).as_deref(), Some("\"\\\"\\\\\\n?\\?/\""));
        // Control bytes and bytes after the first NUL are escaped.
        assert_eq!(t(&[1, 97, 98, 0]).as_deref(), Some("\"\\001ab\""));
        assert_eq!(t(&[97, 0, 98, 0]).as_deref(), Some("\"a\\0b\""));
        assert_eq!(t(&[-1, 0]).as_deref(), Some("\"\\377\""));
        assert_eq!(t(&[50, 49, 52, 55, 0]).as_deref(), Some("\"2147\""));
        // Not a string: no terminator, or not an 8-bit type.
        assert_eq!(t(&[97, 98]), None);
        assert_eq!(t(&[97, 0, 98]), None);
        assert_eq!(text_bytes(&[97, 0], I32), None);
        // Escapes never merge with the next character.
        assert_eq!(c_string_literal(&[0, b'7', 1, b'x', 200]), "\"\\0007\\001x\\310\"");
    }

    #[test]
    fn spells_floating_values_exactly() {
        let d = |v: f64| c_float_literal(v.to_bits(), Type::F64);
        let f = |v: f32| c_float_literal(v.to_bits() as u64, Type::F32);
        assert_eq!(d(3.0), "0x1.8p+1");
        assert_eq!(d(1.0), "0x1p+0");
        assert_eq!(d(-0.1), "(-0x1.999999999999ap-4)");
        assert_eq!(d(0.0), "0x0p+0");
        assert_eq!(d(-0.0), "(-0x0p+0)");
        assert_eq!(d(f64::from_bits(1)), "0x0.0000000000001p-1022");
        assert_eq!(d(f64::MAX), "0x1.fffffffffffffp+1023");
        assert_eq!(d(f64::NEG_INFINITY), "(-__builtin_inf())");
        assert_eq!(c_float_literal(0xfff8_0000_0000_0000, Type::F64), "(-__builtin_nan(\"\"))");
        assert_eq!(c_float_literal(0x7ff0_0000_0000_0001, Type::F64), "__builtin_nans(\"0x1\")");
        assert_eq!(f(0.1), "0x1.99999ap-4f");
        assert_eq!(f(f32::from_bits(1)), "0x0.000002p-126f");
        assert_eq!(f(f32::INFINITY), "__builtin_inff()");
        assert_eq!(float_text(0.5f64.to_bits(), Type::F64), "0x1p-1");
        assert_eq!(float_text((-2.5f32).to_bits() as u64, Type::F32), "-0x1.4p+1");
        assert_eq!(float_text(0x7fc0_0001, Type::F32), "nan(0x1)");
        assert_eq!(float_text(f64::NEG_INFINITY.to_bits(), Type::F64), "-inf");
        let ld = IntTy { ty: Type::F80, signed: true };
        let third = X87::arith(pathwise_ir::FBinOp::FDiv, X87::from_f64(-1.0), X87::from_f64(3.0));
        assert_eq!(c_literal(third.0 as i128, ld, "long double"), "(-0xa.aaaaaaaaaaaaaabp-5L)");
        assert_eq!(c_literal(X87::from_f64(0.5).0 as i128, ld, "long double"), "0x1p-1");
        assert_eq!(long_double_text(third), "-0xa.aaaaaaaaaaaaaabp-5");
        assert_eq!(display_value(1.5f64.to_bits() as i64 as i128, IntTy { ty: Type::F64, signed: true }), "1.5");
        // A value handed out sign-extended still has its bits.
        assert_eq!(json_number(-1, IntTy { ty: Type::F32, signed: true }), 0xffff_ffff);
    }
}
