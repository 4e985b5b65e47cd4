//! Expressions in value context and as lvalues.
//!
//! Every C object lives in memory, so an lvalue is a pointer ([`LVal`]) and
//! reading it is a `load` (arrays decay to the pointer instead). Values
//! ([`Val`]) are an operand plus their C type; conversions and arithmetic
//! are in `ops.rs`, conditions and the short-circuit operators in `cond.rs`,
//! calls in `calls.rs`.
//!
//! Locations: an instruction carries the location of the expression it
//! implements; loads and stores carry the location of the lvalue.

use lang_c::ast::{
    BinaryOperator, BinaryOperatorExpression, CompoundLiteral, Constant, Expression, Identifier, Statement,
    UnaryOperator, UnaryOperatorExpression,
};
use lang_c::span::{Node, Span};
use pathwise_ir::{BinOp, CmpOp, InstKind, Operand, Type};

use crate::consteval::{self, CVal};
use crate::ctypes::{CType, IntKind, INT};
use crate::func::FnCtx;
use crate::literals;
use crate::ops::Conv;
use crate::typespec;
use crate::unit::{LResult, Sym};

/// An rvalue: an operand and its C type (`void` for void expressions).
#[derive(Clone, Debug)]
pub(crate) struct Val {
    pub op: Operand,
    pub ty: CType,
}

impl Val {
    pub fn void() -> Val {
        Val { op: Operand::Const(Type::I32, 0), ty: CType::Void }
    }

    pub fn constant(v: CVal) -> Val {
        Val { op: Operand::Const(v.kind.ir(), v.bits), ty: CType::Int(v.kind) }
    }
}

/// An lvalue: the address of an object of type `ty`.
#[derive(Clone, Debug)]
pub(crate) struct LVal {
    pub ptr: Operand,
    pub ty: CType,
    /// A bit-field's (shift, width) in the bytes from `ptr` (`ty` is its
    /// declared type; see `bitfields.rs`).
    pub bits: Option<(u32, u32)>,
}

/// How the element a subscript designates is used, which sets the bound C
/// puts on the index of a checked array (see [`FnCtx::subscript`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Subscripted {
    /// Read or written, or a row subscripted again: `i < n`.
    Accessed,
    /// Only its address is taken (`&a[i]`): `i <= n`.
    AddressTaken,
    /// Its value: accessed, unless it is an array, which decays to its
    /// address.
    Valued,
}

impl LVal {
    /// An object's lvalue (not a bit-field).
    pub fn at(ptr: Operand, ty: CType) -> LVal {
        LVal { ptr, ty, bits: None }
    }
}

/// Names gcc treats as string literals (`assert` passes them to `__assert_fail`).
pub(crate) fn is_function_name_string(name: &str) -> bool {
    matches!(name, "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__")
}

impl<'u, 'a> FnCtx<'u, 'a> {
    /// Whether `e` designates an object (so that `sizeof` must not decay it).
    pub fn is_lvalue_expr(&self, e: &Node<Expression>) -> bool {
        match &e.node {
            Expression::Identifier(id) => match self.u.lookup(&id.node.name) {
                Some(sym) => matches!(sym, Sym::Local { .. } | Sym::Indirect { .. } | Sym::Global(_)),
                None => is_function_name_string(&id.node.name),
            },
            Expression::UnaryOperator(u) => u.node.operator.node == UnaryOperator::Indirection,
            Expression::BinaryOperator(b) => b.node.operator.node == BinaryOperator::Index,
            Expression::StringLiteral(_) | Expression::CompoundLiteral(_) | Expression::Member(_) => true,
            _ => false,
        }
    }

    /// A string literal (or `__func__`) as an lvalue: its `char` array.
    fn string_lvalue(&mut self, bytes: &[u8], span: Span) -> LVal {
        let global = self.u.string_global(bytes);
        let loc = self.loc(span);
        let ty = CType::Array(Box::new(CType::Int(IntKind::Char)), Some(bytes.len() as u64 + 1));
        LVal::at(self.b.value(InstKind::AddrGlobal { global }, loc), ty)
    }

