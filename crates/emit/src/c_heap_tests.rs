//! Tests of heap inputs and outputs in the C tests: hand-built suites over
//! linked lists, compiled with gcc (warnings as errors) and run.

use pathwise_ir::{CType, FieldDef, IntTy, Shape, SrcVar, StructDef, StructId, Type};
use pathwise_suite::{HeapCell, HeapObject, HeapValue, InputValue, TestCase, TestSuite};

use crate::c_tests::tests::{case, compile_and_run, int, suite};
use crate::c_tests::write_c_tests;

pub(crate) const SOURCE: &str = "#include <stdlib.h>\n\
struct node { int data; struct node *next; };\n\
struct list { struct node *first; };\n\
int len(struct node *n) { int k = 0; while (n) { k++; n = n->next; } return k; }\n\
void push(struct list *l, int v) { struct node *n = malloc(sizeof *n); n->data = v; n->next = l->first; l->first = n; }\n\
struct node *rev(struct node *n) { struct node *p = 0; while (n) { struct node *q = n->next; n->next = p; p = n; n = q; } return p; }\n\
void set_first(struct node **pp, int v) { if (!*pp) { *pp = malloc(sizeof **pp); (*pp)->next = 0; } (*pp)->data = v; }\n\
int swap_data(struct node *a, struct node *b) { int t = a->data; a->data = b->data; b->data = t; return a->data; }\n\
void bump2(struct node *n) { n->data++; n->next->data++; }\n\
struct node *make(int v) { struct node *n = malloc(sizeof *n); n->data = v; n->next = n; return n; }\n\
void pop(struct list *l) { struct node *n = l->first; l->first = n->next; free(n); }\n";

pub(crate) fn c_int() -> CType {
    CType::Int { c_name: "int".into(), ty: IntTy { ty: Type::I32, signed: true } }
}

pub(crate) fn node_ty() -> CType {
    CType::Struct(StructId(0))
}

pub(crate) fn list_ty() -> CType {
    CType::Struct(StructId(1))
}

fn ptr(t: CType) -> CType {
    CType::Ptr(Box::new(t))
}

pub(crate) fn structs() -> Vec<StructDef> {
    vec![
        StructDef {
            c_name: "struct node".into(),
            is_union: false,
            size: 16,
            align: 8,
            fields: vec![
                FieldDef { name: "data".into(), offset: 0, ty: c_int() },
                FieldDef { name: "next".into(), offset: 8, ty: ptr(node_ty()) },
            ],
            bitfields: vec![],
        },
        StructDef {
            c_name: "struct list".into(),
            is_union: false,
            size: 8,
            align: 8,
            fields: vec![FieldDef { name: "first".into(), offset: 0, ty: ptr(node_ty()) }],
            bitfields: vec![],
        },
    ]
}

/// A heap parameter of C type `cty` (a pointer).
pub(crate) fn heap_var(name: &str, cty: CType) -> SrcVar {
    SrcVar {
        name: name.into(),
        c_scalar: cty.declare(&structs(), ""),
        scalar: IntTy { ty: Type::Ptr, signed: false },
        shape: Shape::Heap,
        cty: Some(cty),
    }
}

pub(crate) fn r(obj: u32) -> HeapValue {
    HeapValue::Ref { obj, offset: 0 }
}

/// A `struct node` object with known data and next.
pub(crate) fn node(id: u32, data: Option<i128>, next: Option<HeapValue>) -> HeapObject {
    let mut cells = Vec::new();
    if let Some(d) = data {
        cells.push(HeapCell { offset: 0, path: "[0].data".into(), value: HeapValue::Int(d) });
    }
    if let Some(n) = next {
        cells.push(HeapCell { offset: 8, path: "[0].next".into(), value: n });
    }
    HeapObject { id, cty: node_ty(), count: 1, tail: None, cells, freed: false, allocated: false }
}

/// A single-pointer object (`struct list` or `struct node *`).
fn holder(id: u32, cty: CType, value: HeapValue) -> HeapObject {
    HeapObject {
        id,
        cty,
        count: 1,
        tail: None,
        cells: vec![HeapCell { offset: 0, path: "[0]".into(), value }],
        freed: false,
        allocated: false,
    }
}

pub(crate) fn heap_suite(function: &str, params: Vec<SrcVar>, ret: Option<SrcVar>) -> TestSuite {
    let mut s = suite(function, params, ret, vec![]);
    s.structs = structs();
    s
}

fn heap_case(id: usize, inputs: Vec<InputValue>, heap_in: Vec<HeapObject>, heap_out: Vec<HeapObject>) -> TestCase {
    let mut t = case(id, inputs, None);
    t.heap_in = heap_in;
    t.heap_out = heap_out;
    t
}

