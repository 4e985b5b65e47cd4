//! The memory model of one run: objects of bytes holding typed scalar cells.
//!
//! An object is `size` bytes with a declared element type `elem` (`i8` for
//! structures, unions and `malloc`'d storage). Cells are sparse: only
//! written (or, for input objects, read) scalars are stored, keyed by byte
//! offset, each with its own type, so a 100,000-element local array costs
//! nothing until it is used, and a structure holds an `i32` next to a
//! pointer. Bytes no cell covers hold the object's initial content: zero,
//! the input array's values, or (for lazily materialised heap inputs) the
//! initial field values recorded in `initial_cells`.
//!
//! Input arrays are solver arrays indexed by byte offset: their initial
//! cells read as `select(A, o)` and their length is a solver variable, so
//! the generator chooses both.
//!
//! Symbolic content has two modes:
//! - cells: each cell has its own value (with optional expression);
//! - whole-array: after a write at a symbolic offset the object's content is
//!   one array expression (stores over the initial content), which keeps
//!   symbolic indices exact without case splits (seed 002, section 5, done
//!   with the solver's array theory). Accesses of the element type may
//!   use symbolic offsets, and so may integer accesses of byte storage
//!   (`i8` objects: structures, `malloc`'d memory: `h->items[h->size]`
//!   in a local `struct heap`), which read and write the array's bytes,
//!   little-endian, at fixed or symbolic offsets; the executor fixes
//!   other symbolic offsets first.
//!
//! An input array read as another integer type (a `uint32_t` out of a
//! `char *` buffer, bytes of an `int *`) is assembled from its elements'
//! bytes; only pointers cannot be read out of integer data.
//!
//! Concrete values are always kept in the cells, so execution never waits
//! for the solver.
//!
//! Storage from `malloc` (and the part `realloc` adds) starts
//! uninitialised: each such object keeps the byte ranges never written
//! (`uninit`), which writes shrink and library copies carry along byte by
//! byte (see [`crate::memcheck`]). The bytes still read as zero, so the
//! interpreter's concrete semantics do not depend on the check.

// The input heaps, aliasing and the checks of memory built on the object
// model of this module.
pub mod alloc_fail;
pub mod contracts;
pub mod heap;
pub mod heap_assume;
pub mod heap_count;
pub mod heap_index;
pub mod heap_out;
pub mod heap_share;
pub mod heap_tail;
pub mod joins;
pub mod memcheck;
pub mod null_params;

use std::collections::BTreeMap;

use pathwise_expr::{BvOp, ExprId, ExprPool};
use pathwise_ir::{CType, Type};

use crate::value::{ObjId, Pointer, Value};
use pathwise_ir::x87::X87;

/// Where an object comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjKind {
    Local,
    Global,
    /// The input array of parameter `param`.
    Input {
        param: usize,
    },
    /// Storage from `malloc`, `calloc` or `realloc`.
    Heap,
    /// An input object materialised lazily, with its identity in reference
    /// expressions (see [`crate::heap`]).
    HeapInput {
        ident: u32,
    },
    /// The code of a function, what a function pointer points to: no
    /// bytes (any load or store through it is out of bounds), one object
    /// per function and run, so pointers to one function compare equal.
    Code {
        func: pathwise_ir::FuncId,
    },
}

/// The symbolic identity of an input array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputArray {
    /// Array variable: byte offset (64 bits) to element bits.
    pub array: ExprId,
    /// Length variable (64 bits, in elements).
    pub len: ExprId,
}

/// One memory object.
#[derive(Clone, Debug)]
pub struct Object {
    pub kind: ObjKind,
    pub elem: Type,
    /// Size in bytes.
    size: u64,
    /// Written cells by byte offset.
    cells: BTreeMap<u64, (Type, Value)>,
    /// Initial values of a heap input object's scalars, as first read.
    initial_cells: BTreeMap<u64, (Type, Value)>,
    /// Concrete initial values of an input array (from the assignment).
    initial: Option<pathwise_expr::ArrayValue>,
    pub input: Option<InputArray>,
    /// Whole-array symbolic content, once a symbolic-offset write happened.
    whole: Option<ExprId>,
    /// Highest byte offset accessed (for sizing free input arrays).
    pub max_accessed: Option<u64>,
    /// Released by `free` (or `realloc`).
    pub freed: bool,
    /// The C type of the object's elements, when known (heap inputs).
    pub cty: Option<CType>,
    /// Where the program allocated it (`malloc`, `calloc`, `realloc`).
    pub alloc: Option<Allocation>,
    /// Byte ranges `start -> end` never written (only `malloc`'d storage).
    uninit: BTreeMap<u64, u64>,
    /// The size's expression (64-bit bytes) when the program allocated it
    /// with a symbolic size: accesses are checked against it, so that the
    /// path does not fix the size (see [`crate::alloc`]).
    pub size_sym: Option<ExprId>,
}

