//! Describing a run's heaps for the emitters: the input objects the path
//! read (with the values it read) and everything reachable from the
//! parameters' input pointers and the return value at the end.
//!
//! A pointer is described by what it points into, so that a test can check
//! it as C sees it: null, an input object, the input array of a pointer
//! parameter (`strchr` returning a pointer into its argument), a global the
//! test can name (a static buffer), or an object of the output heap with
//! its contents (one the code allocated, or constant storage such as a
//! string literal, whose bytes are all the test can compare).

use std::collections::VecDeque;

use pathwise_ir::{CType, Program, Type};
use rustc_hash::FxHashMap;

use crate::memory::{Memory, ObjKind};
use crate::suite::{HeapCell, HeapObject, HeapValue};
use crate::value::{ObjId, Value};

/// The heaps of one test.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeapRecord {
    pub heap_in: Vec<HeapObject>,
    pub heap_out: Vec<HeapObject>,
    /// Input value of each parameter of heap shape (`None` for the others).
    pub params: Vec<Option<HeapValue>>,
    /// The returned pointer, if the function returns one.
    pub ret: Option<HeapValue>,
    /// The pointers external calls returned, by call index.
    pub call_rets: Vec<(usize, HeapValue)>,
}

/// Ids of objects in the test's description, and the globals the test
/// can name (by object, their index in the suite's globals).
struct Ids {
    map: FxHashMap<ObjId, u32>,
    next: u32,
    named_globals: FxHashMap<ObjId, usize>,
    /// The `const` globals the test can name, by object.
    constants: FxHashMap<ObjId, pathwise_ir::SrcVar>,
    /// The program's function names (a function pointer is its name).
    func_names: Vec<String>,
}

impl Ids {
    fn get(&mut self, o: ObjId) -> u32 {
        if let Some(&i) = self.map.get(&o) {
            return i;
        }
        self.next += 1;
        self.map.insert(o, self.next);
        self.next
    }
}

/// The objects of the globals the test names (non-`const`, with a C
/// description, as [`crate::suite::TestSuite::globals`] lists them), by
/// object: their index in that list. `globals` are the run's objects of
/// `program.globals`, in order.
fn named_globals(program: &Program, globals: &[ObjId]) -> FxHashMap<ObjId, usize> {
    program
        .globals
        .iter()
        .zip(globals)
        .filter(|(g, _)| !g.is_const && g.src.is_some())
        .enumerate()
        .map(|(i, (_, &o))| (o, i))
        .collect()
}

