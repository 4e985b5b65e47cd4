//! Rejected input: unsupported constructs (per function) and errors (per
//! file), each with its exact `file:line:col`.

mod common;

use common::*;
use pathwise_cfront::{compile_file, compile_source, FrontendOptions};

/// The diagnostics of the unsupported functions, as `name: diagnostic`.
fn unsupported(src: &str) -> Vec<String> {
    compile(src).unsupported.iter().map(|u| format!("{}: {}", u.name, u.diagnostic)).collect()
}

#[test]
fn extended_float_variable_makes_its_function_unsupported() {
    let c = compile("int ok(int x) { return x; }\nint f(int x) {\n  _Float128 y = x;\n  return 0;\n}\n");
    assert_eq!(c.unsupported.len(), 1);
    assert_eq!(c.unsupported[0].name, "f");
    assert_eq!(
        c.unsupported[0].diagnostic.to_string(),
        "test.c:3:3: error: unsupported: extended floating types (`_FloatN`, `__float128`)"
    );
    // f stays as a declaration; ok is lowered.
    assert!(func(&c.program, "f").is_declaration());
    assert!(!func(&c.program, "ok").is_declaration());
}

#[test]
fn long_double_constants_that_are_no_doubles_are_computed_from_doubles() {
    // `0.1L` is no double: it lowers to `hi + lo` in `f80` (both doubles);
    // `1.5L` is a constant; `1e4000L`, beyond a double's range, is scaled
    // by powers of two; a static `long double` keeps its 80 bits.
    let src = "long double f(int x) { return x + 0.1L; }\nlong double g(int x) { return x * 1.5L; }\n\
               long double h(void) { return 1e4000L; }\nstatic long double t = 0.1L;\n";
    assert_eq!(unsupported(src), Vec::<String>::new());
    let c = compile(src);
    verify_program(&c.program);
    let f80_ops = |name: &str| {
        let text = pathwise_ir::printer::print_function(&c.program, c.program.func_by_name(name).expect(name));
        text.lines().filter(|l| l.contains("f80") && (l.contains("fadd") || l.contains("fmul"))).count()
    };
    assert_eq!((f80_ops("f"), f80_ops("g"), f80_ops("h")), (2, 1, 14));
    let t = c.program.globals.iter().find(|g| g.src.as_ref().is_some_and(|s| s.name == "t")).expect("t");
    let bytes: [u8; 10] = std::array::from_fn(|i| t.init.get(i).map_or(0, |&b| b as u8));
    let tenth = pathwise_ir::x87::X87::from_le_bytes(bytes);
    assert_eq!(tenth.hex_literal().as_deref(), Some("0xc.ccccccccccccccdp-7L"));
}

#[test]
fn unsupported_bit_fields_are_reported_at_the_definition_and_where_used() {
    // 33 to 63 bits: gcc computes with such a field in its own width.
    let c = compile(
        "struct s { unsigned long long a : 40; };\nint g(int x) { return x; }\nint h(struct s *p) {\n  return p->a;\n}\n",
    );
    let why = "unsupported: bit-fields of 33 to 63 bits (gcc computes with them in their own width)";
    assert_eq!(c.unsupported_globals.len(), 1);
    assert_eq!(c.unsupported_globals[0].name, "struct s");
    assert_eq!(c.unsupported_globals[0].diagnostic.to_string(), format!("test.c:1:35: error: {why}"));
    assert_eq!(c.unsupported.len(), 1);
    let d = &c.unsupported[0].diagnostic;
    assert_eq!((c.unsupported[0].name.as_str(), d.line, d.col), ("h", 4, 10), "{d}");
    assert!(d.message.contains(&format!("`struct s` has an unsupported declaration (test.c:1:35: {why})")), "{d}");
    assert!(c.program.func_by_name("g").is_some());
}