    /// Lowers an expression for its value.
    pub fn rvalue(&mut self, e: &Node<Expression>) -> LResult<Val> {
        match &e.node {
            Expression::Identifier(id) => self.identifier(id),
            Expression::Constant(c) => self.constant(c),
            Expression::StringLiteral(_) => {
                let lv = self.lvalue(e)?;
                self.load(lv, e.span)
            }
            Expression::GenericSelection(g) => {
                let chosen = self.generic_choice(g)?;
                self.rvalue(chosen)
            }
            Expression::Member(_) => {
                let lv = self.lvalue(e)?;
                self.load(lv, e.span)
            }
            Expression::Call(c) => self.call(c),
            Expression::CompoundLiteral(cl) => {
                let lv = self.compound_literal(cl)?;
                self.load(lv, e.span)
            }
            Expression::SizeOfTy(_) | Expression::SizeOfVal(_) | Expression::AlignOf(_) => {
                match consteval::eval(self, e)? {
                    Some(v) => Ok(Val::constant(v)),
                    None => self.runtime_sizeof(e),
                }
            }
            Expression::UnaryOperator(u) => self.unary(e, u),
            Expression::Cast(c) => {
                let ty = typespec::type_name(self, &c.node.type_name)?;
                let v = self.rvalue(&c.node.expression)?;
                self.convert(v, &ty, e.span, Conv::Explicit)
            }
            Expression::BinaryOperator(b) => self.binary_expr(e, b),
            Expression::Conditional(c) => match consteval::eval(self, e)? {
                // A constant `?:` needs no decision (nor a slot).
                Some(v) => Ok(Val::constant(v)),
                None => self.conditional(c),
            },
            Expression::Comma(list) => {
                let mut last = Val::void();
                for x in list.iter() {
                    last = self.rvalue(x)?;
                }
                Ok(last)
            }
            Expression::OffsetOf(_) => match consteval::eval(self, e)? {
                Some(v) => Ok(Val::constant(v)),
                None => Err(self.u.unsupported(e.span, "offsetof with a non-constant array index")),
            },
            Expression::VaArg(v) => self.va_arg(v, e.span),
            Expression::Statement(s) => self.statement_expr(s),
        }
    }

    fn identifier(&mut self, id: &Node<Identifier>) -> LResult<Val> {
        match self.u.lookup(&id.node.name) {
            Some(Sym::EnumConst(v)) => Ok(Val::constant(*v)),
            sym => {
                let local = match sym {
                    Some(Sym::Local { local, .. }) => Some(*local),
                    _ => None,
                };
                let lv = self.lvalue_ident(id)?;
                let v = self.load(lv, id.span)?;
                if let (Some(local), Operand::Reg(r)) = (local, v.op) {
                    self.void_params.note_load(local, r);
                }
                Ok(v)
            }
        }
    }

    fn constant(&mut self, c: &Node<Constant>) -> LResult<Val> {
        let v = match &c.node {
            Constant::Integer(i) => {
                literals::integer_constant(i, self.u.model).map_err(|m| self.u.invalid(c.span, m))?
            }
            Constant::Character(s) => {
                literals::char_constant(s).map_err(|m| match m.strip_prefix("unsupported: ") {
                    Some(r) => self.u.unsupported(c.span, r),
                    None => self.u.invalid(c.span, m),
                })?
            }
            Constant::Float(f) => return self.float_constant(f, c.span),
        };
        Ok(Val::constant(v))
    }