/// Describe the heaps: `params` are the parameters' input values with
/// their C types and whether they are roots of the output heap (not
/// structures passed by value), `ret` the returned value with its C type
/// (and whether it is a structure returned by value), `call_rets`
/// the pointers external calls returned (by call index, with their
/// targets' types: input objects, already in the input heap), `globals`
/// the run's objects of the program's globals.
pub fn describe(
    program: &Program,
    mem: &Memory,
    params: &[(Value, Option<CType>, bool)],
    ret: Option<(Value, CType, bool)>,
    call_rets: &[(usize, Value, CType)],
    globals: &[ObjId],
) -> HeapRecord {
    let structs = &program.structs;
    let mut ids = Ids {
        map: FxHashMap::default(),
        next: 0,
        named_globals: named_globals(program, globals),
        constants: program
            .globals
            .iter()
            .zip(globals)
            .filter(|(g, _)| g.is_const)
            .filter_map(|(g, &o)| Some((o, g.src.clone()?)))
            .collect(),
        func_names: program.funcs.iter().map(|f| f.name.clone()).collect(),
    };
    let mut heap_in = Vec::new();
    for i in 0..mem.len() {
        let o = ObjId(i as u32);
        let obj = mem.object(o);
        let (ObjKind::HeapInput { .. }, Some(cty)) = (obj.kind, obj.cty.as_ref()) else { continue };
        let id = ids.get(o);
        let cells = obj.initial_cells().collect::<Vec<_>>();
        let cells = cells
            .into_iter()
            .filter_map(|(off, ty, v)| cell(program, mem, &mut ids, cty, obj.size_bytes(), off, ty, v, &mut |_, _| {}))
            .collect();
        let (count, tail) = shape(structs, cty, obj.size_bytes());
        // Whether the call freed it: the test must not free it again.
        heap_in.push(HeapObject { id, cty: cty.clone(), count, tail, cells, freed: obj.freed, allocated: false });
    }
    let mut queue: VecDeque<(ObjId, CType)> = VecDeque::new();
    let value_of =
        |ids: &mut Ids, v: &Value, cty: Option<&CType>, queue: &mut VecDeque<(ObjId, CType)>| -> Option<HeapValue> {
            let pointee = cty?.pointee()?.clone();
            Some(pointer_value(mem, ids, v, &pointee, &mut |o, t| queue.push_back((o, t))))
        };
    let mut copies = Vec::new();
    // A structure passed by value is described (its input object) but is
    // no root of the output heap: the caller's copy never changes.
    let params_v: Vec<Option<HeapValue>> = params
        .iter()
        .map(|(v, cty, root)| match root {
            true => value_of(&mut ids, v, cty.as_ref(), &mut queue),
            false => cty.as_ref().and_then(|c| c.pointee()).map(|t| pointer_value(mem, &mut ids, v, t, &mut |_, _| {})),
        })
        .collect();
    let ret_v = match &ret {
        // A structure returned by value: a copy, the test's own object.
        Some((v, cty, true)) => {
            let copy = ret_copy(program, mem, &mut ids, v, cty, &mut queue);
            copy.map(|(value, object)| {
                copies.push(object);
                value
            })
        }
        Some((v, cty, false)) => value_of(&mut ids, v, Some(cty), &mut queue),
        None => None,
    };
    let call_rets = call_rets
        .iter()
        .map(|(i, v, pointee)| (*i, pointer_value(mem, &mut ids, v, pointee, &mut |_, _| {})))
        .collect();
    let mut heap_out: Vec<HeapObject> = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    while let Some((o, cty)) = queue.pop_front() {
        if !seen.insert(o) {
            continue;
        }
        let obj = mem.object(o);
        let id = ids.get(o);
        let (count, tail) = shape(structs, &cty, obj.size_bytes());
        let mut found = Vec::new();
        let cells = if obj.freed {
            Vec::new()
        } else {
            known_cells(mem, o, &cty)
                .into_iter()
                .filter_map(|(off, ty, v)| {
                    cell(program, mem, &mut ids, &cty, obj.size_bytes(), off, ty, v, &mut |t, c| found.push((t, c)))
                })
                .collect()
        };
        queue.extend(found);
        let allocated = obj.kind == ObjKind::Heap;
        heap_out.push(HeapObject { id, cty, count, tail, cells, freed: obj.freed, allocated });
    }
    heap_out.extend(copies);
    heap_out.sort_by_key(|h| h.id);
    HeapRecord { heap_in, heap_out, params: params_v, ret: ret_v, call_rets }
}

/// The copy of the structure at `v` (of pointer type `cty`) that a
/// function returning it by value gives its caller: a new object with the
/// current cells, whose pointers are queued like any object's.
fn ret_copy(
    program: &Program,
    mem: &Memory,
    ids: &mut Ids,
    v: &Value,
    cty: &CType,
    queue: &mut VecDeque<(ObjId, CType)>,
) -> Option<(HeapValue, HeapObject)> {
    let p = v.as_ptr();
    let (o, pointee) = (p.obj?, cty.pointee()?.clone());
    let obj = mem.object(o);
    let size = pointee.size(&program.structs);
    let mut found = Vec::new();
    let cells = obj
        .current_cells()
        .into_iter()
        .filter(|(off, _, _)| *off >= p.off && *off < p.off + size)
        .filter_map(|(off, ty, val)| {
            cell(program, mem, ids, &pointee, size, off - p.off, ty, val, &mut |t, c| found.push((t, c)))
        })
        .collect();
    queue.extend(found);
    ids.next += 1;
    let id = ids.next;
    // C copies only the fixed part of a structure with a flexible array member.
    let tail = pointee.flexible(&program.structs).map(|_| 0);
    let copy = HeapObject { id, cty: pointee, count: 1, tail, cells, freed: false, allocated: false };
    Some((HeapValue::Ref { obj: id, offset: 0 }, copy))
}

