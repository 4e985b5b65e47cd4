//! Literal constants: the type and value of integer constants (C11 6.4.4.1),
//! character constants (6.4.4.4) and the bytes of string literals (6.4.5).
//!
//! An integer constant takes the first type of its candidate list that can
//! represent its value; the list depends on the suffix and on whether the
//! constant is decimal (signed types only, unless suffixed `u`) or
//! octal/hexadecimal/binary (signed and unsigned types alternate). So
//! `0xFFFFFFFF` is `unsigned int` but `4294967295` is `long`.

use lang_c::ast::{Integer, IntegerBase, IntegerSize};

use crate::consteval::CVal;
use crate::ctypes::IntKind;
use crate::DataModel;

/// Types an integer constant may take, in order of preference.
fn candidates(int: &Integer, model: DataModel) -> Vec<IntKind> {
    use IntKind::*;
    let (long, ulong) = (model.long(), model.ulong());
    let decimal = int.base == IntegerBase::Decimal;
    match (int.suffix.size, int.suffix.unsigned, decimal) {
        (IntegerSize::Int, false, true) => vec![Int, long, LongLong],
        (IntegerSize::Int, false, false) => vec![Int, UInt, long, ulong, LongLong, ULongLong],
        (IntegerSize::Int, true, _) => vec![UInt, ulong, ULongLong],
        (IntegerSize::Long, false, true) => vec![long, LongLong],
        (IntegerSize::Long, false, false) => vec![long, ulong, LongLong, ULongLong],
        (IntegerSize::Long, true, _) => vec![ulong, ULongLong],
        (IntegerSize::LongLong, false, true) => vec![LongLong],
        (IntegerSize::LongLong, false, false) => vec![LongLong, ULongLong],
        (IntegerSize::LongLong, true, _) => vec![ULongLong],
    }
}

/// The typed value of an integer constant, or a message.
pub(crate) fn integer_constant(int: &Integer, model: DataModel) -> Result<CVal, String> {
    if int.suffix.imaginary {
        return Err("unsupported: imaginary constants".to_string());
    }
    let radix = match int.base {
        IntegerBase::Decimal => 10,
        IntegerBase::Octal => 8,
        IntegerBase::Hexadecimal => 16,
        IntegerBase::Binary => 2,
    };
    let digits: String = int.number.chars().filter(|c| *c != '\'').collect();
    let value = u64::from_str_radix(if digits.is_empty() { "0" } else { &digits }, radix)
        .map_err(|_| format!("integer constant `{}` is too large", int.number))?;
    for kind in candidates(int, model) {
        let max = if kind.signed() { (1u64 << (kind.bits() - 1)) - 1 } else { kind.ir().mask() };
        if value <= max {
            return Ok(CVal { bits: value, kind });
        }
    }
    // Like gcc: a decimal constant too large for `long long` is unsigned.
    Ok(CVal { bits: value, kind: IntKind::ULongLong })
}

/// Decodes the escape sequences of a literal body into code units: bytes for
/// plain literals (UTF-8 for non-ASCII source characters), code points for
/// wide ones.
fn decode(body: &str, wide: bool) -> Result<Vec<u32>, String> {
    let mut out = Vec::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            if wide || c.is_ascii() {
                out.push(c as u32);
            } else {
                let mut buf = [0u8; 4];
                out.extend(c.encode_utf8(&mut buf).bytes().map(u32::from));
            }
            continue;
        }
        let e = chars.next().ok_or("incomplete escape sequence")?;
        let v = match e {
            'n' => 10,
            't' => 9,
            'r' => 13,
            'a' => 7,
            'b' => 8,
            'f' => 12,
            'v' => 11,
            'e' | 'E' => 27,
            '\\' | '\'' | '"' | '?' => e as u32,
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                v
            }
            'x' => {
                let mut v: u32 = 0;
                let mut n = 0;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(16)) {
                    v = v.checked_mul(16).and_then(|v| v.checked_add(d)).ok_or("hex escape sequence out of range")?;
                    chars.next();
                    n += 1;
                }
                if n == 0 {
                    return Err("\\x used with no following hex digits".to_string());
                }
                v
            }
            'u' | 'U' => {
                let len = if e == 'u' { 4 } else { 8 };
                let mut v: u32 = 0;
                for _ in 0..len {
                    let d = chars.next().and_then(|c| c.to_digit(16)).ok_or("incomplete universal character name")?;
                    v = v.wrapping_mul(16).wrapping_add(d);
                }
                if !wide {
                    let c = char::from_u32(v).ok_or("invalid universal character name")?;
                    let mut buf = [0u8; 4];
                    out.extend(c.encode_utf8(&mut buf).bytes().map(u32::from));
                    continue;
                }
                v
            }
            other => other as u32,
        };
        if !wide && v > 0xFF {
            return Err("escape sequence out of range".to_string());
        }
        out.push(v);
    }
    Ok(out)
}