fn p(v: HeapValue) -> InputValue {
    InputValue::Pointer(v)
}

/// The list o1 -> o2 -> o3 with data 1, 2, 3.
fn three() -> Vec<HeapObject> {
    vec![node(1, Some(1), Some(r(2))), node(2, Some(2), Some(r(3))), node(3, Some(3), Some(HeapValue::Null))]
}

#[test]
fn len_reads_input_lists() {
    let mut s = heap_suite("len", vec![heap_var("n", ptr(node_ty()))], Some(int("")));
    let mut t1 = heap_case(1, vec![p(HeapValue::Null)], vec![], vec![]);
    t1.ret = Some(0);
    let mut t2 = heap_case(2, vec![p(r(1))], three(), three());
    t2.ret = Some(3);
    // A list whose second node is at an offset into an array of two nodes.
    let mut arr = node(2, None, None);
    arr.count = 2;
    arr.cells = vec![
        HeapCell { offset: 8, path: "[0].next".into(), value: HeapValue::Ref { obj: 2, offset: 16 } },
        HeapCell { offset: 24, path: "[1].next".into(), value: HeapValue::Null },
    ];
    let mut t3 = heap_case(3, vec![p(r(1))], vec![node(1, None, Some(r(2))), arr.clone()], vec![]);
    t3.ret = Some(3);
    s.tests.extend([t1, t2, t3]);
    let text = write_c_tests(&s, "code.c");
    assert!(text.contains(" * inputs: n = &o1 {data=1, next=&o2}, o2 = {data=2, next=&o3}, o3 = {data=3, next=NULL}\n"));
    assert!(text.contains(" * inputs: n = &o1 {next=&o2}, o2 = {[0].next=&o2[1], [1].next=NULL}\n"), "{text}");
    assert!(text.contains("    struct node *pathwise_o2 = __builtin_malloc(2 * sizeof(struct node));\n"), "{text}");
    assert!(text.contains("    pathwise_o2[0].next = pathwise_o2 + 1;\n"), "{text}");
    assert!(text.contains("    pathwise_o1->next = pathwise_o2;\n"), "{text}");
    assert!(text.contains("    struct node *n = 0;\n"), "{text}");
    let (ok, stdout) = compile_and_run(SOURCE, &s);
    assert!(ok && stdout.contains("3 passed, 0 failed"), "{stdout}\n{text}");
}

#[test]
fn push_allocates_new_nodes() {
    let params = vec![heap_var("l", ptr(list_ty())), int("v")];
    let mut s = heap_suite("push", params, None);
    // Onto an empty list: the new node holds v and NULL.
    let empty_in = vec![holder(1, list_ty(), HeapValue::Null)];
    let empty_out = vec![holder(1, list_ty(), r(2)), node(2, Some(7), Some(HeapValue::Null))];
    s.tests.push(heap_case(1, vec![p(r(1)), InputValue::Scalar(7)], empty_in, empty_out));
    // Onto a one-node list: the new node links to the old one.
    let one_in = vec![holder(1, list_ty(), r(2)), node(2, Some(1), Some(HeapValue::Null))];
    let one_out =
        vec![holder(1, list_ty(), r(3)), node(2, Some(1), Some(HeapValue::Null)), node(3, Some(-5), Some(r(2)))];
    s.tests.push(heap_case(2, vec![p(r(1)), InputValue::Scalar(-5)], one_in.clone(), one_out.clone()));
    // Wrong field of the new node.
    let mut wrong = one_out.clone();
    wrong[2] = node(3, Some(8), Some(r(2)));
    s.tests.push(heap_case(3, vec![p(r(1)), InputValue::Scalar(-5)], one_in.clone(), wrong));
    // Wrong link: the new node expected to end the list.
    let mut wrong = one_out.clone();
    wrong[2] = node(3, Some(-5), Some(HeapValue::Null));
    s.tests.push(heap_case(4, vec![p(r(1)), InputValue::Scalar(-5)], one_in, wrong));
    let text = write_c_tests(&s, "code.c");
    assert!(text.contains(" * inputs: l = &o1 {first=&o2}, v = -5, o2 = {data=1, next=NULL}\n"), "{text}");
    assert!(text.contains("    struct node *pathwise_n3 = (struct node *)pathwise_o1->first;\n"), "{text}");
    let (ok, stdout) = compile_and_run(SOURCE, &s);
    assert!(!ok, "{stdout}");
    assert!(stdout.contains("test 3: o1->first->data expected 8 got -5\n"), "{stdout}");
    assert!(stdout.contains("test 4: o1->first->next expected NULL got 0x"), "{stdout}");
    assert!(stdout.contains("2 passed, 2 failed"), "{stdout}\n{text}");
}