#[test]
fn structures_by_value_lower_and_function_pointer_members_are_located() {
    // Structures (and unions) pass and return by value.
    let c = compile("struct p { int x, y; };\nint f(int a,\n      struct p q) { return q.x; }\n");
    assert!(c.unsupported.is_empty() && c.program.func_by_name("f").is_some());
    let c = compile("struct p { int x, y; };\nstruct p mk(int a) { struct p r = { a, a }; return r; }\n");
    assert!(c.unsupported.is_empty() && c.program.func_by_name("mk").is_some());
    let c = compile("union u { int a; };\nint f(union u p) { return p.a; }");
    assert!(c.unsupported.is_empty() && c.program.func_by_name("f").is_some());
    // An incomplete one cannot be.
    assert_eq!(
        unsupported(
            "struct q;\nint f(struct q v);\nint g(int a) { return a; }\nint h(struct q *p) { return f(*p); }\n"
        )
        .len(),
        1
    );
    // Function pointer members are supported.
    let c = compile("struct ops { int (*f)(int);\n  int n; };\nint g(struct ops *o) { return o->n + o->f(1); }\n");
    assert!(c.unsupported_globals.is_empty() && c.unsupported.is_empty());
    // A flexible array member is supported at the end only.
    assert!(unsupported("struct v { int n; int data[]; };\nint f(struct v *p) { return p->data[p->n]; }\n").is_empty());
    let c = compile("struct v { int data[]; int n; };\nint g(void) { return 1; }\n");
    assert_eq!(c.unsupported_globals.len(), 1);
    assert_eq!(
        c.unsupported_globals[0].diagnostic.to_string(),
        "test.c:1:16: error: flexible array member not at the end of a structure"
    );
}

#[test]
fn calls_returning_struct_pointers_lower() {
    let c = compile("struct s;\nstruct s *mk(void);\nint f(void) {\n  return mk() != 0;\n}\n");
    assert!(c.unsupported.is_empty(), "{:?}", c.unsupported);
    let mk = func(&c.program, "mk");
    assert_eq!(mk.ret_src.as_ref().map(|s| s.shape), Some(pathwise_ir::Shape::Heap));
    // The opaque structure is described without fields.
    assert_eq!(c.program.structs.len(), 1);
    assert_eq!((c.program.structs[0].c_name.as_str(), c.program.structs[0].size), ("struct s", 0));
    verify_program(&c.program);
}

/// A variadic function without a body (the library's `printf`) gets its
/// extra arguments after the default promotions.
#[test]
fn variadic_calls_promote_their_extra_arguments() {
    let c =
        compile("#include <stdio.h>\nint f(char c, float x, short *p) {\n  return printf(\"%c %f %p\", c, x, p);\n}\n");
    assert!(c.unsupported.is_empty(), "{:?}", c.unsupported);
    let f = func(&c.program, "f");
    let call = f.blocks.iter().flat_map(|b| &b.insts).find_map(|i| match &i.kind {
        pathwise_ir::InstKind::Call { args, .. } => Some(args.clone()),
        _ => None,
    });
    let args = call.expect("a call");
    assert_eq!(args.len(), 4);
    let types = pathwise_ir::reg_types(f);
    let ty = |o: &pathwise_ir::Operand| match o {
        pathwise_ir::Operand::Reg(r) => types[r.index()],
        pathwise_ir::Operand::Const(t, _) => Some(*t),
    };
    let got: Vec<_> = args[1..].iter().map(ty).collect();
    use pathwise_ir::Type;
    assert_eq!(got, vec![Some(Type::I32), Some(Type::F64), Some(Type::Ptr)]);
    verify_program(&c.program);
}

#[test]
fn unsupported_globals_are_fatal_only_for_their_users() {
    let c = compile("_Float128 d = 1.0;\nint f(void) { return 1; }\nint g(void) {\n  return d > 0;\n}\n");
    assert_eq!(c.unsupported_globals.len(), 1);
    assert_eq!(c.unsupported_globals[0].name, "d");
    assert_eq!(c.unsupported.len(), 1);
    let d = &c.unsupported[0].diagnostic;
    assert_eq!((d.line, d.col), (4, 10));
    assert!(d.message.contains("`d` has an unsupported declaration (test.c:1:1:"), "{}", d.message);
}

