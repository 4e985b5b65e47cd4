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
