//! The memory model of one run: typed objects addressed by byte offsets.
//!
//! Every object holds `count` cells of one scalar type (`elem`); a cell at
//! byte offset `o` is cell `o / elem.bytes()`. Input arrays are solver arrays
//! indexed by byte offset: their initial cells read as `select(A, o)` and
//! their length is a solver variable, so the generator chooses both.
//!
//! Symbolic content has two modes:
//! - cells: each written cell has its own value (with optional expression);
//! - whole-array: after a write at a symbolic offset the object's content is
//!   one array expression (stores over the initial content), which keeps
//!   symbolic indices exact without case splits (seed 002, section 5, done
//!   with the solver's array theory).
//!
//! Concrete values are always kept in the cells, so execution never waits
//! for the solver.

use pathwise_expr::{ExprId, ExprPool};
use pathwise_ir::Type;

use crate::value::{ObjId, Pointer, Value};

/// Where an object comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjKind {
    Local,
    Global,
    /// The input array of parameter `param`.
    Input {
        param: usize,
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
    /// Cells; `None` is the initial content (zero, or the input's value).
    cells: Vec<Option<Value>>,
    /// Concrete initial values of an input array (from the assignment).
    initial: Option<pathwise_expr::ArrayValue>,
    pub input: Option<InputArray>,
    /// Whole-array symbolic content, once a symbolic-offset write happened.
    whole: Option<ExprId>,
    /// Highest byte offset accessed (for sizing free input arrays).
    pub max_accessed: Option<u64>,
}

impl Object {
    pub fn count(&self) -> u64 {
        self.cells.len() as u64
    }

    pub fn size_bytes(&self) -> u64 {
        self.count() * self.elem.bytes()
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
    /// Type or alignment mismatch (e.g. reading an `int` array through `char *`).
    Unsupported(String),
}

/// All objects of a run.
#[derive(Default)]
pub struct Memory {
    objects: Vec<Object>,
}

impl Memory {
    pub fn new() -> Memory {
        Memory::default()
    }

    pub fn alloc(&mut self, kind: ObjKind, elem: Type, count: u64) -> ObjId {
        let id = ObjId(self.objects.len() as u32);
        self.objects.push(Object {
            kind,
            elem,
            cells: vec![None; count as usize],
            initial: None,
            input: None,
            whole: None,
            max_accessed: None,
        });
        id
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

    /// Initialise a cell concretely (globals' initial values).
    pub fn init_cell(&mut self, id: ObjId, index: u64, v: Value) {
        self.objects[id.0 as usize].cells[index as usize] = Some(v);
    }

    /// Check that a concrete access of type `ty` at `p` hits a whole cell of
    /// its object, and return (object, cell index).
    pub fn locate(&self, p: &Pointer, ty: Type) -> Result<(ObjId, u64), AccessError> {
        let id = p.obj.ok_or(AccessError::Null)?;
        let o = self.object(id);
        let off = p.off as i64;
        if off < 0 || (off as u64) >= o.size_bytes() {
            return Err(AccessError::OutOfBounds { offset: off, size: o.size_bytes() });
        }
        if ty.bytes() != o.elem.bytes() || (ty == Type::Ptr) != (o.elem == Type::Ptr) {
            return Err(AccessError::Unsupported(format!("access as {ty} to memory holding {} elements", o.elem)));
        }
        if !p.off.is_multiple_of(o.elem.bytes()) {
            return Err(AccessError::Unsupported(format!("misaligned access at byte offset {}", p.off)));
        }
        Ok((id, p.off / o.elem.bytes()))
    }

    /// Remember the highest offset touched; returns the cell's byte offset.
    fn note_access(&mut self, id: ObjId, index: u64) -> u64 {
        let o = &mut self.objects[id.0 as usize];
        let byte_off = index * o.elem.bytes();
        o.max_accessed = Some(o.max_accessed.map_or(byte_off, |m| m.max(byte_off)));
        byte_off
    }

    /// Read the cell at `index`; `sym_off` is the symbolic byte offset of the
    /// access, if any (then the result is read from the whole-array content).
    pub fn read(&mut self, pool: &mut ExprPool, id: ObjId, index: u64, sym_off: Option<ExprId>) -> Value {
        let byte_off = self.note_access(id, index);
        let o = &self.objects[id.0 as usize];
        let cell = o.cells[index as usize];
        let conc_val = match cell {
            Some(v) => v,
            None => Value::int(o.initial.as_ref().map_or(0, |a| a.get(byte_off))),
        };
        if o.elem == Type::Ptr {
            return conc_val;
        }
        let conc = conc_val.conc();
        let sym = match (sym_off, o.whole) {
            (Some(off), _) => {
                let arr = self.array_expr(pool, id);
                Some(pool.select(arr, off))
            }
            (None, Some(arr)) => {
                let off = pool.bv_const(64, byte_off);
                Some(pool.select(arr, off))
            }
            (None, None) => match cell {
                Some(v) => v.sym(),
                None => o.input.map(|inp| {
                    let off = pool.bv_const(64, byte_off);
                    pool.select(inp.array, off)
                }),
            },
        };
        let sym = sym.and_then(|e| crate::value::non_const(pool, e));
        Value::Int { conc, sym }
    }

    /// Write `v` to the cell at `index`; `sym_off` as in [`Memory::read`].
    pub fn write(&mut self, pool: &mut ExprPool, id: ObjId, index: u64, sym_off: Option<ExprId>, v: Value) {
        let elem = self.objects[id.0 as usize].elem;
        let byte_off = self.note_access(id, index);
        if elem != Type::Ptr && (sym_off.is_some() || self.objects[id.0 as usize].whole.is_some()) {
            let arr = self.array_expr(pool, id);
            let off = match sym_off {
                Some(e) => e,
                None => pool.bv_const(64, byte_off),
            };
            let val = crate::value::bv_of(pool, v.conc(), v.sym(), elem.bits());
            let new = pool.store(arr, off, val);
            self.objects[id.0 as usize].whole = Some(new);
        }
        self.objects[id.0 as usize].cells[index as usize] = Some(v);
    }

    /// The whole content of an integer object as an array expression,
    /// switching the object to whole-array mode.
    fn array_expr(&mut self, pool: &mut ExprPool, id: ObjId) -> ExprId {
        if let Some(arr) = self.objects[id.0 as usize].whole {
            return arr;
        }
        let o = &self.objects[id.0 as usize];
        let width = o.elem.bits();
        let bytes = o.elem.bytes();
        let mut arr = match o.input {
            Some(inp) => inp.array,
            None => {
                let zero = pool.bv_const(width, 0);
                pool.const_array(64, zero)
            }
        };
        let cells: Vec<(u64, Value)> =
            o.cells.iter().enumerate().filter_map(|(i, c)| c.map(|v| (i as u64, v))).collect();
        for (i, v) in cells {
            if o.input.is_none() && v.sym().is_none() && v.conc() == 0 {
                continue;
            }
            let off = pool.bv_const(64, i * bytes);
            let val = crate::value::bv_of(pool, v.conc(), v.sym(), width);
            arr = pool.store(arr, off, val);
        }
        self.objects[id.0 as usize].whole = Some(arr);
        arr
    }

    /// Concrete contents of an object (for outputs).
    pub fn concrete_contents(&self, id: ObjId) -> Vec<u64> {
        let o = self.object(id);
        (0..o.count())
            .map(|i| match o.cells[i as usize] {
                Some(v) => v.conc(),
                None => o.initial.as_ref().map_or(0, |a| a.get(i * o.elem.bytes())),
            })
            .collect()
    }
}