#[test]
fn other_unsupported_constructs_have_locations() {
    let cases: &[(&str, &str)] = &[
        (
            "int f(int x) { return x; }\nint g(void) { int (*fp)(int) = f; return (fp + 1)(1); }",
            "test.c:2:42: error: unsupported: arithmetic on a pointer to a function",
        ),
        (
            "int f(int n, int (**p)[n]) { return p[0][0][0]; }",
            "test.c:1:21: error: unsupported: this parameter of variably modified type",
        ),
        ("int f(void) { __asm__(\"nop\"); return 0; }", "test.c:1:15: error: unsupported: inline assembly"),
        ("int f(void) { return L\"ab\"[0]; }", "test.c:1:22: error: unsupported: wide string literals (`L\"...\"`)"),
        (
            "#include <stdio.h>\nstruct p { int a; };\nint f(struct p v) {\n  printf(\"%d\", v);\n  return 0;\n}",
            "test.c:4:16: error: unsupported: `struct p` arguments of variadic functions",
        ),
        ("int f(x) int x; { return x; }", "test.c:1:6: error: unsupported: K&R-style function definitions"),
        (
            "struct s { int a; };\nint f(int n, ...) { __builtin_va_list ap; __builtin_va_start(ap, n); struct s v = __builtin_va_arg(ap, struct s); return v.a; }",
            "test.c:2:83: error: unsupported: `va_arg` of a `struct s`",
        ),
        ("int f(int *p) { return (long)p; }", "test.c:1:24: error: unsupported: conversions from pointers to integers"),
        (
            "int g(void);\nint f(void) { char *c = (char *)g; return *c; }",
            "test.c:2:25: error: unsupported: conversion between pointer types `int (*)(void)` and `char *`",
        ),
    ];
    for (src, want) in cases {
        let got = unsupported(src);
        assert_eq!(got.len(), 1, "{src}: {got:?}");
        let diag = got[0].split_once(": ").unwrap().1;
        assert_eq!(diag, *want, "{src}");
    }
}

#[test]
fn syntax_error_is_located() {
    let e = compile_err("int f(int x) {\n  return x +;\n}\n");
    assert!(e.starts_with("test.c:2:13: error: syntax error: unexpected `;`"), "{e}");
}