    fn lvalue_ident(&mut self, id: &Node<Identifier>) -> LResult<LVal> {
        let name = &id.node.name;
        let loc = self.loc(id.span);
        match self.u.lookup(name).cloned() {
            Some(Sym::Local { local, ty }) => Ok(LVal::at(self.b.addr_local(local, loc), ty)),
            Some(Sym::Indirect { slot, ty }) => {
                let at = self.b.addr_local(slot, loc);
                Ok(LVal::at(self.b.load(Type::Ptr, at, loc), ty))
            }
            Some(Sym::Global(idx)) => {
                let ty = self.u.objects[idx].ty.clone();
                if ty.mem_size().is_none() {
                    return Err(self.u.unsupported(id.span, format!("`{name}` has an incomplete type")));
                }
                let global = self.u.global_id(idx);
                Ok(LVal::at(self.b.value(InstKind::AddrGlobal { global }, loc), ty))
            }
            Some(Sym::Unsupported(reason)) => Err(self.u.use_of_unsupported(id.span, name, &reason)),
            // A function designator: its "address" is the function pointer
            // it decays to (`load` and `&` both give it).
            Some(Sym::Func(idx)) => {
                let ty = CType::Func(Box::new(self.u.funcs[idx].sig.clone()));
                let func = self.u.func_id(idx);
                Ok(LVal::at(self.b.value(InstKind::AddrFunc { func }, loc), ty))
            }
            Some(Sym::EnumConst(_)) | Some(Sym::Typedef(..)) | Some(Sym::Tag(_)) => {
                Err(self.u.invalid(id.span, format!("`{name}` is not an object")))
            }
            // C11 6.4.2.2: `static const char __func__[] = "name";` (gcc
            // spells it also `__FUNCTION__` and, in C, `__PRETTY_FUNCTION__`).
            None if is_function_name_string(name) => {
                let fname = self.fname.clone();
                Ok(self.string_lvalue(fname.as_bytes(), id.span))
            }
            None => Err(self.u.invalid(id.span, format!("use of undeclared identifier `{name}`"))),
        }
    }

