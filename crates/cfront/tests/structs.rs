//! Structures and unions: layouts against gcc (LP64, and `-m32` when it
//! works), member access and copies in the IR, and their meaning against
//! gcc-compiled code.

mod common;

use common::*;
use pathwise_cfront::{compile_source, DataModel, FrontendOptions};
use pathwise_ir::{CType, Program, StructDef};

const DECLS: &str = "#include <stddef.h>\n\
struct a { char c; int i; };\n\
struct b { char c; long long ll; short s; };\n\
struct c { short s; char c[3]; };\n\
struct d { char c; struct a in; char e; };\n\
struct e { int x; char name[5]; long long arr[2]; };\n\
union f { char c; int i; long long ll; short s[3]; };\n\
struct g { char c; union f u; char d; };\n\
struct h { char c; int *p; short s; struct h **pp; };\n\
struct i { struct a arr[3]; char tail; };\n\
struct j { _Bool b; unsigned char uc; unsigned short us; long l; char z; };\n\
struct k { char a; struct { char b; int c; } nested; };\n\
struct l { char c; union { int x; char y; }; long long z; };\n\
typedef struct { short a; char b; } m_t;\n\
union n { struct a sa; char bytes[7]; };\n\
struct o { char c; double d; float f; };\n\
union p { float f; double d; char c[3]; };\n\
struct __attribute__((packed)) q { char c; int i; short s; };\n\
struct r { char c; long long ll; } __attribute__((packed));\n\
typedef struct __attribute__((__packed__)) { char c; struct a in; } s_t;\n\
struct __attribute__((aligned(16))) t { char c; };\n\
struct u { char c; struct q q; int i; };\n\
struct v { int n; char data[]; };\n\
struct w { char c; long long d[]; };\n";

const USES: &str = "void use(struct a *a, struct b *b, struct c *c, struct d *d, struct e *e, union f *f,\n\
  struct g *g, struct h *h, struct i *i, struct j *j, struct k *k, struct l *l, m_t *m, union n *n,\n\
  struct o *o, union p *p, struct q *q, struct r *r, s_t *s, struct t *t, struct u *u,\n\
  struct v *v, struct w *w) {}\n";

fn lower(model: DataModel, src: &str) -> Program {
    let opts = FrontendOptions { data_model: model, ..Default::default() };
    let c = compile_source("test.c", src, &opts).unwrap_or_else(|e| panic!("{e}"));
    assert!(c.unsupported.is_empty(), "{:?}", c.unsupported);
    verify_program(&c.program);
    c.program
}

fn has_pointer(structs: &[StructDef], t: &CType) -> bool {
    match t {
        CType::Ptr(_) => true,
        CType::Array(e, _) => has_pointer(structs, e),
        CType::Struct(s) => structs[s.0 as usize].fields.iter().any(|f| has_pointer(structs, &f.ty)),
        _ => false,
    }
}

/// `sizeof`, `_Alignof` and every field's `offsetof` of the named
/// structures, as the front end lays them out and as gcc prints them.
fn layouts(p: &Program, with_pointers: bool) -> (String, String) {
    let (mut ours, mut main) = (String::new(), String::from("int main(void) {\n"));
    for (i, s) in p.structs.iter().enumerate() {
        if s.c_name.contains('<')
            || (!with_pointers && has_pointer(&p.structs, &CType::Struct(pathwise_ir::StructId(i as u32))))
        {
            continue;
        }
        ours.push_str(&format!("{} {} {}", s.c_name, s.size, s.align));
        main.push_str(&format!(
            "printf(\"{} %lu %lu\", (unsigned long)sizeof({}), (unsigned long)_Alignof({}));\n",
            s.c_name, s.c_name, s.c_name
        ));
        for f in &s.fields {
            ours.push_str(&format!(" {}@{}", f.name, f.offset));
            main.push_str(&format!(
                "printf(\" {}@%lu\", (unsigned long)offsetof({}, {}));\n",
                f.name, s.c_name, f.name
            ));
        }
        ours.push('\n');
        main.push_str("printf(\"\\n\");\n");
    }
    main.push_str("return 0; }\n");
    (ours, main)
}