/// The allocation that created a heap object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allocation {
    /// The call's location.
    pub site: pathwise_ir::Loc,
    /// 1 for the run's first allocation, 2 for the second...: what a native
    /// test counting the code's allocations sees.
    pub ordinal: u32,
}

impl Object {
    pub fn count(&self) -> u64 {
        self.size / self.elem.bytes()
    }

    pub fn size_bytes(&self) -> u64 {
        self.size
    }

    /// Lengthens a free input array to `size` bytes in place (see
    /// `Exec::grow_free_input`): its further elements are initial values
    /// of the same assignment, as if the run had started with them.
    /// The concrete initial value of an input array's element at byte
    /// offset `off` (0 past what the inputs give).
    pub fn initial_at(&self, off: u64) -> u64 {
        self.initial.as_ref().map_or(0, |a| a.get(off))
    }

    pub fn grow_input(&mut self, size: u64) {
        debug_assert!(self.input.is_some() && size >= self.size);
        self.size = self.size.max(size);
    }

    /// Whether nothing was written to the object (its content is still
    /// its initial one, as first built).
    pub fn pristine(&self) -> bool {
        self.cells.is_empty() && self.whole.is_none()
    }

    /// All initial values recorded for a heap input object.
    pub fn initial_cells(&self) -> impl Iterator<Item = (u64, Type, Value)> + '_ {
        self.initial_cells.iter().map(|(&o, &(t, v))| (o, t, v))
    }

    /// Whether a written or recorded initial cell overlaps a `ty` at `off`.
    pub fn covered(&self, off: u64, ty: Type) -> bool {
        overlaps_any(&self.cells, off, ty) || overlaps_any(&self.initial_cells, off, ty)
    }

    /// The type of the scalar that starts at `off`, written or initial.
    pub fn cell_type_at(&self, off: u64) -> Option<Type> {
        match self.cells.get(&off) {
            Some(&(t, _)) => Some(t),
            None => self.initial_cells.get(&off).filter(|(t, _)| !overlaps_any(&self.cells, off, *t)).map(|&(t, _)| t),
        }
    }

    /// How many of the `len` bytes from `off` were never written.
    pub fn uninit_bytes(&self, off: u64, len: u64) -> u64 {
        let end = off.saturating_add(len);
        let mut n = 0;
        for (&s, &e) in self.uninit.range(..end) {
            if e > off {
                n += e.min(end) - s.max(off);
            }
        }
        n
    }

    /// Mark `[off, off + len)` initialised (written).
    fn mark_init(&mut self, off: u64, len: u64) {
        if self.uninit.is_empty() {
            return;
        }
        let end = off.saturating_add(len);
        let hit: Vec<(u64, u64)> = self.uninit.range(..end).filter(|(_, &e)| e > off).map(|(&s, &e)| (s, e)).collect();
        for (s, e) in hit {
            self.uninit.remove(&s);
            if s < off {
                self.uninit.insert(s, off);
            }
            if e > end {
                self.uninit.insert(end, e);
            }
        }
    }

    /// Current scalars (written cells over recorded initial ones), by offset.
    pub fn current_cells(&self) -> Vec<(u64, Type, Value)> {
        let mut all: BTreeMap<u64, (Type, Value)> = self.initial_cells.clone();
        for (&o, &c) in &self.cells {
            all.retain(|&io, &mut (it, _)| io + it.bytes() <= o || io >= o + c.0.bytes());
            all.insert(o, c);
        }
        all.into_iter().map(|(o, (t, v))| (o, t, v)).collect()
    }
}

/// Why an access failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccessError {
    Null,
    OutOfBounds {
        offset: i64,
        size: u64,
    },
    /// Access to an object after `free`.
    Freed,
    /// Type or alignment mismatch (e.g. reading a pointer as an integer).
    Unsupported(String),
}

/// All objects of a run.
#[derive(Default)]
pub struct Memory {
    objects: Vec<Object>,
    /// Allocations by the program so far (see [`Allocation::ordinal`]).
    heap_allocs: u32,
    /// The code object of each function whose address the run took.
    code: BTreeMap<pathwise_ir::FuncId, ObjId>,
    /// Whether a symbolic `long double` was ever stored (the only cells
    /// [`Memory::symbolic_f80_overlapping`] looks for: most runs have none,
    /// and every access asks).
    symbolic_f80: bool,
}

impl Memory {
    pub fn new() -> Memory {
        Memory::default()
    }

    /// Allocate `count` elements of `elem`, all bytes zero.
    pub fn alloc(&mut self, kind: ObjKind, elem: Type, count: u64) -> ObjId {
        self.alloc_bytes(kind, elem, count.saturating_mul(elem.bytes()))
    }