#[test]
fn rev_returns_a_pointer() {
    let mut s = heap_suite("rev", vec![heap_var("n", ptr(node_ty()))], Some(heap_var("", ptr(node_ty()))));
    let out = vec![node(1, Some(1), Some(HeapValue::Null)), node(2, Some(2), Some(r(1))), node(3, Some(3), Some(r(2)))];
    let mut good = heap_case(1, vec![p(r(1))], three(), out.clone());
    good.ret_pointer = Some(r(3));
    let mut null = heap_case(2, vec![p(HeapValue::Null)], vec![], vec![]);
    null.ret_pointer = Some(HeapValue::Null);
    // Wrong return pointer.
    let mut bad_ret = good.clone();
    bad_ret.id = 3;
    bad_ret.ret_pointer = Some(r(1));
    // Wrong link.
    let mut bad_link = good.clone();
    bad_link.id = 4;
    bad_link.heap_out[1] = node(2, Some(2), Some(r(3)));
    s.tests.extend([good, null, bad_ret, bad_link]);
    let text = write_c_tests(&s, "code.c");
    assert!(text.contains("    __typeof__(rev(n)) pathwise_ret = rev(n);\n"), "{text}");
    let (ok, stdout) = compile_and_run(SOURCE, &s);
    assert!(!ok);
    assert!(stdout.contains("test 3: return expected o1 got 0x"), "{stdout}");
    assert!(stdout.contains("test 4: o2->next expected o3 got 0x"), "{stdout}");
    assert!(stdout.contains("2 passed, 2 failed"), "{stdout}\n{text}");
}

#[test]
fn returned_new_objects_and_cycles() {
    let mut s = heap_suite("make", vec![int("v")], Some(heap_var("", ptr(node_ty()))));
    let mut t = heap_case(1, vec![InputValue::Scalar(4)], vec![], vec![node(1, Some(4), Some(r(1)))]);
    t.ret_pointer = Some(r(1));
    let mut wrong = t.clone();
    wrong.id = 2;
    wrong.heap_out = vec![node(1, Some(5), Some(r(1)))];
    // Storage of unknown type takes the type of the pointer that reaches it.
    let mut untyped = t.clone();
    untyped.id = 3;
    untyped.heap_out[0].cty = CType::Void;
    s.tests.extend([t, wrong, untyped]);
    let text = write_c_tests(&s, "code.c");
    assert!(text.contains("pathwise_check_fresh(1, \"return\", (void *)(pathwise_ret), 0, 0, 0)"), "{text}");
    let (ok, stdout) = compile_and_run(SOURCE, &s);
    assert!(!ok);
    assert!(stdout.contains("test 2: return->data expected 5 got 4\n"), "{stdout}");
    assert!(stdout.contains("2 passed, 1 failed"), "{stdout}\n{text}");

    // An input cycle: n->next == n, so both increments hit one node.
    let mut s = heap_suite("bump2", vec![heap_var("n", ptr(node_ty()))], None);
    s.tests.push(heap_case(1, vec![p(r(1))], vec![node(1, Some(1), Some(r(1)))], vec![node(1, Some(3), Some(r(1)))]));
    let text = write_c_tests(&s, "code.c");
    assert!(text.contains("    pathwise_o1->next = pathwise_o1;\n"), "{text}");
    assert!(text.contains(" * inputs: n = &o1 {data=1, next=&o1}\n"), "{text}");
    let (ok, stdout) = compile_and_run(SOURCE, &s);
    assert!(ok && stdout.contains("1 passed, 0 failed"), "{stdout}\n{text}");
}

#[test]
fn aliased_parameters() {
    let params = vec![heap_var("a", ptr(node_ty())), heap_var("b", ptr(node_ty()))];
    let mut s = heap_suite("swap_data", params, Some(int("")));
    // a and b both point to o1: the swap changes nothing.
    let mut same = heap_case(1, vec![p(r(1)), p(r(1))], vec![node(1, Some(6), None)], vec![node(1, Some(6), None)]);
    same.ret = Some(6);
    let mut two = heap_case(
        2,
        vec![p(r(1)), p(r(2))],
        vec![node(1, Some(6), None), node(2, Some(9), None)],
        vec![node(1, Some(9), None), node(2, Some(6), None)],
    );
    two.ret = Some(9);
    // Expecting the effect of distinct objects on aliased ones fails.
    let mut wrong = heap_case(3, vec![p(r(1)), p(r(1))], vec![node(1, Some(6), None)], vec![node(1, Some(9), None)]);
    wrong.ret = Some(6);
    s.tests.extend([same, two, wrong]);
    let text = write_c_tests(&s, "code.c");
    assert!(text.contains(" * inputs: a = &o1 {data=6}, b = &o1\n"), "{text}");
    assert!(text.contains("    struct node *a = pathwise_o1;\n    struct node *b = pathwise_o1;\n"), "{text}");
    let (ok, stdout) = compile_and_run(SOURCE, &s);
    assert!(!ok);
    assert!(stdout.contains("test 3: o1->data expected 9 got 6\n"), "{stdout}");
    assert!(stdout.contains("2 passed, 1 failed"), "{stdout}\n{text}");
}

