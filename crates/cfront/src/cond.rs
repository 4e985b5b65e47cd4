//! Conditions: short-circuit lowering into one decision per atomic condition.
//!
//! `cond(e, t, f)` emits code that reaches block `t` when `e` is true and `f`
//! otherwise. `&&`, `||`, `!`, `?:` and `,` are decomposed (PathCrawler's
//! decomposition of multiple conditions), so `if (a && b || c)` makes three
//! `br`s. An atomic condition is a comparison (its `i1` is the branch
//! condition) or any other scalar tested with `!= 0` / `!= null`; the `br`'s
//! location is the first token of that atomic condition. Integer constant
//! expressions (`while (1)`, `for (;;)`) jump without a decision.
//!
//! In value context, `&&`, `||` and `?:` merge control flow through a fresh
//! synthetic slot (`tmp.N`): each arm stores into it and the join block loads
//! it, so no register is ever defined in two blocks.

use lang_c::ast::{BinaryOperator, ConditionalExpression, Expression, UnaryOperator};
use lang_c::span::Node;
use pathwise_ir::{Block, Operand, Type};

use crate::consteval;
use crate::ctypes::{CType, INT};
use crate::expr::Val;
use crate::func::FnCtx;
use crate::ops::Conv;
use crate::unit::LResult;

impl<'u, 'a> FnCtx<'u, 'a> {
    /// Lowers `e` as a condition: control reaches `t` if true, `f` if false.
    pub fn cond(&mut self, e: &Node<Expression>, t: Block, f: Block) -> LResult<()> {
        if let Expression::BinaryOperator(b) = &e.node {
            if matches!(b.node.operator.node, BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr) {
                return self.chain(e, t, f);
            }
        }
        if let Some(v) = consteval::eval(self, e)? {
            self.b.jump(if v.is_zero() { f } else { t });
            return Ok(());
        }
        match &e.node {
            Expression::BinaryOperator(b) => {
                use BinaryOperator as B;
                let (lhs, rhs) = (&b.node.lhs, &b.node.rhs);
                match &b.node.operator.node {
                    op @ (B::Less | B::Greater | B::LessOrEqual | B::GreaterOrEqual | B::Equals | B::NotEquals) => {
                        let l = self.rvalue(lhs)?;
                        let r = self.rvalue(rhs)?;
                        let c = self.compare(op, l, r, e.span)?;
                        let loc = self.loc(e.span);
                        self.b.branch(c, t, f, loc);
                        Ok(())
                    }
                    _ => self.cond_value(e, t, f),
                }
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
                self.cond(&u.node.operand, f, t)
            }
            Expression::Conditional(c) => {
                let (bt, bf) = (self.b.new_block(), self.b.new_block());
                self.cond(&c.node.condition, bt, bf)?;
                self.b.switch_to(bt);
                self.cond(&c.node.then_expression, t, f)?;
                self.b.switch_to(bf);
                self.cond(&c.node.else_expression, t, f)
            }
            // `likely(c)`-style hints: the hinted expression is the condition.
            Expression::Call(call) if self.is_builtin_expect(call) => self.cond(&call.node.arguments[0], t, f),
            Expression::Comma(list) => {
                let Some((last, init)) = list.split_last() else { return Ok(()) };
                for x in init {
                    self.rvalue(x)?;
                }
                self.cond(last, t, f)
            }
            _ => self.cond_value(e, t, f),
        }
    }