fn gcc_output(flags: &[&str], src: &str) -> Option<String> {
    // One directory per call: the tests of this file run in parallel.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("cfront-structs-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let (c, exe) = (dir.join("l.c"), dir.join("l"));
    std::fs::write(&c, src).ok()?;
    let ok =
        std::process::Command::new("gcc").args(flags).arg("-w").arg("-o").arg(&exe).arg(&c).status().ok()?.success();
    let out = if ok { std::process::Command::new(&exe).output().ok() } else { None };
    let _ = std::fs::remove_dir_all(&dir);
    out.map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
}

#[test]
fn layouts_match_gcc_lp64() {
    let p = lower(DataModel::Lp64, &format!("{DECLS}{USES}"));
    assert_eq!(p.structs.len(), 24, "{:#?}", p.structs);
    let (ours, main) = layouts(&p, true);
    let gcc = gcc_output(&[], &format!("#include <stdio.h>\n{DECLS}{main}")).expect("gcc");
    assert_eq!(ours, gcc);
    // Sanity of a few values, independently of gcc.
    assert!(ours.contains("struct b 24 8 c@0 ll@8 s@16\n"), "{ours}");
    assert!(ours.contains("union f 8 8 c@0 i@0 ll@0 s@0\n"), "{ours}");
    assert!(ours.contains("struct h 32 8 c@0 p@8 s@16 pp@24\n"), "{ours}");
    assert!(ours.contains("struct o 24 8 c@0 d@8 f@16\n"), "{ours}");
    // `packed` before the tag, after the brace, on a typedef'd anonymous
    // structure; `aligned(16)`; a packed member keeps its own layout.
    assert!(ours.contains("struct q 7 1 c@0 i@1 s@5\n"), "{ours}");
    assert!(ours.contains("struct r 9 1 c@0 ll@1\n"), "{ours}");
    assert!(ours.contains("s_t 9 1 c@0 in@1\n"), "{ours}");
    assert!(ours.contains("struct t 16 16 c@0\n"), "{ours}");
    assert!(ours.contains("struct u 12 4 c@0 q@1 i@8\n"), "{ours}");
    // Flexible array members take no bytes but their alignment.
    assert!(ours.contains("struct v 4 4 n@0 data@4\n"), "{ours}");
    assert!(ours.contains("struct w 8 8 c@0 d@8\n"), "{ours}");
}

#[test]
fn layouts_match_gcc_ilp32_without_pointers() {
    let p = lower(DataModel::Ilp32, &format!("{DECLS}{USES}"));
    let (ours, main) = layouts(&p, false);
    let Some(gcc) = gcc_output(&["-m32"], &format!("#include <stdio.h>\n{DECLS}{main}")) else {
        println!("note: gcc -m32 does not work here; ILP32 layouts not compared");
        return;
    };
    assert_eq!(ours, gcc);
    assert!(ours.contains("struct b 16 4 c@0 ll@4 s@12\n"), "{ours}");
    // i386 aligns `double` to 4 inside structures.
    assert!(ours.contains("struct o 16 4 c@0 d@4 f@12\n"), "{ours}");
    assert!(ours.contains("union p 8 4 f@0 d@0 c@0\n"), "{ours}");
    // Pointers are 8-byte cells of the IR's memory, aligned as `long long`.
    let h = p.structs.iter().find(|s| s.c_name == "struct h").unwrap();
    let offs: Vec<u64> = h.fields.iter().map(|f| f.offset).collect();
    assert_eq!((offs, h.size, h.align), (vec![0, 4, 12, 16], 24, 4));
}

