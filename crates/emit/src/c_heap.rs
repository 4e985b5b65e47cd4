//! Heap inputs and outputs in the C tests (parameters of `Shape::Heap`).
//!
//! Before the call, every object of the test's input heap is allocated
//! (`__builtin_malloc`, which needs no declaration: the harness includes only
//! `<stdio.h>`) and zeroed, and only then linked: its known cells are set
//! through their access paths (`pathwise_o1->next = pathwise_o2;`), so that
//! aliases and cycles come out as the engine saw them. Pointer parameters
//! then point into these objects.
//!
//! After the call, the output heap is checked from the roots: the returned
//! pointer, then every object bound to a variable, smallest id first, cell
//! by cell in offset order. Input objects are bound from the start (their
//! variables); a pointer cell that expects an object the code under test
//! allocated binds it to a fresh variable after checking that it is neither
//! null nor an object the test already knows, and every later pointer to it
//! compares. So a pointer mismatch is reported at the first cell that
//! differs, and nothing is dereferenced through a pointer the checks have
//! not validated. Messages name cells as C would reach them from the test's
//! variables: `o1->next`, `return->data`, `o1->first->next->data`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use pathwise_ir::{CType, Shape, SrcVar, StructDef};
use pathwise_suite::{HeapCell, HeapObject, HeapValue, InputValue, TestCase, TestSuite};

use crate::c_tests::{write_scalar_check, Used};
use crate::heap::{
    bit_field_cells, cell_at, cell_lvalue, elem_stride, elem_type, is_bit_storage, shown_contents, shown_ref,
    type_name, CellAt,
};
use crate::literal::c_literal;

/// An object of the test as the C code reaches it.
struct Obj {
    /// The C variable pointing to its first element.
    var: String,
    /// How messages name that pointer (`o1`, `o1->next`, `return`).
    shown: String,
    /// The element type the variable points to.
    elem: CType,
}

fn input_objects(test: &TestCase) -> BTreeMap<u32, Obj> {
    test.heap_in
        .iter()
        .map(|o| (o.id, Obj { var: format!("pathwise_o{}", o.id), shown: format!("o{}", o.id), elem: elem_type(o) }))
        .collect()
}

/// Whether `p` is a heap parameter (or return value), or a structure
/// passed by value (built as a heap object, then copied).
pub(crate) fn is_heap(p: &SrcVar) -> bool {
    matches!(p.shape, Shape::Heap | Shape::ByValue)
}

/// The declaration of a pointer variable `name` of C type `cty` (`void *`
/// when unknown) and the type it points to.
pub(crate) fn pointer_decl(structs: &[StructDef], cty: Option<&CType>, name: &str) -> (String, Option<CType>) {
    match cty {
        Some(t) => (t.declare(structs, name), t.pointee().cloned()),
        None => (format!("void *{name}"), None),
    }
}

/// A C expression pointing to byte `offset` of `o`, of type pointer to
/// `pointee` (`void *` for `None`): `pathwise_o2`, `pathwise_o2 + 1`,
/// `(int *)((char *)pathwise_o2 + 4)`.
fn pointer_expr(structs: &[StructDef], o: &Obj, offset: u64, pointee: Option<&CType>) -> String {
    let es = elem_stride(structs, &o.elem);
    if pointee == Some(&o.elem) && offset.is_multiple_of(es) {
        let i = offset / es;
        return if i == 0 { o.var.clone() } else { format!("{} + {i}", o.var) };
    }
    let target = match pointee {
        Some(p) => type_name(structs, &CType::Ptr(Box::new(p.clone()))),
        None => "void *".to_string(),
    };
    if offset == 0 {
        format!("({target}){}", o.var)
    } else {
        format!("({target})((char *){} + {offset})", o.var)
    }
}

/// A `void *` expression pointing to byte `offset` of the array starting
/// at `base` (an array or a pointer to its first element), whose elements
/// have `elem_bytes` bytes: `(void *)(s + 3)`, `(void *)((char *)s + 5)`.
fn array_pointer(base: &str, elem_bytes: u64, offset: u64) -> String {
    let es = elem_bytes.max(1);
    match offset {
        0 => format!("(void *)({base})"),
        _ if offset.is_multiple_of(es) => format!("(void *)({base} + {})", offset / es),
        _ => format!("(void *)((char *)({base}) + {offset})"),
    }
}