    /// `a && b && ...` (or `||`): the operands of the chain in order, each
    /// its own decision. The chain is flattened first, so that a chain of
    /// n operands (left-nested by the grammar) costs O(n), not a constant
    /// evaluation of every prefix. A constant operand folds as C says: a
    /// neutral one (`1 &&`, `0 ||`) drops out, an absorbing one ends the
    /// chain there (the operands after it are never evaluated).
    fn chain(&mut self, e: &Node<Expression>, t: Block, f: Block) -> LResult<()> {
        let Expression::BinaryOperator(b) = &e.node else { return self.cond(e, t, f) };
        let op = b.node.operator.node.clone();
        let is_and = op == BinaryOperator::LogicalAnd;
        let mut operands = Vec::new();
        let mut rest = e;
        loop {
            match &rest.node {
                Expression::BinaryOperator(b) if b.node.operator.node == op => {
                    operands.push(&*b.node.rhs);
                    rest = &b.node.lhs;
                }
                _ => {
                    operands.push(rest);
                    break;
                }
            }
        }
        operands.reverse();
        let last = operands.len() - 1;
        for (i, x) in operands.into_iter().enumerate() {
            // Where the chain goes when this operand decides it, and else.
            let (decided, next) = if i == last {
                (if is_and { f } else { t }, if is_and { t } else { f })
            } else {
                (if is_and { f } else { t }, self.b.new_block())
            };
            match consteval::eval(self, x)? {
                Some(v) if v.is_zero() == is_and => {
                    self.b.jump(decided);
                    return Ok(());
                }
                Some(_) => self.b.jump(next),
                None if is_and => self.cond(x, next, decided)?,
                None => self.cond(x, decided, next)?,
            }
            if i != last {
                self.b.switch_to(next);
            }
        }
        Ok(())
    }

    /// An atomic condition that is not a comparison: `e != 0`.
    fn cond_value(&mut self, e: &Node<Expression>, t: Block, f: Block) -> LResult<()> {
        let v = self.rvalue(e)?;
        let c = self.truth(v, e.span)?;
        let loc = self.loc(e.span);
        self.b.branch(c, t, f, loc);
        Ok(())
    }

    /// The `int` value (0 or 1) of a condition, through decisions.
    pub fn logical_value(&mut self, e: &Node<Expression>) -> LResult<Val> {
        let loc = self.loc(e.span);
        let tmp = self.b.temp(Type::I32);
        let (t, f, join) = (self.b.new_block(), self.b.new_block(), self.b.new_block());
        self.cond(e, t, f)?;
        for (block, value) in [(t, 1), (f, 0)] {
            self.b.switch_to(block);
            let p = self.b.addr_local(tmp, loc);
            self.b.store(Type::I32, p, Operand::Const(Type::I32, value), loc);
            self.b.jump(join);
        }
        self.b.switch_to(join);
        let p = self.b.addr_local(tmp, loc);
        Ok(Val { op: self.b.load(Type::I32, p, loc), ty: INT })
    }

    /// `c ? a : b` in value context.
    pub fn conditional(&mut self, c: &Node<ConditionalExpression>) -> LResult<Val> {
        let (bt, bf, join) = (self.b.new_block(), self.b.new_block(), self.b.new_block());
        self.cond(&c.node.condition, bt, bf)?;
        // Lower both arms first, leaving their last blocks open, because the
        // result type (hence the conversions) depends on both.
        let (then_e, else_e) = (&c.node.then_expression, &c.node.else_expression);
        self.b.switch_to(bt);
        let a = self.rvalue(then_e)?;
        let a_end = self.b.current();
        self.b.switch_to(bf);
        let b = self.rvalue(else_e)?;
        let b_end = self.b.current();
        let ty = self.conditional_type(&a, &b, c.span)?;
        let loc = self.loc(c.span);
        let Some(ir) = ty.ir() else {
            for end in [a_end, b_end] {
                self.b.switch_to(end);
                self.b.jump(join);
            }
            self.b.switch_to(join);
            return Ok(Val::void());
        };
        let tmp = self.b.temp(ir);
        for (end, v, e) in [(a_end, a, then_e), (b_end, b, else_e)] {
            self.b.switch_to(end);
            let v = self.convert(v, &ty, e.span, Conv::Implicit)?;
            let p = self.b.addr_local(tmp, loc);
            self.b.store(ir, p, v.op, loc);
            self.b.jump(join);
        }
        self.b.switch_to(join);
        let p = self.b.addr_local(tmp, loc);
        let op = self.b.load(ir, p, loc);
        Ok(Val { op, ty: if ty == CType::Void { INT } else { ty } })
    }
}
