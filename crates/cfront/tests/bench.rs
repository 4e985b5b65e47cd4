//! The project's benchmark programs compile, keep the expected decisions and
//! behave as C. They are read from `tests/bench/` of the workspace if
//! present, else from `../shared/bench/`; the tests are skipped (with a note)
//! when neither exists.

mod common;

use common::interp::Interp;
use common::*;
use pathwise_cfront::{compile_file, Compiled, FrontendOptions};
use std::path::PathBuf;

fn bench(name: &str) -> Option<Compiled> {
    let dirs = [
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/bench"),
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/bench"),
    ];
    let Some(path) = dirs.iter().map(|d| PathBuf::from(d).join(name)).find(|p| p.exists()) else {
        eprintln!("note: benchmark {name} not found; skipping");
        return None;
    };
    let c = compile_file(&path, &FrontendOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(c.program.files[0], path.to_string_lossy());
    verify_program(&c.program);
    Some(c)
}

fn defined(c: &Compiled) -> Vec<&str> {
    c.program.funcs.iter().filter(|f| !f.is_declaration()).map(|f| f.name.as_str()).collect()
}

#[test]
fn merge() {
    let Some(c) = bench("merge.c") else { return };
    assert!(c.unsupported.is_empty());
    let p = &c.program;
    assert_eq!(defined(&c), vec!["Merge", "merge_pre"]);
    assert_eq!(branches(func(p, "Merge")), 5);
    assert_eq!(branches(func(p, "merge_pre")), 14);
    let mut it = Interp::new(p);
    let (a, b, out) = (it.int_array(&[-5, 0, 7, 7]), it.int_array(&[-6, 7, 100]), it.int_array(&[0; 7]));
    it.call_by_name("Merge", &[a, b, out, 4, 3]);
    assert_eq!(it.read_ints(out, 7), vec![-6, -5, 0, 7, 7, 7, 100]);
    assert_eq!(it.call_by_name("merge_pre", &[a, b, out, 4, 3]), Some(1));
    let unsorted = it.int_array(&[3, 1]);
    assert_eq!(it.call_by_name("merge_pre", &[unsorted, b, out, 2, 3]), Some(0));
}

#[test]
fn summaries() {
    let Some(c) = bench("summaries.c") else { return };
    let p = &c.program;
    assert_eq!(defined(&c), vec!["classify", "sum6"]);
    assert_eq!(branches(func(p, "classify")), 2);
    assert_eq!(branches(func(p, "sum6")), 1);
    let calls = insts(func(p, "sum6")).filter(|i| matches!(i.kind, pathwise_ir::InstKind::Call { .. })).count();
    assert_eq!(calls, 6);
    let mut it = Interp::new(p);
    assert_eq!(it.call_by_name("sum6", &[200, 200, 200, 1, 0, (-4i32) as u32 as u64]), Some(1));
    assert_eq!(it.call_by_name("sum6", &[200, 50, 0, 0, 101, 5]), Some(0));
}

#[test]
fn foo_bar() {
    let Some(c) = bench("foo_bar.c") else { return };
    let p = &c.program;
    assert_eq!(defined(&c), vec!["foo", "bar"]);
    assert_eq!((branches(func(p, "foo")), branches(func(p, "bar"))), (1, 0));
    assert_eq!(Interp::new(p).call_by_name("bar", &[41]), Some(42));
}

#[test]
fn recursive_lowers_the_array_and_the_heap_functions() {
    let Some(c) = bench("recursive.c") else { return };
    let p = &c.program;
    assert_eq!(
        defined(&c),
        vec![
            "sorted_insert",
            "binary_search",
            "dutch_flag",
            "rank",
            "make_node",
            "heap_union",
            "partition",
            "quicksort"
        ]
    );
    assert!(c.unsupported.is_empty(), "{:?}", c.unsupported);
    assert!(c.unsupported_globals.is_empty(), "{:?}", c.unsupported_globals);
    assert!(p.func_by_name("malloc").is_some(), "make_node calls malloc");
    assert_eq!(pathwise_ir::verify(p), Ok(()));
    assert_eq!(&pathwise_ir::parse_program(&p.to_string()).unwrap(), p);
    // The heap functions take `struct lheap *`: input heaps with the layout.
    let rank = func(p, "rank");
    assert_eq!(rank.params[0].src.shape, pathwise_ir::Shape::Heap);
    assert!(p.structs.iter().any(|s| s.c_name == "struct lheap"), "{:?}", p.structs);
    assert_eq!(branches(func(p, "sorted_insert")), 2);
    assert_eq!(branches(func(p, "binary_search")), 3);
    assert_eq!(branches(func(p, "dutch_flag")), 3);

    let mut it = Interp::new(p);
    let a = it.int_array(&[1, 3, 5, 8, 13, 0]);
    assert_eq!(it.call_by_name("sorted_insert", &[a, 5, 4]), Some(6));
    assert_eq!(it.read_ints(a, 6), vec![1, 3, 4, 5, 8, 13]);
    assert_eq!(it.call_by_name("binary_search", &[a, 6, 8]), Some(4));
    assert_eq!(it.call_by_name("binary_search", &[a, 6, 2]), Some(u32::MAX as u64));
    let flag = it.int_array(&[2, 0, 1, 2, 0, 1, 1]);
    it.call_by_name("dutch_flag", &[flag, 7]);
    assert_eq!(it.read_ints(flag, 7), vec![0, 0, 1, 1, 1, 2, 2]);
    let q = it.int_array(&[9, -1, 4, 4, 0]);
    it.call_by_name("quicksort", &[q, 0, 4]);
    assert_eq!(it.read_ints(q, 5), vec![-1, 0, 4, 4, 9]);
}

#[test]
fn other_benchmarks_compile() {
    if let Some(c) = bench("locate.c") {
        assert_eq!(defined(&c), vec!["locate", "top"]);
        let mut it = Interp::new(&c.program);
        let s = it.alloc(4);
        for (i, b) in b"ab:\0".iter().enumerate() {
            it.write(s + i as u64, pathwise_ir::Type::I8, u64::from(*b));
        }
        assert_eq!(it.call_by_name("locate", &[s, u64::from(b':')]), Some(2));
    }
    if let Some(c) = bench("lcm.c") {
        assert_eq!(defined(&c), vec!["abs_int", "gcd", "lcm"]);
        assert_eq!(Interp::new(&c.program).call_by_name("lcm", &[4, 6]), Some(12));
    }
    if let Some(c) = bench("rational.c") {
        assert_eq!(defined(&c), vec!["abs_int", "gcd", "simplify", "arraycopy", "simp"]);
        assert!(c.unsupported.is_empty(), "{:?}", c.unsupported);
        assert_eq!(pathwise_ir::verify(&c.program), Ok(()));
    }
}
