//! Strings in input structures compared with string parameters
//! (`tests/c/trust4/field_strings.c`). The solver's model of a prefix
//! covers the slice of the query its negated condition depends on; its
//! array for the parameter then lacked the characters the rest of the
//! prefix fixed (`key[0] == e->name[0]` when the flip asks `key[1] !=
//! e->name[1]`), and the inputs merged from it took the array whole
//! whenever a condition over the heap object's element count (decided by
//! the run, zero in the model) failed either way: the run diverged and
//! the path had no test. `same_start` had 4 tests and `lookup` 4, each
//! search "not complete".

mod common;

fn check(function: &str, k: &str, tests: usize) {
    let out = tempfile::tempdir().unwrap();
    let (suite, outcome) = common::gen_checked("tests/c/trust4/field_strings.c", function, k, out.path());
    assert_eq!(common::branches_covered(&outcome, function), Some(true), "{function}: {:?}", outcome.rows);
    assert_eq!(suite["stats"]["divergences"], 0, "{function}");
    assert_eq!(suite["stop"], "complete", "{function}");
    assert_eq!(common::test_count(&suite), tests, "{function}");
}

#[test]
fn each_character_comparison_gets_both_sides() {
    // NULL name; first characters differ; first equal, second differ;
    // both equal; an empty key read past its NUL (an error test).
    check("same_start", "2", 5);
}

#[test]
fn strcmp_with_a_fields_string_is_explored_whole() {
    check("lookup", "2", 6);
}