#[test]
fn member_access_is_ptradd_and_typed_scalar_accesses() {
    let src = "struct node { int data; struct node *next; };\n\
        int second(struct node *l) { return l->next->data; }\n\
        void set(struct node *l, int v) { l->next->next = 0; (*l).data = v; }\n\
        int *addr(struct node *l) { return &l->next->data; }\n";
    let p = lower(DataModel::Lp64, src);
    let text = print(&p, func(&p, "second"));
    assert!(text.contains("ptradd %"), "{text}");
    assert!(text.contains(", 8:i64"), "{text}");
    assert!(text.contains("load ptr"), "{text}");
    assert!(text.contains("load i32"), "{text}");
    let set = print(&p, func(&p, "set"));
    assert!(set.contains("store ptr") && set.contains(", 0:ptr") && set.contains("store i32"), "{set}");
    let f = func(&p, "second");
    assert_eq!(f.params[0].src.shape, pathwise_ir::Shape::Heap);
    assert_eq!(f.params[0].src.cty, Some(CType::Ptr(Box::new(CType::Struct(pathwise_ir::StructId(0))))));
    assert_eq!(p.structs[0].c_name, "struct node");
    assert_eq!(p.structs[0].fields[1].ty, CType::Ptr(Box::new(CType::Struct(pathwise_ir::StructId(0)))));
    assert_eq!(func(&p, "addr").ret_src.as_ref().map(|s| s.shape), Some(pathwise_ir::Shape::Pointer));
    // ILP32: `next` follows `data` at offset 4.
    let p32 = lower(DataModel::Ilp32, src);
    let text = print(&p32, func(&p32, "second"));
    assert!(text.contains(", 4:i64"), "{text}");
}

#[test]
fn struct_objects_are_byte_slots_and_globals() {
    let src = "struct p { char c; int x; long long y; };\n\
        struct p g = { 'a', -2, 3 };\n\
        struct p arr[2] = { [1].x = 7 };\n\
        int f(int a) { struct p s = { .x = a, 5 }; struct p t; t = s; return t.x; }\n";
    let p = lower(DataModel::Lp64, src);
    let g = &p.globals[p.global_by_name("g").unwrap().0 as usize];
    assert_eq!((g.elem, g.count), (pathwise_ir::Type::I8, 16));
    assert_eq!(g.init, vec![97, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 3]);
    assert!(g.src.is_none(), "no emitter description for structure objects");
    let arr = &p.globals[p.global_by_name("arr").unwrap().0 as usize];
    assert_eq!((arr.count, arr.init.len()), (32, 21));
    let f = func(&p, "f");
    assert_eq!((f.locals[1].name.as_str(), f.locals[1].elem, f.locals[1].count), ("s", pathwise_ir::Type::I8, 16));
    let text = print(&p, f);
    // `s`: x from `a`, y = 5, c zero-filled; `t = s` copies three scalars.
    assert!(text.contains("store i64") && text.contains("5:i64") && text.contains("store i8"), "{text}");
    assert_eq!(text.matches("load i64").count(), 1, "{text}");
}