/// How messages name a pointer to byte `offset` of `o`: `o2`, `o2 + 1`,
/// `(char *)o2 + 12`.
fn shown_pointer(structs: &[StructDef], o: &Obj, offset: u64) -> String {
    let es = elem_stride(structs, &o.elem);
    match offset {
        0 => o.shown.clone(),
        _ if es > 1 && offset.is_multiple_of(es) => format!("{} + {}", o.shown, offset / es),
        _ => format!("(char *){} + {offset}", o.shown),
    }
}

/// `sizeof(T)` or `N * sizeof(T)`: the object's size in C. A structure
/// with a flexible array member gets `sizeof(T) + N * sizeof(E)`, never
/// less than C's `offsetof(T, member) + N * sizeof(E)` (gcc may start the
/// member inside the structure's final padding).
fn size_expr(structs: &[StructDef], obj: &HeapObject, elem: &CType) -> String {
    if let (Some(n), Some((_, e))) = (obj.tail, elem.flexible(structs)) {
        let fixed = format!("sizeof({})", type_name(structs, elem));
        return match n {
            0 => fixed,
            n => format!("{fixed} + {n} * sizeof({})", type_name(structs, &e)),
        };
    }
    match obj.count {
        0 | 1 => format!("sizeof({})", type_name(structs, elem)),
        n => format!("{n} * sizeof({})", type_name(structs, elem)),
    }
}

/// Declare and allocate every input object (uninitialised; see
/// [`write_heap_stores`]).
pub(crate) fn write_heap_allocs(out: &mut String, suite: &TestSuite, test: &TestCase) {
    let objs = input_objects(test);
    for obj in sorted(&test.heap_in) {
        let o = &objs[&obj.id];
        let decl = CType::Ptr(Box::new(o.elem.clone())).declare(&suite.structs, &o.var);
        let size = size_expr(&suite.structs, obj, &o.elem);
        let _ = writeln!(out, "    {decl} = __builtin_malloc({size});");
    }
}

fn sorted(objects: &[HeapObject]) -> Vec<&HeapObject> {
    let mut v: Vec<&HeapObject> = objects.iter().collect();
    v.sort_by_key(|o| o.id);
    v
}

/// Declare the local of heap parameter `p`: `struct node *l = pathwise_o1;`
/// (`0` for a null pointer).
pub(crate) fn write_heap_param(
    out: &mut String,
    suite: &TestSuite,
    test: &TestCase,
    p: &SrcVar,
    local: &str,
    value: Option<&InputValue>,
) {
    if p.shape == Shape::ByValue {
        // The structure is the input object's value: `struct point p = *pathwise_o1;`.
        let cty = p.cty.as_ref().and_then(|c| c.pointee().cloned());
        let decl = match &cty {
            Some(t) => t.declare(&suite.structs, local),
            None => format!("void *{local}"),
        };
        let init = match value {
            Some(InputValue::Pointer(v @ HeapValue::Ref { .. })) => {
                format!("*{}", input_pointer_expr(suite, test, v, cty.as_ref()))
            }
            other => format!("/* no input object: {other:?} */"),
        };
        let _ = writeln!(out, "    {decl} = {init};");
        return;
    }
    let (decl, pointee) = pointer_decl(&suite.structs, p.cty.as_ref(), local);
    let init = match value {
        Some(InputValue::Pointer(v)) => input_pointer_expr(suite, test, v, pointee.as_ref()),
        None => "0".to_string(),
        Some(other) => format!("0 /* not a pointer input: {other:?} */"),
    };
    let _ = writeln!(out, "    {decl} = {init};");
}

/// A C expression for input pointer `v` of `test` (into its input heap),
/// of type pointer to `pointee` (`void *` for `None`).
pub(crate) fn input_pointer_expr(suite: &TestSuite, test: &TestCase, v: &HeapValue, pointee: Option<&CType>) -> String {
    match v {
        HeapValue::Ref { obj, offset } => match input_objects(test).get(obj) {
            Some(o) => pointer_expr(&suite.structs, o, *offset, pointee),
            None => format!("0 /* object {obj} is not in the input heap */"),
        },
        HeapValue::Null => "0".to_string(),
        other => format!("0 /* not a pointer input: {other:?} */"),
    }
}

