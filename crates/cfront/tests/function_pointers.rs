//! Function pointers: designators decaying to pointers, `&f`, `*fp`, calls
//! through pointers (locals, parameters, structure members, tables,
//! typedefs), comparisons, and tables of handlers in static initializers,
//! against gcc.

mod common;

use common::*;
use pathwise_ir::{InstKind, RelocTarget, Shape};

const CASES: &str = r#"
typedef int (*binop)(int, int);
typedef int unop_t(int);
static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int neg(int x) { return -x; }
static int twice(int x) { return 2 * x; }
struct op { const char *name; binop fn; };
static const struct op ops[] = { {"add", add}, {"sub", &sub} };
static unop_t *unops[] = { neg, twice, 0 };
binop current = add;
struct vtable { int (*get)(const struct vtable *); int v; };
static int get_v(const struct vtable *t) { return t->v; }
static int apply(int (*f)(int), int x) { return f(x); }
static int apply_arr(int f(int), int x) { return (*f)(x); }
static long lsum(long a, char b) { return a + b; }
static void bump(int *p) { (*p)++; }
static int fact(int n, int (*self)(int, int (*)()));
static int fact_rec(int n, int (*self)()) { return n <= 1 ? 1 : n * self(n - 1, self); }
long t0(void) { binop f = add; int (*g)(int, int) = &sub; return f(7, 2) * 100 + (*g)(7, 2) * 10 + (**g)(3, 3); }
long t1(void) { long s = 0; for (int i = 0; i < 2; i++) s = s * 100 + ops[i].fn(10, 3) + ops[i].name[0] % 10; return s; }
long t2(void) { long s = 0; for (int i = 0; unops[i]; i++) s = s * 100 + unops[i](5) + 50; return s; }
long t3(void) { long r = current(1, 2); current = sub; return r * 10 + current(1, 2); }
long t4(void) { struct vtable t = { get_v, 42 }; return t.get(&t); }
long t5(void) { return apply(neg, 3) * 10 + apply_arr(twice, 4); }
long t6(void) { binop f = add; binop g = sub; return (f == add) * 1000 + (f != g) * 100 + (g == 0) * 10 + (f == current); }
long t7(void) { long (*h)(long, char) = lsum; return h(300000000000L, (char)-3); }
long t8(void) { int x = 4; void (*b)(int *) = bump; b(&x); b(&x); return x; }
long t9(void) { return fact_rec(5, (int (*)())fact_rec); }
"#;

#[test]
fn function_pointers_compute_what_gcc_computes() {
    let p = assert_cases_match_gcc(CASES, 10);
    // The handler tables are relocations to functions.
    let ops = &p.globals[p.global_by_name("ops").unwrap().0 as usize];
    let targets: Vec<RelocTarget> = ops.relocs.iter().map(|r| r.target).collect();
    let f = |n: &str| RelocTarget::Func(p.func_by_name(n).unwrap());
    assert!(targets.contains(&f("add")) && targets.contains(&f("sub")), "{targets:?}");
    // `apply`'s callee is a parameter of shape `function`.
    let apply = p.func(p.func_by_name("apply").unwrap());
    assert_eq!(apply.params[0].src.shape, Shape::Function);
    assert_eq!(apply.params[0].src.c_scalar, "int (*)(int)");
    let calls = apply.blocks.iter().flat_map(|b| &b.insts).filter(|i| matches!(i.kind, InstKind::CallPtr { .. }));
    assert_eq!(calls.count(), 1);
}

#[test]
fn what_function_pointers_cannot_do_is_reported() {
    let c = compile("int f(int);\nint g(int (*p)(int)) { return (p + 1)(2); }\n");
    let d = c.unsupported.iter().map(|u| u.diagnostic.to_string()).collect::<Vec<_>>();
    assert_eq!(d, vec!["test.c:2:31: error: unsupported: arithmetic on a pointer to a function"], "{d:?}");
    let e = compile_err("int g(int x) { return x(2); }\n");
    assert!(e.contains("test.c:1:23: error: called object of type `int` is not a function or function pointer"), "{e}");
    let c = compile("int g(int (*p)(int, ...)) { return p(1, 2); }\n");
    let d = c.unsupported.iter().map(|u| u.diagnostic.to_string()).collect::<Vec<_>>();
    assert_eq!(d, vec!["test.c:1:36: error: unsupported: calls through pointers to variadic functions"]);
}

/// Declarations only referenced by their address (in code or in a
/// global's initializer) are kept, and every reference follows the
/// renumbering of the functions that are not.
#[test]
fn addresses_of_declarations_survive_renumbering() {
    let c = compile(
        "int unused1(int);\nint ext(int);\nint unused2(int);\nint ext2(int);\n\
         int (*p)(int) = ext;\nint g(int x) { if (0) unused1(x); int (*q)(int) = ext2; return (q == p) + x + ext(1); }\n",
    );
    let p = &c.program;
    let names: Vec<&str> = p.funcs.iter().map(|f| f.name.as_str()).collect();
    assert!(!names.contains(&"unused1") && !names.contains(&"unused2"), "{names:?}");
    let g = &p.globals[p.global_by_name("p").unwrap().0 as usize];
    assert_eq!(g.relocs[0].target, RelocTarget::Func(p.func_by_name("ext").unwrap()));
    let f = p.func(p.func_by_name("g").unwrap());
    let taken: Vec<_> = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter_map(|i| match i.kind {
            InstKind::AddrFunc { func } => Some(p.func(func).name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(taken, vec!["ext2"]);
}