/// The typed value of a character constant such as `'a'`, `'\n'`, `L'x'`.
pub(crate) fn char_constant(text: &str) -> Result<CVal, String> {
    let (prefix, rest) = match text.find('\'') {
        Some(i) => (&text[..i], &text[i..]),
        None => return Err(format!("malformed character constant {text}")),
    };
    let body = rest.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')).ok_or("malformed character constant")?;
    let (kind, wide) = match prefix {
        "" => (IntKind::Int, false),
        "L" => (IntKind::Int, true),
        "u" => (IntKind::UShort, true),
        "U" => (IntKind::UInt, true),
        _ => return Err(format!("unsupported: character constant prefix `{prefix}`")),
    };
    let units = decode(body, wide)?;
    match units.as_slice() {
        // A plain character constant has type int and the value of the char
        // (signed on x86-64), so '\xff' is -1.
        [b] if !wide => Ok(CVal { bits: IntKind::Int.wrap(*b as u8 as i8 as i64 as u64), kind }),
        [c] => Ok(CVal { bits: kind.wrap(u64::from(*c)), kind }),
        [] => Err("empty character constant".to_string()),
        _ => Err("unsupported: multi-character constants".to_string()),
    }
}

/// The bytes of a (possibly concatenated) plain string literal, without the
/// terminating zero.
pub(crate) fn string_bytes(parts: &[String]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    for part in parts {
        let (prefix, rest) = match part.find('"') {
            Some(i) => (&part[..i], &part[i..]),
            None => return Err("malformed string literal".to_string()),
        };
        if !prefix.is_empty() && prefix != "u8" {
            return Err(format!("unsupported: wide string literals (`{prefix}\"...\"`)"));
        }
        let body = rest.strip_prefix('"').and_then(|r| r.strip_suffix('"')).ok_or("malformed string literal")?;
        out.extend(decode(body, false)?.into_iter().map(|u| u as u8));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lang_c::ast::IntegerSuffix;

    fn int(base: IntegerBase, number: &str, size: IntegerSize, unsigned: bool) -> CVal {
        let suffix = IntegerSuffix { size, unsigned, imaginary: false };
        integer_constant(&Integer { base, number: number.into(), suffix }, DataModel::Lp64).unwrap()
    }

    #[test]
    fn integer_constant_types_ilp32() {
        let suffix = IntegerSuffix { size: IntegerSize::Int, unsigned: false, imaginary: false };
        let c = |base, number: &str, suffix| {
            integer_constant(&Integer { base, number: number.into(), suffix }, DataModel::Ilp32).unwrap().kind
        };
        assert_eq!(c(IntegerBase::Decimal, "2147483648", suffix.clone()), IntKind::LongLong);
        assert_eq!(c(IntegerBase::Hexadecimal, "80000000", suffix.clone()), IntKind::UInt);
        let ul = IntegerSuffix { size: IntegerSize::Long, unsigned: true, imaginary: false };
        assert_eq!(c(IntegerBase::Decimal, "1", ul.clone()), IntKind::ULong32);
        assert_eq!(c(IntegerBase::Decimal, "4294967296", ul), IntKind::ULongLong);
    }

    #[test]
    fn integer_constant_types() {
        use IntegerBase::*;
        use IntegerSize as S;
        assert_eq!(int(Hexadecimal, "FFFFFFFF", S::Int, false).kind, IntKind::UInt);
        assert_eq!(int(Decimal, "4294967295", S::Int, false).kind, IntKind::Long);
        assert_eq!(int(Decimal, "2147483648", S::Int, false).kind, IntKind::Long);
        assert_eq!(int(Decimal, "2147483647", S::Int, false).kind, IntKind::Int);
        assert_eq!(int(Octal, "17", S::Int, false).bits, 15);
        assert_eq!(int(Decimal, "1", S::Long, true).kind, IntKind::ULong);
        assert_eq!(int(Hexadecimal, "8000000000000000", S::Int, false).kind, IntKind::ULong);
    }

    #[test]
    fn character_constants() {
        assert_eq!(char_constant("'a'").unwrap().bits, 97);
        assert_eq!(char_constant("'\\n'").unwrap().bits, 10);
        assert_eq!(char_constant("'\\xff'").unwrap().bits, 0xFFFF_FFFF);
        assert_eq!(char_constant("'\\0'").unwrap().bits, 0);
        assert!(char_constant("'ab'").is_err());
        assert_eq!(string_bytes(&["\"a\\tb\"".into(), "\"c\"".into()]).unwrap(), b"a\tbc");
    }
}