/// Zero every input object (or fill it with its byte of `fills`, see
/// `c_frame.rs`), then set its known cells (after all objects exist, so
/// links, aliases and cycles need no particular order).
pub(crate) fn write_heap_stores(out: &mut String, suite: &TestSuite, test: &TestCase, fills: &BTreeMap<u32, u8>) {
    let structs = &suite.structs;
    let objs = input_objects(test);
    for obj in sorted(&test.heap_in) {
        let o = &objs[&obj.id];
        let size = size_expr(structs, obj, &o.elem);
        match fills.get(&obj.id) {
            Some(b) => _ = writeln!(out, "    __builtin_memset({}, 0x{b:02x}, {size});", o.var),
            None => _ = writeln!(out, "    __builtin_memset({}, 0, {size});", o.var),
        }
    }
    for obj in sorted(&test.heap_in) {
        let o = &objs[&obj.id];
        // Bit-fields by name, from the bytes that hold them.
        for (at, v) in bit_field_cells(structs, obj) {
            if let CType::Int { c_name, ty } = &at.scalar.cty {
                let _ = writeln!(out, "    {} = {};", cell_lvalue(&o.var, obj, &at), c_literal(v, *ty, c_name));
            }
        }
        for cell in obj.cells.iter().filter(|c| !is_bit_storage(structs, obj, c)) {
            let Some(at) = cell_at(structs, obj, cell.offset, &cell.path) else {
                let _ = writeln!(out, "    /* {}: no scalar at byte {} */", o.shown, cell.offset);
                continue;
            };
            let lvalue = cell_lvalue(&o.var, obj, &at);
            let value = match (&cell.value, &at.scalar.cty) {
                (HeapValue::Int(v), CType::Int { c_name, ty }) => c_literal(*v, *ty, c_name),
                (HeapValue::Null, CType::Ptr(_)) => "0".to_string(),
                (HeapValue::Function(name), CType::Ptr(_)) => name.clone(),
                (HeapValue::Ref { obj: target, offset }, CType::Ptr(pointee)) => match objs.get(target) {
                    Some(t) => pointer_expr(structs, t, *offset, Some(pointee)),
                    None => continue,
                },
                // Opaque pointers (and values that do not fit the cell's
                // type, which the engine should not produce) stay zero.
                _ => continue,
            };
            let _ = writeln!(out, "    {lvalue} = {value};");
        }
    }
}

/// The comment's description of heap parameter `p`'s input:
/// `&o1 {data=3, next=&o2}` (contents at the first mention of an object).
pub(crate) fn heap_input_summary(
    suite: &TestSuite,
    test: &TestCase,
    value: Option<&InputValue>,
    shown: &mut BTreeSet<u32>,
) -> String {
    match value {
        Some(InputValue::Pointer(HeapValue::Ref { obj, offset })) => {
            let target = crate::heap::find(&test.heap_in, *obj);
            let mut s = shown_ref(&suite.structs, target, &format!("o{obj}"), *offset);
            if let Some(t) = target {
                if shown.insert(*obj) {
                    s.push(' ');
                    s.push_str(&shown_contents(suite, &test.heap_in, t));
                }
            }
            s
        }
        Some(InputValue::Pointer(HeapValue::Null)) => "NULL".to_string(),
        _ => "?".to_string(),
    }
}

/// The input objects no parameter points to directly: `o2 = {data=4, next=NULL}`.
pub(crate) fn other_objects_summary(suite: &TestSuite, test: &TestCase, shown: &BTreeSet<u32>) -> Vec<String> {
    sorted(&test.heap_in)
        .into_iter()
        .filter(|o| !shown.contains(&o.id))
        .map(|o| format!("o{} = {}", o.id, shown_contents(suite, &test.heap_in, o)))
        .collect()
}

