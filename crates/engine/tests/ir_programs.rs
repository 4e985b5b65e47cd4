//! Engine tests on hand-written IR (tests/ir/*.ir): exact path counts and
//! replayed outputs, independent of the C front end.

#[path = "support/mod.rs"]
mod common;

use pathwise_engine::suite::InputValue;

fn load(name: &str) -> pathwise_ir::Program {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/ir").join(name);
    let text = std::fs::read_to_string(&path).expect("IR file");
    let program = pathwise_ir::parse_program(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    pathwise_ir::verify(&program).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    program
}

/// The loop runs 0..=k times (n = m exits, n > m continues, bounded at k),
/// and after m >= 1 iterations the total can exceed 10 or not; after 0
/// iterations s = 0: 1 + 2k paths.
#[test]
fn loop_sum_paths_and_minimal_arrays() {
    let program = load("loop_sum.ir");
    for k in 1..=3u32 {
        let suite = common::generate(&program, &common::config("sum", None, k));
        common::check_sound(&suite);
        assert_eq!(suite.tests.len() as u32, 1 + 2 * k, "k = {k}");
        for t in &suite.tests {
            let (InputValue::Array(a), InputValue::Scalar(n)) = (&t.inputs[0], &t.inputs[1]) else { panic!() };
            let m = (*n).max(0) as usize;
            assert_eq!(a.len(), m, "the array holds exactly the elements read");
            let s: i128 = a.iter().sum();
            let s = s as i32 as i128;
            assert_eq!(t.ret, Some((s > 10) as i128));
        }
    }
}

/// Seed 003, chapter 6: with non-null inputs that may alias, the heap
/// solver gives 2 paths (x == z, x != z), not one per aliasing of x, y, z;
/// the values read through aliases are exact (-4 and 2 + 100).
#[test]
fn heap_alias_two_paths() {
    let program = load("heap_alias.ir");
    let suite = common::generate(&program, &common::config("m", Some("nonnull"), 2));
    common::check_sound(&suite);
    let mut rets: Vec<i128> = suite.tests.iter().map(|t| t.ret.expect("returns")).collect();
    rets.sort();
    assert_eq!(rets, vec![-4, 102], "{:#?}", suite.tests);
    for t in &suite.tests {
        let ids: Vec<_> = t
            .inputs
            .iter()
            .map(|v| match v {
                InputValue::Pointer(pathwise_engine::suite::HeapValue::Ref { obj, .. }) => *obj,
                other => panic!("non-null input expected, got {other:?}"),
            })
            .collect();
        assert_eq!(ids[0] == ids[2], t.ret == Some(-4), "x == z exactly in the aliasing test");
    }
    // Without the precondition, each null input is also a null dereference.
    let suite = common::generate(&program, &common::config("m", None, 2));
    common::check_sound(&suite);
    assert_eq!(common::returned(&suite), 2);
    let mut errors = common::errors(&suite);
    errors.sort();
    assert_eq!(errors, vec![("null-dereference", 2), ("null-dereference", 3), ("null-dereference", 4)]);
}
