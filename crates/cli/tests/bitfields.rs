//! Structures with bit-fields as inputs (`tests/c/bitfields.c`): by value,
//! by pointer, nested, and a global's. The generated test file sets and
//! checks each bit-field by name, builds with `gcc -Wall -Wextra -Werror`,
//! and every test passes natively, with gcov agreeing with the prediction.

mod common;

/// (function, tests), derived by hand:
/// - `classify(struct flags f)`: `f.on` false (returns `f.tag`), or true
///   with `f.delta < 0` or not: 3;
/// - `bump(struct flags *f)`: `f->mode == 7`, or not: 2 (`f` is
///   dereferenced without a null test: the contract `assumes non-null: f`,
///   not a test);
/// - `route(struct packet *p)`: `p->len > 100`, `p->f.mode == p->kind`,
///   neither: 3 (and `assumes non-null: p`);
/// - `toggle(int x)`: `x > g_state.mode` or not (the global's bit-fields
///   are its initialiser's: `mode` is 2): 2.
const CASES: &[(&str, usize)] = &[("classify", 3), ("bump", 2), ("route", 3), ("toggle", 2)];

#[test]
fn bit_field_inputs_are_set_and_checked_by_name() {
    for &(function, n) in CASES {
        let out = tempfile::tempdir().unwrap();
        let (_, suite) = common::gen("tests/c/bitfields.c", function, &["--k", "2"], out.path());
        assert_eq!(suite["tests"].as_array().unwrap().len(), n, "{function}: {suite:#}");
        assert_eq!(suite["stop"], "complete", "{function}");
        let nonnull: Vec<String> = common::assumed_nonnull(&suite).into_iter().map(|a| a.0).collect();
        let pointer = match function {
            "bump" => vec!["f"],
            "route" => vec!["p"],
            _ => vec![],
        };
        assert_eq!(nonnull, pointer, "{function}");
        let c = std::fs::read_to_string(out.path().join(format!("{function}_tests.c"))).unwrap();
        // The bytes holding bit-fields are never named (C cannot).
        assert!(!c.contains(pathwise_ir::BIT_STORAGE), "{c}");
        let (status, stdout) = common::build_and_run(out.path(), function, &[]);
        assert_eq!((status, stdout), (0, format!("{n} passed, 0 failed\n")), "{function}");
        common::replay_passes(out.path(), n, vec![common::root().join("tests/c")], true);
        match function {
            "classify" => {
                // A negative `delta` was solved for and is set by name.
                assert!(c.contains("->on = 1U;"), "{c}");
                assert!(c.contains("->delta = -"), "{c}");
            }
            "bump" => {
                assert!(c.contains("->mode = 7U;"), "{c}");
                // The writes are checked field by field.
                assert!(c.contains("\"o1->tag\", (signed char)5, pathwise_o1->tag)"), "{c}");
            }
            "route" => {
                // A 12-bit `len` above 100, set by name (its value is the
                // solver's: bit-fields get no readable-value preference).
                let lens: Vec<u64> =
                    c.split("->len = ").skip(1).filter_map(|rest| rest.split('U').next()?.parse().ok()).collect();
                assert!(lens.iter().any(|&n| (101..4096).contains(&n)), "{c}");
                assert!(c.contains("\"o1->f.ready\", (_Bool)1, pathwise_o1->f.ready)"), "{c}");
                assert!(c.contains("\"o1->id\", 9223372036854775808ULL, pathwise_o1->id)"), "{c}");
            }
            _ => {}
        }
    }
}