/// Emit the checks of the output heap; `ret` is the C variable holding the
/// returned pointer (when the function returns one to check). Returns the
/// variables bound to objects the call allocated (and did not free), which
/// the test frees once every check is done.
pub(crate) fn write_heap_checks(
    out: &mut String,
    used: &mut Used,
    suite: &TestSuite,
    test: &TestCase,
    ret: Option<&str>,
) -> Vec<String> {
    let mut c = Checker {
        suite,
        id: test.id,
        out: String::new(),
        used,
        objs: input_objects(test),
        after: test.heap_out.iter().map(|o| (o.id, o.clone())).collect(),
        new_vars: Vec::new(),
        locals: crate::describe::param_locals(suite),
    };
    if let (Some(var), Some(value)) = (ret, &test.ret_pointer) {
        let pointee = pointer_decl(&suite.structs, suite.ret.as_ref().and_then(|r| r.cty.as_ref()), "").1;
        c.check_pointer(var, "return", pointee.as_ref(), value);
    }
    let mut done = BTreeSet::new();
    while let Some(id) = c.objs.keys().copied().find(|id| !done.contains(id) && c.after.contains_key(id)) {
        done.insert(id);
        c.check_object(id);
    }
    for id in c.after.keys() {
        if !c.objs.contains_key(id) {
            let _ = writeln!(c.out, "    /* object {id}: not reached by a checked pointer */");
        }
    }
    // A new object whose cells are all opaque is bound but never read.
    for (_, var) in &c.new_vars {
        if mentions(&c.out, var) < 2 {
            let _ = writeln!(c.out, "    (void){var};");
        }
    }
    out.push_str(&c.out);
    c.new_vars
        .iter()
        .filter(|(obj, _)| c.after.get(obj).is_some_and(|o| o.allocated && !o.freed))
        .map(|(_, var)| var.clone())
        .collect()
}

/// At the end of a test that returned: free what it allocated (the input
/// objects the call did not free) and the objects the call allocated that
/// the checks bound (`allocated`), so that a test kept in a suite run under
/// a leak checker reports only the code's own leaks.
pub(crate) fn write_heap_frees(out: &mut String, test: &TestCase, allocated: &[String]) {
    for obj in sorted(&test.heap_in) {
        if obj.freed {
            let _ = writeln!(out, "    /* o{}: freed by the call */", obj.id);
        } else {
            let _ = writeln!(out, "    __builtin_free(pathwise_o{});", obj.id);
        }
    }
    for var in allocated {
        let _ = writeln!(out, "    __builtin_free({var});");
    }
}

/// Occurrences of identifier `var` in `text` (not as part of a longer one).
fn mentions(text: &str, var: &str) -> usize {
    text.match_indices(var)
        .filter(|(i, _)| {
            let next = text[i + var.len()..].chars().next();
            !matches!(next, Some(ch) if ch.is_ascii_alphanumeric() || ch == '_')
        })
        .count()
}

/// State of the output-heap checks of one test.
struct Checker<'a> {
    suite: &'a TestSuite,
    id: usize,
    out: String,
    used: &'a mut Used,
    /// Objects bound to C variables: the input ones, then new ones as they
    /// are reached.
    objs: BTreeMap<u32, Obj>,
    /// The output heap by id (objects of unknown type retyped by the
    /// pointer that binds them).
    after: BTreeMap<u32, HeapObject>,
    /// Variables bound to new objects, with the objects' ids.
    new_vars: Vec<(u32, String)>,
    /// The locals holding the parameters' inputs (see `param_locals`).
    locals: Vec<String>,
}