#[test]
fn syntax_error_in_a_header_names_the_header() {
    let dir = std::env::temp_dir().join(format!("cfront-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("bad.h"), "int a;\nint b c;\n").unwrap();
    let opts = FrontendOptions { include_dirs: vec![dir.clone()], ..Default::default() };
    let e = compile_source("test.c", "#include \"bad.h\"\nint f(void) { return 0; }\n", &opts).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(e.0.len(), 1);
    assert!(e.0[0].file.ends_with("bad.h"));
    assert_eq!((e.0[0].line, e.0[0].col), (2, 7));
}

#[test]
fn undeclared_function_is_an_error() {
    let e = compile_err("int f(int x) {\n  return g(x);\n}\n");
    assert_eq!(e, "test.c:2:10: error: call to undeclared function `g` (C99 has no implicit declarations)");
}

#[test]
fn errors_are_collected_across_functions() {
    let e = compile_err("int f(void) { return nope; }\nint g(void) { return h(); }\nint k(void) { return 1; }\n");
    let lines: Vec<&str> = e.lines().collect();
    assert_eq!(
        lines,
        vec![
            "test.c:1:22: error: use of undeclared identifier `nope`",
            "test.c:2:22: error: call to undeclared function `h` (C99 has no implicit declarations)",
        ]
    );
}

#[test]
fn invalid_code_is_an_error() {
    assert_eq!(compile_err("int f(void) { 3 = 4; return 0; }"), "test.c:1:15: error: expression is not assignable");
    assert_eq!(compile_err("int f(void) { break; }"), "test.c:1:15: error: `break` outside of a loop or switch");
    assert_eq!(
        compile_err("int f(void) { goto nowhere; }"),
        "test.c:1:20: error: label `nowhere` used but not defined"
    );
    assert_eq!(compile_err("int f(int x) { return f(); }"), "test.c:1:23: error: `f` expects 1 argument(s), 0 given");
}

#[test]
fn preprocessor_errors_are_located() {
    let e = compile_err("int a;\n#include \"does_not_exist.h\"\n");
    assert!(e.starts_with("test.c:2:10: error: does_not_exist.h: No such file"), "{e}");
    let e = compile_err("#error stop here\n");
    assert_eq!(e, "test.c:1:2: error: #error stop here");
}

#[test]
fn missing_file_is_a_diagnostic() {
    let e = compile_file(std::path::Path::new("/nonexistent/dir/x.c"), &FrontendOptions::default()).unwrap_err();
    assert_eq!(e.0.len(), 1);
    assert!(e.to_string().starts_with("/nonexistent/dir/x.c:0:0: error: cannot open source file"), "{e}");
}

#[test]
fn compile_file_names_the_main_file_as_given() {
    let dir = std::env::temp_dir().join(format!("cfront-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a \"b\".c");
    std::fs::write(&path, "int f(int x) { return x; }\nint g(void) { return u; }\n").unwrap();
    let e = compile_file(&path, &FrontendOptions::default()).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(e.0[0].file, path.to_string_lossy());
    assert_eq!((e.0[0].line, e.0[0].col), (2, 22));
}

#[test]
fn hostile_inputs_never_panic() {
    let inputs = [
        "",
        "int",
        "}",
        "int f(void) { return ((((((((((((((((((((1)))))))))))))))))))); }",
        "int f(void) { int a[0x7fffffff]; return 0; }",
        "int a[-1];",
        "int f(int x) { switch (x) { case x: return 1; } return 0; }",
        "int f(void) { return 1 / 0; }",
        "int f(void) { return 1 << 40; }",
        "int x = 1 / 0;",
        "int f(void) { return 'ab'; }",
        "int f(void) { return 99999999999999999999; }",
        "typedef int T; int f(T t) { return sizeof(T) + t; }",
        "int f(void) { return sizeof(struct nope *); }",
        "int f(void) { int x; return *x; }",
        "int f(void *p) { return *p; }",
        "int f(void) { return f; }",
        "void f(void) { return 1; }",
        "int f(void) { L: L: return 0; }",
        "int f(void) { case 1: return 0; }",
        "enum e { A = 1.5 };",
        "int f(int x) { return x ? (void)0 : 1; }",
    ];
    for src in inputs {
        // Any outcome but a panic is fine; Ok results must verify.
        if let Ok(c) = compile_source("h.c", src, &FrontendOptions::default()) {
            verify_program(&c.program);
        }
    }
    let deep = format!("int f(int x) {{ return {}x{}; }}", "(".repeat(2000), ")".repeat(2000));
    let _ = compile_source("deep.c", &deep, &FrontendOptions::default());
}

#[test]
fn unsupported_type_definitions_in_user_files_are_listed() {
    let c = compile(
        "#include <stdio.h>\ntypedef struct node { int v; } node_t;\ntypedef _Float128 real;\nint f(int x) { return x; }\n",
    );
    let names: Vec<&str> = c.unsupported_globals.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(names, vec!["real"]);
    assert_eq!(
        c.unsupported_globals[0].diagnostic.to_string(),
        "test.c:3:9: error: unsupported: extended floating types (`_FloatN`, `__float128`)"
    );
    // Nothing from stdio.h (FILE, fpos_t, ...) is reported.
    assert!(c.unsupported.is_empty());
}