    /// Allocate `size` bytes whose declared element type is `elem`.
    pub fn alloc_bytes(&mut self, kind: ObjKind, elem: Type, size: u64) -> ObjId {
        // Floating elements are cells of their bits: accesses (which the
        // interpreter normalises the same way) then match the element type.
        let elem = elem.bits_type();
        let id = ObjId(self.objects.len() as u32);
        self.objects.push(Object {
            kind,
            elem,
            size,
            cells: BTreeMap::new(),
            initial_cells: BTreeMap::new(),
            initial: None,
            input: None,
            whole: None,
            max_accessed: None,
            freed: false,
            cty: None,
            alloc: None,
            uninit: BTreeMap::new(),
            size_sym: None,
        });
        id
    }

    /// The object a pointer to function `func` points to (created on first use).
    pub fn code_object(&mut self, func: pathwise_ir::FuncId) -> ObjId {
        if let Some(&o) = self.code.get(&func) {
            return o;
        }
        let o = self.alloc_bytes(ObjKind::Code { func }, Type::I8, 0);
        self.code.insert(func, o);
        o
    }

    /// The function whose code object `id` is, if it is one.
    pub fn code_func(&self, id: ObjId) -> Option<pathwise_ir::FuncId> {
        match self.objects[id.0 as usize].kind {
            ObjKind::Code { func } => Some(func),
            _ => None,
        }
    }

    /// Enlarge object `id` to `size` bytes (a heap input object whose
    /// element count grew); never shrinks it.
    pub fn grow(&mut self, id: ObjId, size: u64) {
        let o = &mut self.objects[id.0 as usize];
        o.size = o.size.max(size);
    }

    /// Give `malloc`'d storage, allocated as bytes, the element type `ty` of
    /// an access with a symbolic offset, so that the access indexes its
    /// whole-array content instead of fixing the offset: only while every
    /// cell written is a `ty` at a multiple of its size (what the program
    /// stored through an `int *`, or nothing yet). Returns whether it did.
    pub fn adopt_elem(&mut self, id: ObjId, ty: Type) -> bool {
        let o = &mut self.objects[id.0 as usize];
        let w = ty.bytes();
        let fits = o.kind == ObjKind::Heap
            && o.elem == Type::I8
            && ty.is_int()
            && w > 1
            && o.whole.is_none()
            && o.size.is_multiple_of(w)
            && o.cells.iter().all(|(&off, &(t, _))| t == ty && off.is_multiple_of(w));
        if fits {
            o.elem = ty;
        }
        fits
    }

    /// The allocation calls of the run so far.
    pub fn allocations(&self) -> u32 {
        self.heap_allocs
    }

    /// Count an allocation call that returns null: it has an ordinal, as
    /// natively, but no object.
    pub fn failed_alloc(&mut self) {
        self.heap_allocs += 1;
    }

    /// Allocate `size` bytes for the program's `malloc` (`uninit`: its
    /// content is indeterminate) or `calloc` (zero) at `site`.
    pub fn alloc_heap(&mut self, size: u64, site: pathwise_ir::Loc, uninit: bool) -> ObjId {
        let id = self.unnumbered_heap(size, uninit);
        self.heap_allocs += 1;
        self.objects[id.0 as usize].alloc = Some(Allocation { site, ordinal: self.heap_allocs });
        id
    }

    /// A heap object the C library allocates with its own `malloc`
    /// (`getline`'s buffer): no allocation the tests count (no ordinal),
    /// and no leak the tests could observe (see `memcheck::leak`).
    pub fn alloc_library_heap(&mut self, size: u64) -> ObjId {
        self.unnumbered_heap(size, true)
    }

    /// A heap object of `size` bytes, uninitialised if asked, without an
    /// allocation record.
    fn unnumbered_heap(&mut self, size: u64, uninit: bool) -> ObjId {
        let id = self.alloc_bytes(ObjKind::Heap, Type::I8, size);
        if uninit && size > 0 {
            self.objects[id.0 as usize].uninit.insert(0, size);
        }
        id
    }

    /// Mark every byte of object `id` uninitialised (a local variable
    /// without an initialiser: its value is indeterminate, C11 6.7.9p10).
    pub fn mark_unwritten(&mut self, id: ObjId) {
        let o = &mut self.objects[id.0 as usize];
        let size = o.size_bytes();
        if size > 0 {
            o.uninit.clear();
            o.uninit.insert(0, size);
        }
    }

