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
    let dir = std::env::temp_dir().join(format!("cfront-structs-{}-{}", std::process::id(), flags.len()));
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