    /// Lowers an expression that designates an object.
    pub fn lvalue(&mut self, e: &Node<Expression>) -> LResult<LVal> {
        match &e.node {
            Expression::Identifier(id) => self.lvalue_ident(id),
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                let p = self.rvalue(&u.node.operand)?;
                match p.ty {
                    CType::Ptr(t) if *t == CType::Void => {
                        Err(self.u.invalid(e.span, "dereferencing a `void *` pointer"))
                    }
                    CType::Ptr(t) => Ok(LVal::at(p.op, *t)),
                    _ => Err(self.u.invalid(e.span, "indirection requires a pointer operand")),
                }
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                self.subscript(e, b, Subscripted::Accessed)
            }
            Expression::StringLiteral(s) => {
                let bytes = literals::string_bytes(&s.node).map_err(|m| match m.strip_prefix("unsupported: ") {
                    Some(r) => self.u.unsupported(s.span, r),
                    None => self.u.invalid(s.span, m),
                })?;
                Ok(self.string_lvalue(&bytes, e.span))
            }
            Expression::CompoundLiteral(cl) => self.compound_literal(cl),
            Expression::Member(m) => self.member(m),
            _ => Err(self.u.invalid(e.span, "expression is not assignable")),
        }
    }

    /// `a[i]` (or `i[a]`) as an lvalue, used as `used` says. When `a` is a
    /// declared array inside a larger object (a structure member that is
    /// not the last one, a row of a multidimensional array), the index is
    /// checked against its length (`checkindex`), as `-fsanitize=bounds`
    /// checks it: the object's own bounds would let `r->buf[8]` of `int
    /// buf[8]` read the member after it. A whole object's array needs no
    /// such check (its bounds are the object's).
    fn subscript(
        &mut self,
        e: &Node<Expression>,
        b: &Node<BinaryOperatorExpression>,
        used: Subscripted,
    ) -> LResult<LVal> {
        let (l, bound) = self.subscripted(&b.node.lhs)?;
        let r = self.rvalue(&b.node.rhs)?;
        let (p, i, bound) = match (&l.ty, &r.ty) {
            (CType::Ptr(_), CType::Int(_)) => (l, r, bound),
            (CType::Int(_), CType::Ptr(_)) => (r, l, None),
            _ => return Err(self.u.invalid(e.span, "subscripted value is not an array or pointer")),
        };
        let ty = p.ty.pointee().cloned().unwrap_or(CType::Void);
        if ty == CType::Void {
            return Err(self.u.invalid(e.span, "subscript of a `void *` pointer"));
        }
        let idx = self.wide_index(i, e.span)?;
        if let Some(len) = bound {
            let end = match used {
                Subscripted::Accessed => false,
                Subscripted::AddressTaken => true,
                Subscripted::Valued => matches!(ty, CType::Array(..) | CType::Vla(..)),
            };
            // A constant index within the bound (`s.v[0]`) needs no check.
            if !matches!(idx, Operand::Const(_, c) if c < len.saturating_add(end as u64)) {
                let loc = self.loc(e.span);
                self.b.effect(InstKind::CheckIndex { index: idx, len, end }, loc);
            }
        }
        let p = self.ptr_offset_wide(p, idx, false, e.span)?;
        Ok(LVal::at(p.op, ty))
    }

    /// The subscripted operand of `a[i]` as a pointer, and the length of
    /// the declared array it decays from when `subscript` checks it.
    fn subscripted(&mut self, a: &Node<Expression>) -> LResult<(Val, Option<u64>)> {
        let lv = match &a.node {
            Expression::Member(m) => match self.member_placed(m)? {
                (lv, false) => lv,
                (lv, true) => return Ok((self.load(lv, a.span)?, None)),
            },
            // A row is accessed when it is subscripted again.
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                self.subscript(a, b, Subscripted::Accessed)?
            }
            _ => return Ok((self.rvalue(a)?, None)),
        };
        let bound = match lv.ty {
            CType::Array(_, Some(n)) if n > 0 => Some(n),
            _ => None,
        };
        Ok((self.load(lv, a.span)?, bound))
    }

    /// A compound literal (C11 6.5.2.5): an unnamed automatic object, a slot
    /// `lit.N` (re)initialized each time the expression is evaluated.
    fn compound_literal(&mut self, cl: &Node<CompoundLiteral>) -> LResult<LVal> {
        let ty = typespec::type_name(self, &cl.node.type_name)?;
        if ty.has_vla() {
            return Err(self.u.invalid(cl.span, "compound literal has variable size"));
        }
        let flat = crate::init::flatten_list(self, &ty, &cl.node.initializer_list, cl.span)?;
        let name = format!("lit.{}", self.b.locals.len());
        let sym = crate::locals::auto_object(self, &name, ty, Some(flat), cl.span, false)?;
        let loc = self.loc(cl.span);
        match sym {
            Sym::Local { local, ty } => Ok(LVal::at(self.b.addr_local(local, loc), ty)),
            Sym::Indirect { slot, ty } => {
                let at = self.b.addr_local(slot, loc);
                Ok(LVal::at(self.b.load(Type::Ptr, at, loc), ty))
            }
            _ => Err(self.u.invalid(cl.span, "invalid compound literal")),
        }
    }

    /// Reads an lvalue (arrays decay to a pointer to their first element).
    pub fn load(&mut self, lv: LVal, span: Span) -> LResult<Val> {
        if lv.bits.is_some() {
            return Ok(self.bitfield_load(&lv, span));
        }
        match lv.ty {
            CType::Array(e, _) | CType::Vla(e, _) => Ok(Val { op: lv.ptr, ty: CType::Ptr(e) }),
            CType::Int(_) | CType::Float(_) | CType::Ptr(_) => {
                let loc = self.loc(span);
                let ir = lv.ty.ir().unwrap_or(Type::I64);
                Ok(Val { op: self.b.load(ir, lv.ptr, loc), ty: lv.ty })
            }
            // C11 6.3.2.1p4: a function designator becomes a pointer to it.
            CType::Func(_) => Ok(Val { op: lv.ptr, ty: CType::ptr_to(lv.ty) }),
            CType::Void => Err(self.u.invalid(span, "use of a void value")),
            // A structure value is represented by the address of an object
            // holding it (copied where it is stored, see `member.rs`).
            CType::Struct(ref s) if s.size().is_some() => Ok(Val { op: lv.ptr, ty: lv.ty }),
            CType::Struct(_) => Err(crate::structs::incomplete(self, span, &lv.ty)),
        }
    }

    /// Writes a scalar of `lv`'s type to an lvalue; returns the value the
    /// object then holds (of a bit-field: its low bits, extended).
    pub fn store(&mut self, lv: &LVal, value: Val, span: Span) -> Val {
        if lv.bits.is_some() {
            // `++` gives the value in the field's value type: back to the declared one.
            let op = match (&value.ty, &lv.ty) {
                (CType::Int(from), CType::Int(to)) if from != to => {
                    let loc = self.loc(span);
                    self.int_conv(value.op, *from, *to, loc)
                }
                _ => value.op,
            };
            return self.bitfield_store(lv, op, span);
        }
        let loc = self.loc(span);
        let ir = lv.ty.ir().unwrap_or(Type::I64);
        self.b.store(ir, lv.ptr, value.op, loc);
        value
    }

    /// An lvalue that may be assigned: scalar type.
    fn assignable(&mut self, e: &Node<Expression>) -> LResult<LVal> {
        let lv = self.lvalue(e)?;
        self.check_assignable(lv, e.span)
    }

    fn check_assignable(&mut self, lv: LVal, span: Span) -> LResult<LVal> {
        if !lv.ty.is_scalar() {
            return Err(self.u.invalid(span, format!("cannot assign to an object of type `{}`", lv.ty.spelling())));
        }
        Ok(lv)
    }

    fn unary(&mut self, e: &Node<Expression>, u: &Node<UnaryOperatorExpression>) -> LResult<Val> {
        let operand = &u.node.operand;
        let loc = self.loc(e.span);
        match u.node.operator.node {
            UnaryOperator::PostIncrement => self.incdec(e, operand, false, true),
            UnaryOperator::PostDecrement => self.incdec(e, operand, false, false),
            UnaryOperator::PreIncrement => self.incdec(e, operand, true, true),
            UnaryOperator::PreDecrement => self.incdec(e, operand, true, false),
            UnaryOperator::Address => {
                let lv = match &operand.node {
                    Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                        self.subscript(operand, b, Subscripted::AddressTaken)?
                    }
                    _ => self.lvalue(operand)?,
                };
                if lv.bits.is_some() {
                    return Err(self.u.invalid(e.span, "cannot take the address of a bit-field"));
                }
                Ok(Val { op: lv.ptr, ty: CType::ptr_to(lv.ty) })
            }
            UnaryOperator::Indirection => {
                let lv = self.lvalue(e)?;
                self.load(lv, e.span)
            }
            UnaryOperator::Plus => {
                let v = self.rvalue(operand)?;
                if let CType::Float(_) = v.ty {
                    return Ok(v);
                }
                let (op, k) = self.promote(v, e.span)?;
                Ok(Val { op, ty: CType::Int(k) })
            }
            UnaryOperator::Minus => {
                let v = self.rvalue(operand)?;
                if let Some(r) = self.float_negate(&v, e.span) {
                    return Ok(r);
                }
                let (op, k) = self.promote(v, e.span)?;
                let r = self.b.arith(BinOp::Sub, k.ir(), k.signed(), Operand::Const(k.ir(), 0), op, loc);
                Ok(Val { op: r, ty: CType::Int(k) })
            }
            UnaryOperator::Complement => {
                let v = self.rvalue(operand)?;
                let (op, k) = self.promote(v, e.span)?;
                let r = self.b.bin(BinOp::Xor, k.ir(), op, Operand::Const(k.ir(), k.ir().mask()), loc);
                Ok(Val { op: r, ty: CType::Int(k) })
            }
            UnaryOperator::Negate => {
                if is_logical(operand) {
                    // `!(a && b)` keeps one decision per atomic condition.
                    return self.logical_value(e);
                }
                let v = self.rvalue(operand)?;
                let z = self.zero_test(v, CmpOp::Eq, e.span)?;
                let r = self.b.cast(false, Type::I1, Type::I32, z, loc);
                Ok(Val { op: r, ty: INT })
            }
        }
    }

    /// `++`/`--`, prefix (value after) or postfix (value before).
    fn incdec(&mut self, e: &Node<Expression>, operand: &Node<Expression>, pre: bool, inc: bool) -> LResult<Val> {
        let lv = self.assignable(operand)?;
        let old = self.load(lv.clone(), operand.span)?;
        let loc = self.loc(e.span);
        let new = match &old.ty {
            CType::Ptr(_) => {
                let step = Val::constant(CVal::int(1));
                self.ptr_offset(old.clone(), step, !inc, e.span)?
            }
            CType::Int(k) => {
                let (p, pk) = self.promote(old.clone(), e.span)?;
                let op = if inc { BinOp::Add } else { BinOp::Sub };
                let r = self.b.arith(op, pk.ir(), pk.signed(), p, Operand::Const(pk.ir(), 1), loc);
                let r = self.int_conv(r, pk, *k, loc);
                Val { op: r, ty: old.ty.clone() }
            }
            CType::Float(_) => self.float_step(&old, inc, e.span).unwrap_or(old.clone()),
            _ => return Err(self.u.invalid(e.span, "invalid operand of increment/decrement")),
        };
        let new = self.store(&lv, new, operand.span);
        Ok(if pre { new } else { old })
    }

    fn binary_expr(&mut self, e: &Node<Expression>, b: &Node<BinaryOperatorExpression>) -> LResult<Val> {
        use BinaryOperator as B;
        let (lhs, rhs) = (&b.node.lhs, &b.node.rhs);
        match &b.node.operator.node {
            B::Index => {
                let lv = self.subscript(e, b, Subscripted::Valued)?;
                self.load(lv, e.span)
            }
            B::LogicalAnd | B::LogicalOr => match consteval::eval(self, e)? {
                Some(v) => Ok(Val::constant(v)),
                None => self.logical_value(e),
            },
            B::Assign => {
                let lv = self.lvalue(lhs)?;
                if let CType::Struct(_) = lv.ty {
                    return self.struct_assign(lv, rhs);
                }
                let lv = self.check_assignable(lv, lhs.span)?;
                let v = self.rvalue(rhs)?;
                let v = self.convert(v, &lv.ty, rhs.span, Conv::Implicit)?;
                Ok(self.store(&lv, v, lhs.span))
            }
            op @ (B::AssignMultiply
            | B::AssignDivide
            | B::AssignModulo
            | B::AssignPlus
            | B::AssignMinus
            | B::AssignShiftLeft
            | B::AssignShiftRight
            | B::AssignBitwiseAnd
            | B::AssignBitwiseXor
            | B::AssignBitwiseOr) => {
                let base = compound_base(op);
                let lv = self.assignable(lhs)?;
                let old = self.load(lv.clone(), lhs.span)?;
                let r = self.rvalue(rhs)?;
                let v = self.arith(&base, old, r, e.span)?;
                let v = self.convert(v, &lv.ty, e.span, Conv::Implicit)?;
                Ok(self.store(&lv, v, lhs.span))
            }
            op => {
                let l = self.rvalue(lhs)?;
                let r = self.rvalue(rhs)?;
                self.arith(op, l, r, e.span)
            }
        }
    }

    /// A GNU statement expression: the value of its last expression statement.
    fn statement_expr(&mut self, s: &Node<Statement>) -> LResult<Val> {
        let Statement::Compound(items) = &s.node else {
            return Err(self.u.invalid(s.span, "statement expression without braces"));
        };
        self.u.scopes.push(Default::default());
        let mut value = Val::void();
        for (i, item) in items.iter().enumerate() {
            if i + 1 == items.len() {
                if let lang_c::ast::BlockItem::Statement(st) = &item.node {
                    if let Statement::Expression(Some(x)) = &st.node {
                        value = self.rvalue(x)?;
                        break;
                    }
                }
            }
            self.block_item(item)?;
        }
        self.u.scopes.pop();
        Ok(value)
    }
}

/// `&&`, `||`, or a negation of one: lowered through decisions.
pub(crate) fn is_logical(e: &Node<Expression>) -> bool {
    match &e.node {
        Expression::BinaryOperator(b) => {
            matches!(b.node.operator.node, BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr)
        }
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => is_logical(&u.node.operand),
        _ => false,
    }
}

/// The arithmetic operator of a compound assignment.
fn compound_base(op: &BinaryOperator) -> BinaryOperator {
    use BinaryOperator as B;
    match op {
        B::AssignMultiply => B::Multiply,
        B::AssignDivide => B::Divide,
        B::AssignModulo => B::Modulo,
        B::AssignPlus => B::Plus,
        B::AssignMinus => B::Minus,
        B::AssignShiftLeft => B::ShiftLeft,
        B::AssignShiftRight => B::ShiftRight,
        B::AssignBitwiseAnd => B::BitwiseAnd,
        B::AssignBitwiseXor => B::BitwiseXor,
        _ => B::BitwiseOr,
    }
}