#[test]
fn struct_code_means_what_gcc_computes() {
    let cases = "#include <stddef.h>\n#include <string.h>\n\
        struct a { char c; int i; };\n\
        struct pt { int x, y; };\n\
        struct rect { struct pt lo, hi; int tag[3]; };\n\
        union u { int i; unsigned char b[4]; };\n\
        typedef struct { short s; struct pt *p; } holder;\n\
        struct rect gr = { {1, 2}, {3, 4}, {5} };\n\
        static struct pt pts[3] = { {1, 1}, [2] = { .y = 9 } };\n\
        long t0(void) { struct pt p = { 3, 4 }; struct pt q = p; q.x += 10; return p.x * 100 + q.x; }\n\
        long t1(void) { struct rect r = gr; r.hi.y = 40; return r.lo.x + r.hi.y + gr.hi.y + r.tag[0] + r.tag[2]; }\n\
        long t2(void) { union u v; v.i = 0x01020304; return v.b[0] * 1000 + v.b[3]; }\n\
        long t3(void) { struct pt p = { 7, 8 }; holder h = { 2, &p }; h.p->y = 80; return p.y + h.s; }\n\
        long t4(void) { return sizeof(struct rect) * 1000 + offsetof(struct rect, tag[1]) * 10 + offsetof(struct a, i); }\n\
        long t5(void) { struct pt *q = &pts[2]; return pts[0].x + pts[1].y + q->y + (q == &pts[2]) + !q; }\n\
        long t6(void) { struct a x = { 1, 2 }, y = { 3, 4 }; x = y = x; y.i = 9; return x.i * 10 + y.i; }\n\
        long t7(void) { struct pt a[2] = { 1, 2, 3 }; return a[0].y * 10 + a[1].x + a[1].y; }\n\
        long t8(void) { struct rect r = {0}; r.tag[1] = 6; struct pt *p = &r.hi; return p->x + r.tag[1]; }\n\
        long t9(void) { struct pt c = (struct pt){ .y = 5 }; return c.x + c.y; }\n\
        struct fam { int n; short v[]; };\n\
        union fam_room { struct fam f; short raw[8]; };\n\
        long t10(void) { union fam_room u; struct fam *f = &u.f; f->n = 3; for (int i = 0; i < f->n; i++) f->v[i] = i * 7; \
          return f->v[2] * 100 + sizeof(struct fam) * 10 + (&f->v[1] - &u.raw[0]) + u.raw[3] * 1000; }\n";
    assert_cases_match_gcc(cases, 11);
}

#[test]
fn library_calls_on_structures_lower() {
    let src = "#include <stdlib.h>\n#include <string.h>\n\
        struct node { int data; struct node *next; };\n\
        struct node *push(struct node *l, int v) {\n\
          struct node *n = (struct node *)malloc(sizeof(struct node));\n\
          if (!n) return l;\n\
          n->data = v; n->next = l; return n;\n\
        }\n\
        int misc(struct node *a, struct node **pp, const char *s) {\n\
          struct node *b = calloc(2, sizeof *b);\n\
          if (b == NULL) return -1;\n\
          memcpy(b, a, sizeof *a); memmove(&b[1], b, sizeof(struct node)); memset(a, 0, sizeof *a);\n\
          int r = memcmp(a, b, sizeof *a) + (int)strlen(s);\n\
          b = realloc(b, 3 * sizeof *b); *pp = b; free(*pp);\n\
          return r + (b != 0) + (*pp == b);\n\
        }\n";
    let p = lower(DataModel::Lp64, src);
    for name in ["malloc", "calloc", "realloc", "free", "memset", "memcpy", "memmove", "memcmp", "strlen"] {
        assert!(func(&p, name).is_declaration(), "{name}");
    }
    let push = print(&p, func(&p, "push"));
    assert!(push.contains("call @malloc(16:i64)"), "{push}");
    let misc = func(&p, "misc");
    assert_eq!(misc.params[1].src.shape, pathwise_ir::Shape::Heap);
    assert_eq!(misc.params[2].src.shape, pathwise_ir::Shape::Pointer);
    let p32 = lower(DataModel::Ilp32, src);
    let push = print(&p32, func(&p32, "push"));
    assert!(push.contains("call @malloc(12:i32)"), "{push}");
}