    /// Mark byte `off` of an object uninitialised (a copy of an
    /// uninitialised heap byte); its cell, if any, goes.
    pub fn mark_uninit(&mut self, pool: &mut ExprPool, id: ObjId, off: u64) {
        // Input objects keep their (initialised) input values: missing an
        // error there is better than describing an output wrongly.
        if matches!(self.objects[id.0 as usize].kind, ObjKind::Input { .. } | ObjKind::HeapInput { .. })
            || self.objects[id.0 as usize].whole.is_some()
        {
            return;
        }
        self.split_overlapping(pool, id, off, Type::I8);
        let o = &mut self.objects[id.0 as usize];
        o.cells.remove(&off);
        o.mark_init(off, 1);
        // Merge with neighbours so that ranges stay few.
        let start = match o.uninit.range(..off).next_back() {
            Some((&s, &e)) if e == off => s,
            _ => off,
        };
        let end = match o.uninit.get(&(off + 1)) {
            Some(&e) => {
                o.uninit.remove(&(off + 1));
                e
            }
            None => off + 1,
        };
        o.uninit.insert(start, end);
    }

    /// Allocate an input array of `count` elements with the given initial
    /// values and symbolic identity.
    pub fn alloc_input(
        &mut self,
        param: usize,
        elem: Type,
        count: u64,
        initial: pathwise_expr::ArrayValue,
        input: InputArray,
    ) -> ObjId {
        let id = self.alloc(ObjKind::Input { param }, elem, count);
        let o = &mut self.objects[id.0 as usize];
        o.initial = Some(initial);
        o.input = Some(input);
        id
    }

    pub fn object(&self, id: ObjId) -> &Object {
        &self.objects[id.0 as usize]
    }