impl Checker<'_> {
    /// Check every cell of bound object `id` against the output heap.
    fn check_object(&mut self, id: u32) {
        let obj = &self.after[&id].clone();
        let (var, shown) = (self.objs[&id].var.clone(), self.objs[&id].shown.clone());
        if obj.freed {
            let _ = writeln!(self.out, "    /* {shown}: freed by the call */");
            return;
        }
        if let Some(text) = text_contents(obj) {
            // A string the call built or returned: compared as one.
            self.used.bytes = true;
            let _ = writeln!(
                self.out,
                "    pathwise_failed |= pathwise_check_bytes({}, \"{shown}\", {}, {}, (const void *)({var}));",
                self.id,
                crate::literal::c_string_literal(&text),
                text.len() + 1
            );
            return;
        }
        let structs = &self.suite.structs;
        for cell in obj.cells.iter().filter(|c| !is_bit_storage(structs, obj, c)) {
            let Some(at) = cell_at(structs, obj, cell.offset, &cell.path) else {
                let _ = writeln!(self.out, "    /* {shown}: no scalar at byte {} */", cell.offset);
                continue;
            };
            let got = cell_lvalue(&var, obj, &at);
            let what = cell_lvalue(&shown, obj, &at);
            self.check_cell(&got, &what, &at, &cell.value);
        }
        for (at, v) in bit_field_cells(structs, obj) {
            let got = cell_lvalue(&var, obj, &at);
            let what = cell_lvalue(&shown, obj, &at);
            self.check_cell(&got, &what, &at, &HeapValue::Int(v));
        }
    }

    fn check_cell(&mut self, got: &str, what: &str, at: &CellAt, value: &HeapValue) {
        match (value, &at.scalar.cty) {
            (HeapValue::Int(v), CType::Int { c_name, ty }) => {
                let src = SrcVar {
                    name: String::new(),
                    c_scalar: c_name.clone(),
                    scalar: *ty,
                    shape: Shape::Scalar,
                    cty: None,
                };
                write_scalar_check(&mut self.out, self.used, self.id, what, (&src, &[]), *v, got);
            }
            (HeapValue::Opaque, _) => {}
            (
                HeapValue::Null
                | HeapValue::Ref { .. }
                | HeapValue::Param { .. }
                | HeapValue::Global { .. }
                | HeapValue::Constant { .. }
                | HeapValue::Function(_),
                CType::Ptr(pointee),
            ) => {
                let pointee = (**pointee).clone();
                self.check_pointer(got, what, Some(&pointee), value);
            }
            _ => {
                // (A pointer in an integer cell or the reverse: the type
                // the test declares cannot hold what the run stored.)
                let _ = writeln!(self.out, "    /* {what}: not checked (its value does not fit its C type) */");
            }
        }
    }

    /// Check (or bind) the pointer `got` (a C expression of type pointer to
    /// `pointee`), named `what` in messages.
    fn check_pointer(&mut self, got: &str, what: &str, pointee: Option<&CType>, value: &HeapValue) {
        let (id, structs) = (self.id, &self.suite.structs);
        let (expected, text) = match value {
            HeapValue::Opaque | HeapValue::Int(_) => return,
            HeapValue::Null => ("(void *)0".to_string(), "NULL".to_string()),
            // gcc converts a function's address to `void *` (a GNU extension
            // ISO C leaves to the implementation), which is all a check needs.
            HeapValue::Function(name) => (format!("(void *){name}"), name.clone()),
            HeapValue::Ref { obj, offset } => match self.objs.get(obj) {
                Some(o) => (pointer_expr(structs, o, *offset, None), shown_pointer(structs, o, *offset)),
                None => return self.bind(got, what, pointee, *obj, *offset),
            },
            HeapValue::Param { param, offset } => {
                let (Some(p), Some(local)) = (self.suite.params.get(*param), self.locals.get(*param)) else { return };
                let es = p.scalar.ty.bytes();
                let text = crate::heap::shown_into(&crate::describe::param_name(*param, p), es, *offset);
                (array_pointer(local, es, *offset), text)
            }
            HeapValue::Global { .. } | HeapValue::Constant { .. } => {
                let Some((src, offset)) = value.global_src(self.suite) else { return };
                let es = src.scalar.ty.bytes();
                // Through a pointer to the element type: flat, whatever the
                // array's dimensions (explicit casts: a `const` object's
                // address compares as any other).
                let base = match src.shape {
                    Shape::Array(_) => format!("(({} *){})", src.c_scalar, src.name),
                    _ => format!("&{}", src.name),
                };
                (array_pointer(&base, es, offset), crate::heap::shown_into(&src.name, es, offset))
            }
        };
        self.used.pointer = true;
        let _ = writeln!(
            self.out,
            "    pathwise_failed |= pathwise_check_pointer({id}, \"{what}\", {expected}, \"{text}\", (void *)({got}));"
        );
    }

    /// Bind the new object `obj`, which pointer `got` reaches at byte
    /// `offset`, to a fresh variable after checking that it is one.
    fn bind(&mut self, got: &str, what: &str, pointee: Option<&CType>, obj: u32, offset: u64) {
        let Some(target) = self.after.get_mut(&obj) else {
            let _ = writeln!(self.out, "    /* {what}: object {obj} is not in the output heap */");
            return;
        };
        // Storage the engine could not type (`void`) has the type of the
        // first pointer that reaches it.
        if let (CType::Void, Some(p), 0) = (&target.cty, pointee, offset) {
            if *p != CType::Void {
                target.cty = p.clone();
            }
        }
        let elem = elem_type(target);
        let structs = &self.suite.structs;
        // Objects the new one must differ from: every bound, live one
        // (a freed input object's storage may be reused by the allocator).
        let known: Vec<String> = self
            .objs
            .iter()
            .filter(|(k, _)| self.after.get(k).is_some_and(|o| !o.freed))
            .map(|(_, o)| format!("(void *){}", o.var))
            .collect();
        let known = if known.is_empty() {
            "0, 0".to_string()
        } else {
            format!("(void *[]){{{}}}, {}", known.join(", "), known.len())
        };
        self.used.fresh = true;
        let _ = writeln!(
            self.out,
            "    if (pathwise_check_fresh({}, \"{what}\", (void *)({got}), {offset}, {known}))\n        return 1;",
            self.id
        );
        let var = format!("pathwise_n{obj}");
        let decl = CType::Ptr(Box::new(elem.clone())).declare(structs, &var);
        // The returned pointer, or a member (`const char *name`), may
        // point to `const`, which the C types here do not keep: cast it.
        let init = if offset == 0 && is_postfix(got) {
            format!("({}){got}", type_name(structs, &CType::Ptr(Box::new(elem.clone()))))
        } else if offset == 0 {
            format!("({})({got})", type_name(structs, &CType::Ptr(Box::new(elem.clone()))))
        } else {
            format!("({})((char *)({got}) - {offset})", type_name(structs, &CType::Ptr(Box::new(elem.clone()))))
        };
        let _ = writeln!(self.out, "    {decl} = {init};");
        let shown = if offset == 0 { what.to_string() } else { format!("n{obj}") };
        self.new_vars.push((obj, var.clone()));
        self.objs.insert(obj, Obj { var, shown, elem });
    }
}