/// Structures with bit-fields, without pointers (both data models).
const BIT_DECLS: &str = "#include <stddef.h>\n\
struct bf1 { unsigned a:3; int b:5; unsigned c:1; };\n\
struct bf2 { char c; int :0; char d; };\n\
struct bf3 { char c; int :3; char d; };\n\
struct bf4 { int a:30; char b:4; };\n\
struct bf5 { char a:3; int b:5; };\n\
struct bf6 { long long a:20; int b:20; char c; };\n\
struct bf7 { char c; long long x:20; short s; };\n\
struct bf8 { unsigned u:1; };\n\
struct __attribute__((packed)) bf9 { char c; int a:30; char d:4; };\n\
struct bf10 { char c; int :0; };\n\
struct bf11 { short s:9; char c:7; short t:9; };\n\
struct bf12 { int a:24; long long b:64; };\n\
struct bf13 { char c; long long :0; char d; };\n\
struct bf14 { _Bool f:1; unsigned char u:4; signed char s:4; enum { E0, E1 } e:2; };\n\
struct bf15 { int x; struct { unsigned lo:4, hi:4; }; unsigned char tail:2; };\n\
struct bf16 { char c; struct bf1 in; unsigned z:31; unsigned y:2; };\n\
struct bf17 { unsigned long long a:32, b:32; unsigned long c:5; };\n\
struct __attribute__((packed)) bf18 { char c; int :0; char d; short e:3; };\n\
struct bf19 { int a:3; long long b:64; };\n\
struct bf20 { char a; short b:9; };\n\
struct bf21 { char a; int b:17; char c:2; short d:15; };\n\
struct bf22 { unsigned a:31; unsigned :2; unsigned b:31; };\n";

const BIT_USES: &str = "void use_bits(struct bf1 *a, struct bf2 *b, struct bf3 *c, struct bf4 *d, struct bf5 *e,\n\
  struct bf6 *f, struct bf7 *g, struct bf8 *h, struct bf9 *i, struct bf10 *j, struct bf11 *k, struct bf12 *l,\n\
  struct bf13 *m, struct bf14 *n, struct bf15 *o, struct bf16 *p, struct bf17 *q, struct bf18 *r,\n\
  struct bf19 *s, struct bf20 *t, struct bf21 *u, struct bf22 *v) {}\n";

/// `sizeof`, `_Alignof`, the offsets of the other members and each
/// bit-field's first bit and width (gcc: found by setting the field to
/// all ones in a zeroed object and scanning its bytes), as the front end
/// lays them out and as gcc does.
fn bit_layouts(p: &Program) -> (String, String) {
    let (mut ours, mut main) = (String::new(), String::from("int main(void) {\n"));
    for s in &p.structs {
        let n = &s.c_name;
        ours.push_str(&format!("{n} {} {}", s.size, s.align));
        main.push_str(&format!("printf(\"{n} %lu %lu\", (unsigned long)sizeof({n}), (unsigned long)_Alignof({n}));\n"));
        for f in s.fields.iter().filter(|f| f.name != pathwise_ir::BIT_STORAGE) {
            ours.push_str(&format!(" {}@{}", f.name, f.offset));
            main.push_str(&format!("printf(\" {}@%lu\", (unsigned long)offsetof({n}, {}));\n", f.name, f.name));
        }
        for b in &s.bitfields {
            ours.push_str(&format!(" {}@{}:{}", b.name, b.bit, b.width));
            main.push_str(&format!(
                "{{ {n} x; unsigned char *q = (unsigned char *)&x; int lo = -1, w = 0; memset(&x, 0, sizeof x); x.{} = -1;\n\
                 for (int i = 0; i < (int)(8 * sizeof x); i++) if (q[i / 8] >> (i % 8) & 1) {{ if (lo < 0) lo = i; w++; }}\n\
                 printf(\" {}@%d:%d\", lo, w); }}\n",
                b.name, b.name
            ));
        }
        ours.push('\n');
        main.push_str("printf(\"\\n\");\n");
    }
    main.push_str("return 0; }\n");
    (ours, main)
}