#[test]
fn pointer_to_pointer() {
    let params = vec![heap_var("pp", ptr(ptr(node_ty()))), int("v")];
    let mut s = heap_suite("set_first", params, None);
    let pp = |id, v| holder(id, ptr(node_ty()), v);
    // *pp == NULL: a new node is allocated.
    let t1 = heap_case(
        1,
        vec![p(r(1)), InputValue::Scalar(2)],
        vec![pp(1, HeapValue::Null)],
        vec![pp(1, r(2)), node(2, Some(2), Some(HeapValue::Null))],
    );
    // *pp == o2: its data is set.
    let in2 = vec![pp(1, r(2)), node(2, None, None)];
    let t2 = heap_case(2, vec![p(r(1)), InputValue::Scalar(3)], in2.clone(), vec![pp(1, r(2)), node(2, Some(3), None)]);
    // Wrongly expecting a new node where the old one stays.
    let t3 = heap_case(
        3,
        vec![p(r(1)), InputValue::Scalar(3)],
        in2,
        vec![pp(1, r(3)), node(3, Some(3), None), node(2, None, None)],
    );
    // An opaque cell is not checked.
    let mut t4 = t1.clone();
    t4.id = 4;
    t4.heap_out[1].cells[1].value = HeapValue::Opaque;
    s.tests.extend([t1, t2, t3, t4]);
    let text = write_c_tests(&s, "code.c");
    assert!(text.contains("    struct node **pp = pathwise_o1;\n"), "{text}");
    assert!(text.contains("    *pathwise_o1 = pathwise_o2;\n"), "{text}");
    assert!(text.contains(" * inputs: pp = &o1 {&o2}, v = 3, o2 = {}\n"), "{text}");
    let (ok, stdout) = compile_and_run(SOURCE, &s);
    assert!(!ok);
    assert!(stdout.contains("test 3: *o1 expected a new object got an existing one\n"), "{stdout}");
    assert!(stdout.contains("3 passed, 1 failed"), "{stdout}\n{text}");
}

#[test]
fn error_tests_build_the_heap_and_check_nothing() {
    use pathwise_ir::Loc;
    use pathwise_suite::{ErrorInfo, ErrorKind, Outcome};
    let mut s = heap_suite("bump2", vec![heap_var("n", ptr(node_ty()))], None);
    let mut t = heap_case(1, vec![p(r(1))], vec![node(1, Some(1), Some(HeapValue::Null))], vec![]);
    t.outcome = Outcome::Error(ErrorInfo {
        kind: ErrorKind::NullDereference,
        loc: Loc { file: 0, line: 9, col: 45 },
        message: "n->next is null".into(),
    });
    s.tests.push(t);
    let (ok, stdout) = compile_and_run(SOURCE, &s);
    assert!(ok && stdout.contains("1 passed, 0 failed"), "{stdout}");
}

#[test]
fn freed_objects_are_not_checked() {
    let mut s = heap_suite("pop", vec![heap_var("l", ptr(list_ty()))], None);
    let mut heap_in = vec![holder(1, list_ty(), r(2)), node(2, None, Some(r(3))), node(3, Some(5), None)];
    // The input heap says which objects the call freed: the test frees the others.
    heap_in[1].freed = true;
    let mut gone = node(2, None, None);
    gone.freed = true;
    let heap_out = vec![holder(1, list_ty(), r(3)), gone, node(3, Some(5), None)];
    s.tests.push(heap_case(1, vec![p(r(1))], heap_in, heap_out));
    let text = write_c_tests(&s, "code.c");
    assert!(text.contains("    /* o2: freed by the call */\n"), "{text}");
    assert!(
        text.contains(
            "    __builtin_free(pathwise_o1);\n    /* o2: freed by the call */\n    __builtin_free(pathwise_o3);\n"
        ),
        "{text}"
    );
    let (ok, stdout) = compile_and_run(SOURCE, &s);
    assert!(ok && stdout.contains("1 passed, 0 failed"), "{stdout}\n{text}");
}