/// Whether C expression `e` is a postfix expression (`p`, `p->next`,
/// `n1[0].name`), which a cast needs no parentheses around.
fn is_postfix(e: &str) -> bool {
    let plain = e.replace("->", ".");
    !e.is_empty()
        && e.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && plain.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '[' | ']'))
}

/// The bytes of an object of 8-bit integers whose every element is known
/// and holds text (see [`crate::literal::text_bytes`]), without the final
/// terminator.
fn text_contents(obj: &HeapObject) -> Option<Vec<u8>> {
    let CType::Int { ty, .. } = &obj.cty else { return None };
    let values: Option<Vec<i128>> = (0..obj.count)
        .map(|i| match obj.cells.iter().find(|c| c.offset == i) {
            Some(HeapCell { value: HeapValue::Int(v), .. }) => Some(*v),
            _ => None,
        })
        .collect();
    crate::literal::text_bytes(&values?, *ty)
}

/// The helpers the heap checks use (emitted only when used).
pub(crate) fn write_heap_helpers(out: &mut String, used: &Used) {
    if used.pointer {
        out.push_str(
            "static int pathwise_check_pointer(int test, const char *what, void *expected, const char *expected_text, void *got)\n\
             {\n    if (expected == got)\n        return 0;\n    \
             if (got == 0)\n        pathwise_printf(\"test %d: %s expected %s got NULL\\n\", test, what, expected_text);\n    \
             else\n        pathwise_printf(\"test %d: %s expected %s got %p\\n\", test, what, expected_text, got);\n    \
             return 1;\n}\n\n",
        );
    }
    if used.bytes {
        out.push_str(
            "/* The first `n` bytes at `got` are those of `expected`. */\n\
             static int pathwise_check_bytes(int test, const char *what, const char *expected, unsigned long n, const void *got)\n\
             {\n    const unsigned char *g = (const unsigned char *)got;\n    unsigned long i;\n    \
             for (i = 0; i < n; i++)\n        \
             if (g[i] != (unsigned char)expected[i]) {\n            \
             pathwise_printf(\"test %d: %s[%lu] expected %d got %d\\n\", test, what, i, (unsigned char)expected[i], g[i]);\n            \
             return 1;\n        }\n    \
             return 0;\n}\n\n",
        );
    }
    if used.fresh {
        out.push_str(
            "/* A pointer to byte `offset` of an object the call allocated: not null, not a known object. */\n\
             static int pathwise_check_fresh(int test, const char *what, void *got, unsigned long offset, void **known, int n)\n\
             {\n    int i;\n    \
             if (got == 0) {\n        pathwise_printf(\"test %d: %s expected a new object got NULL\\n\", test, what);\n        return 1;\n    }\n    \
             for (i = 0; i < n; i++)\n        \
             if ((char *)got - offset == (char *)known[i]) {\n            \
             pathwise_printf(\"test %d: %s expected a new object got an existing one\\n\", test, what);\n            return 1;\n        }\n    \
             return 0;\n}\n\n",
        );
    }
}

#[cfg(test)]
#[path = "c_heap_tests.rs"]
pub(crate) mod tests;
