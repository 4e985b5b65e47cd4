//! `perror`, `fwrite`, `strerror`, `rand` and `srand` as glibc computes
//! them (`tests/c/trust4/libc_misc.c`): before, a function calling one
//! was refused ("no body and no built-in model"). Each suite runs
//! natively against the real library.

mod common;

const FILE: &str = "tests/c/trust4/libc_misc.c";

fn returns_natively(function: &str) -> Vec<i64> {
    let suite = common::generate_and_replay(FILE, function, &[], true);
    common::returns(&suite)
}

#[test]
fn perror_and_fwrite_are_output() {
    assert_eq!(returns_natively("check"), [-1, 0]);
    // The empty record, then one of one and of two characters (fwrite's
    // count; strlen's loop at k = 2).
    assert_eq!(returns_natively("save"), [0, 1, 2]);
}

#[test]
fn strerror_gives_glibcs_messages() {
    // "Permission denied" (EACCES), "No such file or directory" (ENOENT).
    assert_eq!(returns_natively("first_letter"), [i64::from(b'N'), i64::from(b'P')]);
}

#[test]
fn rand_draws_glibcs_numbers() {
    // glibc's srand(3) draws 1 then 2 (mod 6, plus 1), srand(7) 4 twice.
    assert_eq!(returns_natively("dice"), [3, 104]);
}

#[test]
fn ll_and_q_are_long_double_for_printf() {
    // "-1.25|-1.25|-1.25000000000000000000e+00" and
    // "1.0000000000000000009|1.0000000000000000009|1.00000000000000000087e+00"
    // (the suite runs natively): read as a `double`, 1 + 2^-60 is 1 and
    // the first field "1" (50 characters).
    let mut lengths = returns_natively("long_double_text");
    lengths.sort_unstable();
    assert_eq!(lengths, [39, 70]);
}