    pub fn object_mut(&mut self, id: ObjId) -> &mut Object {
        &mut self.objects[id.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.objects.len()
    }

    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    /// Initialise a cell concretely (globals' initial values).
    pub fn init_cell(&mut self, id: ObjId, index: u64, v: Value) {
        let o = &mut self.objects[id.0 as usize];
        let elem = o.elem;
        if v.conc() != 0 {
            o.cells.insert(index * elem.bytes(), (elem, v));
        }
    }

    /// Initialise a pointer cell at byte `off` (a global's relocation).
    pub fn init_pointer(&mut self, id: ObjId, off: u64, p: Pointer) {
        self.objects[id.0 as usize].cells.insert(off, (Type::Ptr, Value::Ptr(p)));
    }

    /// Record the initial value of a heap input's scalar (first read).
    pub fn set_initial(&mut self, id: ObjId, off: u64, ty: Type, v: Value) {
        self.symbolic_f80 |= ty == Type::F80 && v.sym().is_some();
        self.objects[id.0 as usize].initial_cells.insert(off, (ty, v));
    }

    /// Check that a concrete access of type `ty` at `p` lies inside a live
    /// object, and return (object, byte offset).
    pub fn locate(&self, p: &Pointer, ty: Type) -> Result<(ObjId, u64), AccessError> {
        let id = p.obj.ok_or(AccessError::Null)?;
        let o = self.object(id);
        if o.freed {
            return Err(AccessError::Freed);
        }
        let off = p.off as i64;
        // An input array read as another integer type (a `char *` buffer
        // read as `uint32_t`s) is assembled from its elements' bytes; a
        // pointer has no bytes an input array could hold.
        let other_type = ty.bytes() != o.elem.bytes() || !p.off.is_multiple_of(o.elem.bytes());
        if o.input.is_some() && (ty == Type::Ptr || o.elem == Type::Ptr) && other_type {
            return Err(AccessError::Unsupported(format!(
                "access as {ty} at byte offset {} of an input array of {} elements",
                p.off, o.elem
            )));
        }
        if off < 0 || (off as u64).saturating_add(ty.bytes()) > o.size {
            return Err(AccessError::OutOfBounds { offset: off, size: o.size });
        }
        Ok((id, p.off))
    }

    /// Remember the highest byte touched by an access of `ty` at `off`.
    fn note_access(&mut self, id: ObjId, off: u64, ty: Type) {
        let off = off.saturating_add(ty.bytes().max(1) - 1);
        let o = &mut self.objects[id.0 as usize];
        o.max_accessed = Some(o.max_accessed.map_or(off, |m| m.max(off)));
    }

    /// The cell of exactly `ty` at `off`, written or initial, if any.
    fn exact(&self, id: ObjId, off: u64, ty: Type) -> Option<Value> {
        let o = self.object(id);
        let hit = o.cells.get(&off).or_else(|| o.initial_cells.get(&off).filter(|_| !overlaps_any(&o.cells, off, ty)));
        hit.filter(|(t, _)| *t == ty || (t.bytes() == ty.bytes() && t.is_int() && ty.is_int())).map(|&(_, v)| v)
    }

    /// Read a `ty` at byte `off`; `sym_off` is the symbolic byte offset of
    /// the access, if any (then the result is read from the whole-array
    /// content). Reading a pointer where integers are stored (or the other
    /// way round) is unsupported.
    pub fn read(
        &mut self,
        pool: &mut ExprPool,
        id: ObjId,
        off: u64,
        ty: Type,
        sym_off: Option<ExprId>,
    ) -> Result<Value, AccessError> {
        self.note_access(id, off, ty);
        let o = &self.objects[id.0 as usize];
        let elem = o.elem;
        if ty == Type::Ptr {
            return match self.exact(id, off, ty) {
                Some(v @ Value::Ptr(_)) => Ok(v),
                Some(Value::Int { conc: 0, sym: None }) => Ok(Value::Ptr(Pointer::NULL)),
                None if !overlaps_any(&o.cells, off, ty) && !overlaps_any(&o.initial_cells, off, ty) => {
                    Ok(Value::Ptr(Pointer::NULL))
                }
                _ => Err(AccessError::Unsupported(format!("pointer read at byte offset {off} of integer data"))),
            };
        }
        if ty == Type::F80 {
            return self.read_f80(id, off);
        }
        let conc_val = self.read_conc(id, off, ty)?;
        let conc = conc_val & ty.mask();
        let o = &self.objects[id.0 as usize];
        let sym = match (sym_off, o.whole) {
            (Some(s), _) if ty == elem => {
                let arr = self.array_expr(pool, id);
                Some(pool.select(arr, s))
            }
            // An integer of another width at a symbolic offset (a
            // structure's `int items[8]` indexed by `h->size` in byte
            // storage, `qsort`'s byte copies of an `int` array): its
            // bytes there, little-endian.
            (Some(s), _) if elem.is_int() && ty.is_int() => {
                let arr = self.array_expr(pool, id);
                Some(bytes_at(pool, arr, elem, s, ty))
            }
            (None, Some(arr)) if ty == elem => {
                let offe = pool.bv_const(64, off);
                Some(pool.select(arr, offe))
            }
            // A wider integer at a fixed offset of byte storage (a
            // structure's `size_t` after a `memcpy` of symbolic length):
            // its bytes, little-endian.
            (None, Some(arr)) if elem.is_int() && ty.is_int() => {
                let offe = pool.bv_const(64, off);
                Some(bytes_at(pool, arr, elem, offe, ty))
            }
            (Some(_), _) | (None, Some(_)) => {
                return Err(AccessError::Unsupported(format!("access as {ty} to an array of {elem} elements")));
            }
            (None, None) => self.read_sym(pool, id, off, ty),
        };
        let sym = sym.and_then(|e| crate::value::non_const(pool, e));
        Ok(Value::Int { conc, sym })
    }

    /// A `long double` at `off`: the cell's value when one was written
    /// there, else the value of the 10 bytes there, concrete (a symbolic
    /// byte contributes its current value: `long double`s put together
    /// from input bytes are not modelled).
    fn read_f80(&self, id: ObjId, off: u64) -> Result<Value, AccessError> {
        if let Some(v) = self.exact(id, off, Type::F80) {
            return Ok(v);
        }
        let mut b = [0u8; 10];
        for (i, byte) in b.iter_mut().enumerate() {
            *byte = self.byte_at(id, off + i as u64)?;
        }
        Ok(Value::of_x87(X87::from_le_bytes(b)))
    }

    /// Concrete bits of `ty` at `off`, assembled from the cells that cover it.
    pub(crate) fn read_conc(&self, id: ObjId, off: u64, ty: Type) -> Result<u64, AccessError> {
        if let Some(v) = self.exact(id, off, ty) {
            return Ok(v.conc());
        }
        let mut bits = 0u64;
        for b in 0..ty.bytes() {
            bits |= (self.byte_at(id, off + b)? as u64) << (8 * b);
        }
        Ok(bits)
    }

    /// The concrete byte at `off` (little-endian within cells).
    fn byte_at(&self, id: ObjId, off: u64) -> Result<u8, AccessError> {
        let o = self.object(id);
        let covering = |m: &BTreeMap<u64, (Type, Value)>| {
            m.range(..=off).next_back().filter(|(&s, (t, _))| off < s + t.bytes()).map(|(&s, &(t, v))| (s, t, v))
        };
        let cell = covering(&o.cells).or_else(|| covering(&o.initial_cells));
        match cell {
            Some((_, _, Value::Ptr(p))) if p.obj.is_some() || p.off != 0 => {
                Err(AccessError::Unsupported(format!("integer read of a pointer at byte offset {off}")))
            }
            Some((s, Type::F80, v)) => Ok(v.x87().to_le_bytes()[(off - s) as usize]),
            Some((s, _, v)) => Ok((v.conc() >> (8 * (off - s))) as u8),
            None => {
                let e = o.elem.bytes();
                let start = off - off % e;
                let v = o.initial.as_ref().map_or(0, |a| a.get(start));
                Ok((v >> (8 * (off - start))) as u8)
            }
        }
    }

    /// The symbolic expression of `ty` at `off` in cell mode (`None`: concrete).
    fn read_sym(&self, pool: &mut ExprPool, id: ObjId, off: u64, ty: Type) -> Option<ExprId> {
        let o = self.object(id);
        if let Some(v) = self.exact(id, off, ty) {
            return v.sym();
        }
        let written = overlaps_any(&o.cells, off, ty) || overlaps_any(&o.initial_cells, off, ty);
        if !written {
            match o.input {
                Some(inp) if ty == o.elem => {
                    let offe = pool.bv_const(64, off);
                    return Some(pool.select(inp.array, offe));
                }
                // Another type: assembled from the elements' bytes below.
                Some(_) => {}
                None => return None,
            }
        }
        // Partial overlaps: assemble the bytes (symbolic ones by extraction).
        let mut any_sym = false;
        let acc = little_endian(pool, ty, |pool, b| self.byte_expr(pool, id, off + b, &mut any_sym));
        any_sym.then_some(acc)
    }

    fn byte_expr(&self, pool: &mut ExprPool, id: ObjId, off: u64, any_sym: &mut bool) -> ExprId {
        let o = self.object(id);
        let covering = |m: &BTreeMap<u64, (Type, Value)>| {
            m.range(..=off).next_back().filter(|(&s, (t, _))| off < s + t.bytes()).map(|(&s, &(t, v))| (s, t, v))
        };
        match covering(&o.cells).or_else(|| covering(&o.initial_cells)) {
            Some((s, t, v)) if v.sym().is_some() && t != Type::F80 => {
                *any_sym = true;
                let e = crate::value::bv_of(pool, v.conc(), v.sym(), t.bits());
                let lo = 8 * (off - s) as u32;
                pool.extract(e, lo + 7, lo)
            }
            // A byte of an input array's initial content: part of the
            // element that holds it.
            None if o.input.is_some() => {
                *any_sym = true;
                let (inp, e) = (o.input.expect("checked"), o.elem.bytes());
                let start = off - off % e;
                let offe = pool.bv_const(64, start);
                let elem = pool.select(inp.array, offe);
                let lo = 8 * (off - start) as u32;
                if e == 1 {
                    elem
                } else {
                    pool.extract(elem, lo + 7, lo)
                }
            }
            _ => {
                let b = self.byte_at(id, off).unwrap_or(0);
                pool.bv_const(8, b as u64)
            }
        }
    }

    /// Write `v` as a `ty` at byte `off`; `sym_off` as in [`Memory::read`].
    pub fn write(
        &mut self,
        pool: &mut ExprPool,
        id: ObjId,
        off: u64,
        ty: Type,
        sym_off: Option<ExprId>,
        v: Value,
    ) -> Result<(), AccessError> {
        let elem = self.objects[id.0 as usize].elem;
        self.note_access(id, off, ty);
        let whole_mode = sym_off.is_some() || self.objects[id.0 as usize].whole.is_some();
        // A pointer stored into byte storage in whole-array mode (a
        // structure's `next` beside an array indexed symbolically) is kept
        // as its cell only: pointers have no bytes the array could hold,
        // and reading them as integers is unsupported anyway.
        let pointer_field = ty == Type::Ptr && sym_off.is_none() && elem == Type::I8;
        if whole_mode && !pointer_field {
            // Integers of another width go byte by byte into the elements
            // (a `long double`'s bytes only into byte storage).
            let bytewise = elem.is_int() && (ty.is_int() || (elem == Type::I8 && ty == Type::F80 && sym_off.is_none()));
            if (ty != elem && !bytewise) || ty == Type::Ptr {
                return Err(AccessError::Unsupported(format!("access as {ty} to an array of {elem} elements")));
            }
            let mut arr = self.array_expr(pool, id);
            let at = sym_off.unwrap_or_else(|| pool.bv_const(64, off));
            if ty == elem {
                let val = crate::value::bv_of(pool, v.conc(), v.sym(), ty.bits());
                arr = pool.store(arr, at, val);
            } else {
                for b in 0..ty.bytes() {
                    let delta = pool.bv_const(64, b);
                    let at = pool.bin(BvOp::Add, at, delta);
                    let byte = cell_byte(pool, ty, v, b);
                    arr = with_byte(pool, arr, elem, at, byte);
                }
            }
            self.objects[id.0 as usize].whole = Some(arr);
        }
        self.split_overlapping(pool, id, off, ty);
        let o = &mut self.objects[id.0 as usize];
        o.cells.insert(off, (ty, v));
        self.symbolic_f80 |= ty == Type::F80 && v.sym().is_some();
        o.mark_init(off, ty.bytes());
        Ok(())
    }

    /// Before a write of `ty` at `off`: cells it partly covers keep their
    /// other bytes as byte cells (initial cells too, as written bytes).
    fn split_overlapping(&mut self, pool: &mut ExprPool, id: ObjId, off: u64, ty: Type) {
        let end = off + ty.bytes();
        let o = &self.objects[id.0 as usize];
        let hit = |m: &BTreeMap<u64, (Type, Value)>| -> Vec<(u64, Type, Value)> {
            m.range(..end)
                .filter(|(&s, (t, _))| s + t.bytes() > off && !(s == off && t.bytes() == ty.bytes()))
                .map(|(&s, &(t, v))| (s, t, v))
                .collect()
        };
        let mut parts = hit(&o.cells);
        if o.kind != ObjKind::Local && o.kind != ObjKind::Global {
            parts.extend(hit(&o.initial_cells).into_iter().filter(|(s, t, _)| !overlaps_any(&o.cells, *s, *t)));
        }
        for (s, t, v) in parts {
            self.objects[id.0 as usize].cells.remove(&s);
            for b in 0..t.bytes() {
                let at = s + b;
                if at >= off && at < end {
                    continue;
                }
                if t == Type::F80 {
                    let byte = v.x87().to_le_bytes()[b as usize];
                    self.objects[id.0 as usize].cells.insert(at, (Type::I8, Value::int(u64::from(byte))));
                    continue;
                }
                let conc = (v.conc() >> (8 * b)) & 0xff;
                let sym = v.sym().map(|e| {
                    let e = crate::value::bv_of(pool, v.conc(), Some(e), t.bits());
                    pool.extract(e, 8 * b as u32 + 7, 8 * b as u32)
                });
                self.objects[id.0 as usize].cells.insert(at, (Type::I8, Value::Int { conc, sym }));
            }
        }
    }

    /// The whole content of an integer object as an array expression,
    /// switching the object to whole-array mode.
    fn array_expr(&mut self, pool: &mut ExprPool, id: ObjId) -> ExprId {
        if let Some(arr) = self.objects[id.0 as usize].whole {
            return arr;
        }
        let o = &self.objects[id.0 as usize];
        let width = o.elem.bits();
        let mut arr = match o.input {
            Some(inp) => inp.array,
            None => {
                let zero = pool.bv_const(width, 0);
                pool.const_array(64, zero)
            }
        };
        let cells: Vec<(u64, Type, Value)> = o.cells.iter().map(|(&i, &(t, v))| (i, t, v)).collect();
        let elem = o.elem;
        for (off, t, v) in cells {
            if t == elem {
                let offe = pool.bv_const(64, off);
                let val = crate::value::bv_of(pool, v.conc(), v.sym(), width);
                arr = pool.store(arr, offe, val);
            } else if elem == Type::I8 && t != Type::Ptr {
                // Byte storage holding a wider integer (a structure's
                // field): its bytes, so that byte reads still see it.
                for b in 0..t.bytes() {
                    let offe = pool.bv_const(64, off + b);
                    let byte = cell_byte(pool, t, v, b);
                    arr = pool.store(arr, offe, byte);
                }
            }
        }
        self.objects[id.0 as usize].whole = Some(arr);
        arr
    }

    /// The `long double`s of an object, one every `stride` bytes, as their
    /// 80 bits (for outputs).
    pub fn x87_contents(&self, id: ObjId, stride: u64) -> Vec<u128> {
        let n = self.object(id).size_bytes() / stride.max(1);
        (0..n).map(|i| self.read_f80(id, i * stride).map_or(0, |v| v.x87().0)).collect()
    }

    /// The symbolic `long double` cells an access of `ty` at `off` sees
    /// byte by byte (overlapping them, not exactly one of them): their
    /// bytes are the x87 encoding of a symbolic double, which is not
    /// modelled, so the executor pins those values first.
    pub fn symbolic_f80_overlapping(&self, id: ObjId, off: u64, ty: Type) -> Vec<Value> {
        if !self.symbolic_f80 {
            return Vec::new();
        }
        let o = self.object(id);
        let end = off + ty.bytes();
        let hit = |m: &BTreeMap<u64, (Type, Value)>| -> Vec<Value> {
            m.range(off.saturating_sub(Type::F80.bytes() - 1)..end)
                .filter(|(&s, (t, v))| {
                    *t == Type::F80 && v.sym().is_some() && s + t.bytes() > off && !(s == off && ty == Type::F80)
                })
                .map(|(_, &(_, v))| v)
                .collect()
        };
        let mut found = hit(&o.cells);
        found.extend(hit(&o.initial_cells));
        found
    }

    /// Concrete contents of an object as elements of its type (for
    /// outputs; `long double` objects are byte storage).
    pub fn concrete_contents(&self, id: ObjId) -> Vec<u128> {
        let o = self.object(id);
        let e = o.elem;
        (0..o.count()).map(|i| u128::from(self.read_conc(id, i * e.bytes(), e).unwrap_or(0))).collect()
    }
}

/// A `ty` assembled from its bytes, `byte(pool, i)` being byte `i` (an
/// 8-bit expression), least significant first.
fn little_endian(pool: &mut ExprPool, ty: Type, mut byte: impl FnMut(&mut ExprPool, u64) -> ExprId) -> ExprId {
    let w = ty.bits();
    let mut acc = None;
    for b in 0..ty.bytes() {
        let e = byte(pool, b);
        let wide = pool.zext(e, w);
        let sh = pool.bv_const(w, 8 * b);
        let part = pool.bin(BvOp::Shl, wide, sh);
        acc = Some(match acc {
            None => part,
            Some(a) => pool.bin(BvOp::Or, a, part),
        });
    }
    acc.expect("a type has at least one byte")
}

/// Byte `b` of a cell of type `ty` holding `v`: a `long double`'s from
/// its 80 bits (concrete: a symbolic one is a double, whose x87 encoding
/// is not modelled).
/// The `ty` at byte offset `off` (64 bits) of array `arr` of integer
/// elements of type `elem` (indexed by byte offset), little-endian.
fn bytes_at(pool: &mut ExprPool, arr: ExprId, elem: Type, off: ExprId, ty: Type) -> ExprId {
    little_endian(pool, ty, |pool, b| {
        let delta = pool.bv_const(64, b);
        let at = pool.bin(BvOp::Add, off, delta);
        byte_at(pool, arr, elem, at)
    })
}

/// The element of `arr` holding byte `at`, and the byte's bit position
/// in it (`at`'s offset within the element, times 8).
fn element_of(pool: &mut ExprPool, elem: Type, at: ExprId) -> (ExprId, ExprId) {
    let size = pool.bv_const(64, elem.bytes());
    let within = pool.bin(BvOp::URem, at, size);
    let start = pool.bin(BvOp::Sub, at, within);
    let eight = pool.bv_const(64, 8);
    let shift = pool.bin(BvOp::Mul, within, eight);
    (start, shift)
}

/// Byte `at` of array `arr` of `elem` integers.
fn byte_at(pool: &mut ExprPool, arr: ExprId, elem: Type, at: ExprId) -> ExprId {
    if elem == Type::I8 {
        return pool.select(arr, at);
    }
    let (start, shift) = element_of(pool, elem, at);
    let e = pool.select(arr, start);
    let shift = narrow(pool, shift, elem.bits());
    let moved = pool.bin(BvOp::LShr, e, shift);
    pool.extract(moved, 7, 0)
}

/// `arr` with byte `at` set to `byte` (8 bits).
fn with_byte(pool: &mut ExprPool, arr: ExprId, elem: Type, at: ExprId, byte: ExprId) -> ExprId {
    if elem == Type::I8 {
        return pool.store(arr, at, byte);
    }
    let (start, shift) = element_of(pool, elem, at);
    let old = pool.select(arr, start);
    let w = elem.bits();
    let shift = narrow(pool, shift, w);
    let ff = pool.bv_const(w, 0xff);
    let mask = pool.bin(BvOp::Shl, ff, shift);
    let ones = pool.bv_const(w, u64::MAX >> (64 - w));
    let keep = pool.bin(BvOp::Xor, mask, ones);
    let kept = pool.bin(BvOp::And, old, keep);
    let wide = pool.zext(byte, w);
    let placed = pool.bin(BvOp::Shl, wide, shift);
    let new = pool.bin(BvOp::Or, kept, placed);
    pool.store(arr, start, new)
}

/// A 64-bit shift amount below `w` as a `w`-bit value.
fn narrow(pool: &mut ExprPool, e: ExprId, w: u32) -> ExprId {
    if w == 64 {
        e
    } else {
        pool.extract(e, w - 1, 0)
    }
}

fn cell_byte(pool: &mut ExprPool, ty: Type, v: Value, b: u64) -> ExprId {
    if ty == Type::F80 {
        return pool.bv_const(8, u64::from(v.x87().to_le_bytes()[b as usize]));
    }
    let val = crate::value::bv_of(pool, v.conc(), v.sym(), ty.bits());
    pool.extract(val, 8 * b as u32 + 7, 8 * b as u32)
}

/// Whether any cell of `m` overlaps the bytes of a `ty` at `off`.
fn overlaps_any(m: &BTreeMap<u64, (Type, Value)>, off: u64, ty: Type) -> bool {
    let end = off + ty.bytes();
    m.range(..end).next_back().is_some_and(|(&s, (t, _))| s + t.bytes() > off) || m.range(off..end).next().is_some()
}
