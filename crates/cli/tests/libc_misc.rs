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
