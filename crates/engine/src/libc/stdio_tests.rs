//! The `printf` model's floating conversions against the host C library's
//! (glibc's) `snprintf`, on values that exercise rounding (ties, long
//! carries), every magnitude (subnormals to `DBL_MAX`), zeros, infinities
//! and NaNs, with every flag the model reads.

use std::ffi::CString;

use super::{float_text, Spec};

/// glibc's text of `x` under `spec`.
fn glibc(x: f64, spec: &Spec) -> Vec<u8> {
    let mut fmt = String::from("%");
    for (on, c) in [(spec.minus, '-'), (spec.plus, '+'), (spec.space, ' '), (spec.hash, '#'), (spec.zero, '0')] {
        if on {
            fmt.push(c);
        }
    }
    if spec.width > 0 {
        fmt.push_str(&spec.width.to_string());
    }
    if let Some(p) = spec.prec {
        fmt.push_str(&format!(".{p}"));
    }
    fmt.push(spec.conv as char);
    let fmt = CString::new(fmt).unwrap();
    let mut buf = vec![0u8; 512];
    // SAFETY: the buffer's length is given, the format takes one double.
    let n = unsafe { libc::snprintf(buf.as_mut_ptr().cast(), buf.len(), fmt.as_ptr(), x) };
    buf.truncate(n as usize);
    buf
}

fn spec(conv: u8, prec: Option<u64>, flags: u8, width: u64) -> Spec {
    Spec {
        minus: false,
        plus: flags & 1 != 0,
        space: flags & 2 != 0,
        hash: flags & 4 != 0,
        zero: flags & 8 != 0,
        width: if flags & (8 | 16) != 0 { width } else { 0 },
        prec,
        bits: 64,
        long_double: false,
        conv,
    }
}

/// The model's text: `float_text` pads with zeros, the caller (`conversion`)
/// with spaces to the width.
fn padded(x: f64, s: &Spec) -> Vec<u8> {
    let text = float_text(x, s, pathwise_expr::float::Rounding::NearestEven);
    let pad = (s.width as usize).saturating_sub(text.len());
    std::iter::repeat_n(b' ', pad).chain(text).collect()
}

/// Values worth printing: special ones, decimal ties, and a deterministic
/// spread of bit patterns over every exponent.
fn values() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        0.5,
        1.5,
        2.5,
        0.125,
        0.375,
        9.5,
        99.5,
        999999.5,
        // Ties whose rounding carries into a new digit (glibc's `%#g`).
        9.95,
        99.95,
        0.0995,
        999.5,
        9999.5,
        99999.5,
        0.0001,
        0.00001,
        123456.0,
        1234567.0,
        1e15,
        1e16,
        1e17,
        1e21,
        0.1,
        0.7,
        1.0 / 3.0,
        2.0 / 3.0,
        9.999999,
        9.9999995,
        0.000099999,
        -7.25,
        4503599627370495.5,
    ];
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..400 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.push(f64::from_bits(x));
        // Moderate magnitudes too, where %f prints every digit.
        v.push(f64::from_bits((x & 0x800f_ffff_ffff_ffff) | ((0x3c0 + (x >> 52) % 0x80) << 52)));
    }
    v
}

#[test]
fn float_conversions_print_what_glibc_prints() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for x in values() {
        for conv in [b'f', b'F', b'e', b'E', b'g', b'G'] {
            for prec in [None, Some(0), Some(1), Some(3), Some(10), Some(17)] {
                for flags in [0u8, 1, 2, 4, 8, 16, 1 | 4 | 8] {
                    // %f of huge values is hundreds of digits: enough at a few precisions.
                    if conv.eq_ignore_ascii_case(&b'f') && x.abs() > 1e40 && prec != Some(3) {
                        continue;
                    }
                    let s = spec(conv, prec, flags, 24);
                    let (ours, theirs) = (padded(x, &s), glibc(x, &s));
                    checked += 1;
                    if ours != theirs && wrong.len() < 20 {
                        wrong.push(format!(
                            "{x:e} ({:#x}) %{}{}: ours {:?}, glibc {:?}",
                            x.to_bits(),
                            prec.map(|p| format!(".{p}")).unwrap_or_default(),
                            conv as char,
                            String::from_utf8_lossy(&ours),
                            String::from_utf8_lossy(&theirs)
                        ));
                    }
                }
            }
        }
    }
    assert!(checked > 80_000, "{checked}");
    assert!(wrong.is_empty(), "{} of {checked} differ, e.g.:\n{}", wrong.len(), wrong.join("\n"));
}

/// `%a` and `%A` of doubles, exactly as glibc writes them (without a
/// precision, which is not modelled), every flag; `%La` as glibc printed
/// these `long double`s on this machine.
#[test]
fn hexadecimal_conversions_print_what_glibc_prints() {
    use pathwise_ir::x87::X87;
    let mut wrong = Vec::new();
    for x in values() {
        for conv in [b'a', b'A'] {
            for flags in [0u8, 1, 2, 4, 8, 16, 1 | 4 | 8] {
                let s = spec(conv, None, flags, 24);
                let text = super::hex_text(X87::from_f64(x), &s);
                let pad = (s.width as usize).saturating_sub(text.len());
                let ours: Vec<u8> = std::iter::repeat_n(b' ', pad).chain(text).collect();
                let theirs = glibc(x, &s);
                if ours != theirs && wrong.len() < 20 {
                    wrong.push(format!(
                        "{x:e} %{}: ours {:?}, glibc {:?}",
                        conv as char,
                        String::from_utf8_lossy(&ours),
                        String::from_utf8_lossy(&theirs)
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    let ld = |x: X87, conv: u8, flags: u8| {
        let s = Spec { long_double: true, ..spec(conv, None, flags, 0) };
        String::from_utf8(super::hex_text(x, &s)).unwrap()
    };
    let third = X87::arith(pathwise_ir::FBinOp::FDiv, X87::from_f64(1.0), X87::from_f64(3.0));
    assert_eq!(ld(third, b'a', 0), "0xa.aaaaaaaaaaaaaabp-5");
    assert_eq!(ld(X87::from_f64(0.0), b'a', 0), "0x0p+0");
    assert_eq!(ld(X87::from_f64(-1.0), b'a', 0), "-0x8p-3");
    assert_eq!(ld(X87::parse("0.1").unwrap(), b'A', 0), "0XC.CCCCCCCCCCCCCCDP-7");
    assert_eq!(ld(X87::from_f64(1.0), b'a', 4), "0x8.p-3");
    assert_eq!(ld(X87::parse("1e-4940").unwrap(), b'a', 0), "0x0.000000663278e62p-16385");
}