#[test]
fn bit_field_layouts_match_gcc_in_both_models() {
    for (model, flags) in [(DataModel::Lp64, &[][..]), (DataModel::Ilp32, &["-m32"][..])] {
        let p = lower(model, &format!("{BIT_DECLS}{BIT_USES}"));
        assert_eq!(p.structs.len(), 22, "{:#?}", p.structs);
        let (ours, main) = bit_layouts(&p);
        let src = format!("#include <stdio.h>\n#include <string.h>\n{BIT_DECLS}{main}");
        let gcc = gcc_output(flags, &src).expect("gcc");
        assert_eq!(ours, gcc, "{model:?}");
        if model == DataModel::Lp64 {
            // Independently of gcc: packing, `:0`, no straddling, and the
            // bytes holding bit-fields listed as one-byte fields.
            assert!(ours.contains("struct bf1 4 4 a@0:3 b@3:5 c@8:1\n"), "{ours}");
            assert!(ours.contains("struct bf2 5 1 c@0 d@4\n"), "{ours}");
            assert!(ours.contains("struct bf4 8 4 a@0:30 b@32:4\n"), "{ours}");
            assert!(ours.contains("struct bf9 6 1 c@0 a@8:30 d@38:4\n"), "{ours}");
            let bf1 = &p.structs[0];
            let storage: Vec<u64> =
                bf1.fields.iter().filter(|f| f.name == pathwise_ir::BIT_STORAGE).map(|f| f.offset).collect();
            assert_eq!(storage, vec![0, 1]);
        } else {
            // i386 aligns `long long` to 4: a 64-bit field straddles no 4-byte boundary.
            assert!(ours.contains("struct bf19 12 4 a@0:3 b@32:64\n"), "{ours}");
        }
    }
}

#[test]
fn unsupported_and_invalid_bit_fields_are_reported() {
    let c = compile(
        "struct wide { unsigned long long x:40; };\n\
         union u { int a:3; char c; };\n\
         int f(struct wide *w) { return w->x != 0; }\n\
         int g(union u *p) { return p->c; }\n\
         int ok(void) { struct { int a:3; } s = { 3 }; return s.a; }\n",
    );
    let reasons: Vec<String> = c.unsupported.iter().map(|u| format!("{}: {}", u.name, u.diagnostic)).collect();
    assert_eq!(reasons.len(), 2, "{reasons:?}");
    assert!(
        reasons[0].starts_with("f: test.c:3:")
            && reasons[0].contains("test.c:1:36: unsupported: bit-fields of 33 to 63 bits"),
        "{reasons:?}"
    );
    assert!(
        reasons[1].starts_with("g: test.c:4:") && reasons[1].contains("test.c:2:17: unsupported: bit-fields in unions"),
        "{reasons:?}"
    );
    for (src, msg) in [
        ("struct s { int a:33; };", "width of bit-field `a` exceeds its type"),
        ("struct s { int a:0; };", "zero width for bit-field `a`"),
        ("struct s { float f:3; };", "bit-field `f` has invalid type `float`"),
        ("struct s { _Bool b:2; };", "width of bit-field `b` exceeds its type"),
        ("struct s { int a:3; }; int *f(struct s *p) { return &p->a; }", "cannot take the address of a bit-field"),
        ("struct s { int a:3; }; long f(void) { return offsetof(struct s, a); }", "`offsetof` of the bit-field `a`"),
    ] {
        // A definition's error is reported where the type is used.
        let src = format!("#include <stddef.h>\n{src}\nint use_s(struct s *p) {{ return sizeof *p; }}\n");
        let e = match compile_source("test.c", &src, &FrontendOptions::default()) {
            Ok(c) => c.unsupported.iter().map(|u| u.diagnostic.to_string()).collect::<Vec<_>>().join("\n"),
            Err(e) => e.to_string(),
        };
        assert!(e.contains(msg), "{src}: {e}");
    }
}