/// One scalar of an object whose elements are `cty`; `None` where the
/// type says nothing is there (padding, or a mismatching access).
#[allow(clippy::too_many_arguments)]
fn cell(
    program: &Program,
    mem: &Memory,
    ids: &mut Ids,
    cty: &CType,
    size: u64,
    off: u64,
    ty: Type,
    v: Value,
    found: &mut dyn FnMut(ObjId, CType),
) -> Option<HeapCell> {
    let structs = &program.structs;
    let es = cty.size(structs).max(1);
    let at = crate::heap_tail::scalar_typed_in(structs, cty, size, off, ty)?;
    // A structure and its tail is one object (`.data[2]`), an array of
    // records is indexed (`[1].next`).
    let flexible = crate::heap_tail::tail_len(structs, cty, size).is_some();
    let index = off / es;
    let path = match flexible {
        false if size > es || index > 0 => format!("[{index}]{}", at.path),
        _ => at.path.clone(),
    };
    let value = match (&at.cty, v) {
        (CType::Int { ty: it, .. }, v) => HeapValue::Int(it.to_i128_wide(v.out_bits(Some(it.ty)))),
        (CType::Ptr(t), v) => pointer_value(mem, ids, &v, t, found),
        _ => return None,
    };
    Some(HeapCell { offset: off, path, value })
}

/// An object's element count and, for a structure with a flexible array
/// member (one structure), its tail's length.
fn shape(structs: &[pathwise_ir::StructDef], cty: &CType, size: u64) -> (u64, Option<u64>) {
    match crate::heap_tail::tail_len(structs, cty, size) {
        Some(n) => (1, Some(n)),
        None => ((size / cty.size(structs).max(1)).max(1), None),
    }
}

/// The scalars of object `o` (elements of `cty`) known at the end: its
/// cells, and for an array of integers every element written or constant
/// (zero bytes are no cells: a string's terminator, `calloc`'s storage),
/// but never bytes still uninitialised, whose native value is anyone's.
fn known_cells(mem: &Memory, o: ObjId, cty: &CType) -> Vec<(u64, Type, Value)> {
    let obj = mem.object(o);
    match cty {
        CType::Int { ty, .. } if ty.ty == obj.elem && !ty.ty.is_float() => {
            let es = obj.elem.bytes();
            mem.concrete_contents(o)
                .into_iter()
                .enumerate()
                .map(|(i, v)| (i as u64 * es, obj.elem, Value::int(v as u64)))
                .filter(|&(off, _, _)| obj.uninit_bytes(off, es) == 0)
                .collect()
        }
        _ => obj.current_cells(),
    }
}

/// A pointer as the test sees it; objects of the output heap are queued
/// with their type (objects the test can only describe by their contents:
/// allocated ones, and globals it cannot name, such as string literals).
fn pointer_value(
    mem: &Memory,
    ids: &mut Ids,
    v: &Value,
    pointee: &CType,
    found: &mut dyn FnMut(ObjId, CType),
) -> HeapValue {
    let p = v.as_ptr();
    let Some(o) = p.obj else {
        return if p.off == 0 { HeapValue::Null } else { HeapValue::Opaque };
    };
    match mem.object(o).kind {
        ObjKind::Input { param } => HeapValue::Param { param, offset: p.off },
        ObjKind::Global if ids.named_globals.contains_key(&o) => {
            HeapValue::Global { global: ids.named_globals[&o], offset: p.off }
        }
        ObjKind::Global if ids.constants.contains_key(&o) => {
            HeapValue::Constant { src: Box::new(ids.constants[&o].clone()), offset: p.off }
        }
        ObjKind::HeapInput { .. } | ObjKind::Heap | ObjKind::Global => {
            let cty = mem.object(o).cty.clone().unwrap_or_else(|| pointee.clone());
            found(o, cty);
            HeapValue::Ref { obj: ids.get(o), offset: p.off }
        }
        ObjKind::Code { func } if p.off == 0 => HeapValue::Function(ids.func_names[func.0 as usize].clone()),
        ObjKind::Local | ObjKind::Code { .. } => HeapValue::Opaque,
    }
}