/// Reads, writes and initialisers of bit-fields against gcc.
const BIT_CASES: &str = "#include <stddef.h>\n\
struct bf { unsigned a:3; int b:5; unsigned c:1; int :0; signed char d:4; _Bool e:1; unsigned long long w:64; };\n\
struct mix { char c; int x:17; char y:2; short z:15; unsigned u:32; int i:32; unsigned long long q:32; long long r:20; };\n\
struct outer { int n; struct bf in[2]; struct { unsigned lo:4, hi:4; }; };\n\
struct __attribute__((packed)) pk { char c; int a:30; char d:4; };\n\
static struct bf gb = { 5, -3, 1, -8, 1, 0x8000000000000001ull };\n\
static struct outer go = { 7, { [1] = { .b = 9, .d = 3 } }, .hi = 12 };\n\
static long long all(struct bf s) { return s.a * 1000000LL + s.b * 10000 + s.c * 1000 + s.d * 10 + s.e + (long long)(s.w >> 60); }\n\
long long t0(void) { struct bf s = { 1, 2, 0, 3, 0, 4 }; s.a = 6; s.b = -16; s.c = 1; s.d = 7; s.e = 5; return all(s); }\n\
long long t1(void) { return all(gb) * 10 + gb.b; }\n\
long long t2(void) { struct bf s = {0}; long long r = (s.a = 9); r = r * 100 + (s.b = 17); r = r * 100 + (s.d = -9); return r * 100 + (s.e = 2); }\n\
long long t3(void) { struct bf s = { .b = 15, .a = 7 }; s.a++; s.b += 1; ++s.d; s.d--; s.c--; return all(s) + (s.a - 1 < 0) * 7; }\n\
long long t4(void) { struct mix m = {0}; m.x = -65536; m.y = 1; m.z = 16383; m.u = 4294967295u; m.i = -5; m.q = 4294967295u; m.r = -1;\n\
    return m.x + m.y * 3 + m.z * 7 + (m.u + 1) * 11 + (m.u > 0) + m.i * 13 + (m.q + 1) * 17 + m.r * 19 + (m.q - 4294967296LL < 0) * 23 + (m.r < 0); }\n\
long long t5(void) { struct outer o = go; o.in[0].a = 3; o.lo = 15; o.hi += 5; return o.n + o.in[1].b * 10 + o.in[1].d * 100 + o.in[0].a * 1000 + o.lo * 10000 + o.hi * 100000LL; }\n\
long long t6(void) { struct pk p = { 1, -2, 3 }; p.a += 5; p.d = -p.d; return p.c + p.a * 10 + p.d * 1000 + sizeof p * 10000; }\n\
long long t7(void) { struct bf a = gb, b; b = a; b.b = 1; struct bf c = (struct bf){ .d = -1, .w = 7 }; return all(a) - all(b) + all(c) + sizeof(struct bf) * 1000000000; }\n\
union view { struct mix m; unsigned char raw[sizeof(struct mix)]; };\n\
long long t8(void) { union view v = {0}; v.m.y = -1; v.m.z = -1; v.m.r = 5; v.m.x = 3;\n\
    long long h = 0; for (unsigned i = 0; i < sizeof v; i++) h = h * 3 + v.raw[i]; return h + sizeof(struct mix) * 1000000; }\n\
long long t9(void) { struct bf s = {0}; s.w = ~0ull; s.w <<= 3; return (long long)(s.w >> 2) + s.a; }\n";

#[test]
fn bit_field_code_means_what_gcc_computes_in_both_models() {
    let n = 10;
    let mut main = String::from("#include <stdio.h>\nint main(void) {\n");
    for i in 0..n {
        main += &format!("    printf(\"%lld\\n\", t{i}());\n");
    }
    main += "    return 0;\n}\n";
    for (model, flags) in [(DataModel::Lp64, &[][..]), (DataModel::Ilp32, &["-m32"][..])] {
        let expected: Vec<i64> = gcc_run_flags(flags, BIT_CASES, &main).lines().map(|l| l.parse().unwrap()).collect();
        assert_eq!(expected.len(), n);
        let p = lower(model, BIT_CASES);
        let mut it = common::interp::Interp::new(&p);
        for (i, want) in expected.iter().enumerate() {
            let got = it.call_by_name(&format!("t{i}"), &[]).unwrap() as i64;
            assert_eq!(got, *want, "{model:?}: t{i}");
        }
    }
}
