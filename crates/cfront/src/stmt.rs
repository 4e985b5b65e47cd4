//! Statements and control flow.
//!
//! Layouts (every loop is a natural loop):
//! - `while (c) s`: `jmp header; header: cond(c, body, exit); body: s; jmp header`.
//!   The header is the (first) condition block; `continue` jumps to it.
//! - `do s while (c)`: `jmp body; body: s; jmp latch; latch: cond(c, body, exit)`.
//!   The header is the body's first block; `continue` jumps to the latch.
//! - `for (i; c; n) s`: `i; jmp header; header: cond(c, body, exit); body: s;
//!   jmp step; step: n; jmp header`; `continue` jumps to the step block.
//! - `switch (x)`: `x` is promoted once, then one decision `x == v` per case
//!   label in source order (located at the label), the last falling to
//!   `default` (or the exit); the body is lowered after it, each case label
//!   starting its block, so fallthrough is a jump to the next label's block.
//!   A GNU case range `lo ... hi` is one decision `x - lo <= hi - lo`
//!   (unsigned), true exactly for `lo <= x <= hi`.
//! - `if`: `cond(c, then, else)`; `goto`: a jump to the label's block.
//!
//! The first block of every loop body is recorded as an iteration start
//! (`FuncData::iteration_starts`), so the k bound counts body executions.
//!
//! `break`, `continue` and `goto` jumps carry the statement's location; the
//! structural jumps above have none.

use lang_c::ast::{
    BlockItem, Declaration, Expression, ForInitializer, Label, LabeledStatement, Statement, SwitchStatement,
};
use lang_c::span::{Node, Span};
use pathwise_ir::{BinOp, Block, CmpOp, Operand, Terminator};

use crate::consteval;
use crate::ctypes::CType;
use crate::func::{FnCtx, LabelInfo, SwitchCtx};
use crate::ops::Conv;
use crate::unit::LResult;

impl<'u, 'a> FnCtx<'u, 'a> {
    pub fn block_item(&mut self, item: &Node<BlockItem>) -> LResult<()> {
        match &item.node {
            BlockItem::Declaration(d) => self.local_decl(d),
            BlockItem::StaticAssert(_) => Ok(()),
            BlockItem::Statement(s) => self.stmt(s),
        }
    }

    /// Jumps to `to` unless the current block already ended.
    fn fall_to(&mut self, to: Block) {
        if !self.b.is_terminated() {
            self.b.jump(to);
        }
    }

    fn jump_at(&mut self, to: Block, span: Span) {
        let loc = self.loc(span);
        self.b.terminate(Terminator::Jump(to), loc);
    }

    pub fn stmt(&mut self, s: &Node<Statement>) -> LResult<()> {
        match &s.node {
            Statement::Labeled(l) => self.labeled(l),
            Statement::Compound(items) => {
                self.u.scopes.push(Default::default());
                for item in items {
                    self.block_item(item)?;
                }
                self.u.scopes.pop();
                Ok(())
            }
            Statement::Expression(Some(e)) => self.rvalue(e).map(|_| ()),
            Statement::Expression(None) => Ok(()),
            Statement::If(i) => {
                let then_b = self.b.new_block();
                let end = self.b.new_block();
                let else_b = if i.node.else_statement.is_some() { self.b.new_block() } else { end };
                self.cond(&i.node.condition, then_b, else_b)?;
                self.b.switch_to(then_b);
                self.stmt(&i.node.then_statement)?;
                self.fall_to(end);
                if let Some(e) = &i.node.else_statement {
                    self.b.switch_to(else_b);
                    self.stmt(e)?;
                    self.fall_to(end);
                }
                self.b.switch_to(end);
                Ok(())
            }
            Statement::Switch(sw) => self.switch_stmt(sw),
            Statement::While(w) => {
                let (header, body, exit) = (self.b.new_block(), self.b.new_block(), self.b.new_block());
                self.b.jump(header);
                self.b.switch_to(header);
                self.cond(&w.node.expression, body, exit)?;
                self.loop_body(&w.node.statement, body, header, exit)?;
                self.b.switch_to(exit);
                Ok(())
            }
            Statement::DoWhile(d) => {
                let (body, latch, exit) = (self.b.new_block(), self.b.new_block(), self.b.new_block());
                self.b.jump(body);
                self.loop_body(&d.node.statement, body, latch, exit)?;
                self.b.switch_to(latch);
                self.cond(&d.node.expression, body, exit)?;
                self.b.switch_to(exit);
                Ok(())
            }
            Statement::For(f) => {
                self.u.scopes.push(Default::default());
                match &f.node.initializer.node {
                    ForInitializer::Empty | ForInitializer::StaticAssert(_) => {}
                    ForInitializer::Expression(e) => {
                        self.rvalue(e)?;
                    }
                    ForInitializer::Declaration(d) => self.local_decl(d)?,
                }
                let (header, body) = (self.b.new_block(), self.b.new_block());
                let (step, exit) = (self.b.new_block(), self.b.new_block());
                self.b.jump(header);
                self.b.switch_to(header);
                match &f.node.condition {
                    Some(c) => self.cond(c, body, exit)?,
                    None => self.b.jump(body),
                }
                self.loop_body(&f.node.statement, body, step, exit)?;
                self.b.switch_to(step);
                if let Some(n) = &f.node.step {
                    self.rvalue(n)?;
                }
                self.b.jump(header);
                self.b.switch_to(exit);
                self.u.scopes.pop();
                Ok(())
            }
            Statement::Goto(id) => {
                let target = self.label_block(&id.node.name, id.span);
                self.jump_at(target, s.span);
                Ok(())
            }
            Statement::Continue => match self.continues.last() {
                Some(&t) => {
                    self.jump_at(t, s.span);
                    Ok(())
                }
                None => Err(self.u.invalid(s.span, "`continue` outside of a loop")),
            },
            Statement::Break => match self.breaks.last() {
                Some(&t) => {
                    self.jump_at(t, s.span);
                    Ok(())
                }
                None => Err(self.u.invalid(s.span, "`break` outside of a loop or switch")),
            },
            Statement::Return(e) => self.return_stmt(e.as_deref(), s.span),
            Statement::Asm(_) => Err(self.u.unsupported(s.span, "inline assembly")),
        }
    }

    /// Lowers a loop body starting at `body`, with `continue` going to `cont`
    /// and `break` to `exit`; falls through to `cont`.
    fn loop_body(&mut self, s: &Node<Statement>, body: Block, cont: Block, exit: Block) -> LResult<()> {
        self.b.mark_iteration_start(body);
        self.b.switch_to(body);
        self.breaks.push(exit);
        self.continues.push(cont);
        let r = self.stmt(s);
        self.breaks.pop();
        self.continues.pop();
        r?;
        self.fall_to(cont);
        Ok(())
    }

    fn return_stmt(&mut self, e: Option<&Node<Expression>>, span: Span) -> LResult<()> {
        let value = match (e, self.ret.clone()) {
            (None, CType::Void) => None,
            (None, t) => t.ir().map(|ir| Operand::Const(ir, 0)),
            (Some(e), CType::Void) => {
                self.rvalue(e)?;
                None
            }
            (Some(e), t @ CType::Struct(_)) => {
                // The value is read here (`return *p;` dereferences `p` in
                // this function), into an object the caller copies at once.
                let v = self.rvalue(e)?;
                let v = self.convert(v, &t, e.span, Conv::Implicit)?;
                Some(self.struct_temp(v, e.span)?)
            }
            (Some(e), t) => {
                let v = self.rvalue(e)?;
                Some(self.convert(v, &t, e.span, Conv::Implicit)?.op)
            }
        };
        let loc = self.loc(span);
        self.b.terminate(Terminator::Return(value), loc);
        Ok(())
    }

    /// The block of a `goto` label, created on first mention.
    fn label_block(&mut self, name: &str, span: Span) -> Block {
        if let Some(l) = self.labels.get(name) {
            return l.block;
        }
        let block = self.b.new_block();
        self.labels.insert(name.to_string(), LabelInfo { block, defined: false, first_use: span });
        block
    }

    fn labeled(&mut self, l: &Node<LabeledStatement>) -> LResult<()> {
        let label = &l.node.label;
        let target = match &label.node {
            Label::Identifier(id) => {
                let b = self.label_block(&id.node.name, id.span);
                let info = self.labels.get_mut(&id.node.name);
                if let Some(info) = info {
                    if info.defined {
                        return Err(self.u.invalid(id.span, format!("duplicate label `{}`", id.node.name)));
                    }
                    info.defined = true;
                }
                b
            }
            Label::Case(_) | Label::CaseRange(_) | Label::Default => {
                let found = self.switches.last().and_then(|sw| match &label.node {
                    Label::Default => sw.default,
                    _ => sw.cases.get(&label.span.start).copied(),
                });
                match found {
                    Some(b) => b,
                    None => return Err(self.u.invalid(label.span, "case label not within a switch statement")),
                }
            }
        };
        self.fall_to(target);
        self.b.switch_to(target);
        self.stmt(&l.node.statement)
    }

    fn switch_stmt(&mut self, sw: &Node<SwitchStatement>) -> LResult<()> {
        let x = &sw.node.expression;
        let v = self.rvalue(x)?;
        let (op, k) = self.promote(v, x.span)?;
        let mut labels = Vec::new();
        collect_cases(&sw.node.statement, &mut labels);
        let exit = self.b.new_block();
        let mut ctx = SwitchCtx::default();
        let mut cases = Vec::new();
        for label in labels {
            // (low, high) of the label: equal for a plain `case`.
            let (lo, hi) = match &label.node {
                Label::Case(e) => (self.case_value(e, k)?, self.case_value(e, k)?),
                Label::CaseRange(r) => (self.case_value(&r.node.low, k)?, self.case_value(&r.node.high, k)?),
                Label::Default => {
                    ctx.default = Some(self.b.new_block());
                    continue;
                }
                Label::Identifier(_) => continue,
            };
            let b = self.b.new_block();
            ctx.cases.insert(label.span.start, b);
            cases.push((lo, hi, b));
        }
        let mut chain = Vec::new();
        // The comparisons are the switch's, at its line, as gcc and gcov
        // have them: at the labels' lines, a label a run only compared
        // against (and did not enter) would count as executed.
        let loc = self.loc(sw.span);
        for (lo, hi, target) in cases {
            if k.value(lo) > k.value(hi) {
                // An empty range (gcc warns): no value selects it.
                continue;
            }
            let ty = k.ir();
            let c = if lo == hi {
                self.b.cmp(CmpOp::Eq, ty, op, Operand::Const(ty, lo), loc)
            } else {
                let off = self.b.bin(BinOp::Sub, ty, op, Operand::Const(ty, lo), loc);
                let width = hi.wrapping_sub(lo) & ty.mask();
                self.b.cmp(CmpOp::Ule, ty, off, Operand::Const(ty, width), loc)
            };
            // A constant controlling expression decides nothing: a jump.
            if !matches!(c, Operand::Const(..)) {
                chain.push(self.b.current());
            }
            let next = self.b.new_block();
            self.b.branch(c, target, next, loc);
            self.b.switch_to(next);
        }
        self.b.mark_switch(chain);
        self.b.jump(ctx.default.unwrap_or(exit));
        // Code before the first label is unreachable: give it its own block.
        let start = self.b.new_block();
        self.b.switch_to(start);
        self.switches.push(ctx);
        self.breaks.push(exit);
        let r = self.stmt(&sw.node.statement);
        self.switches.pop();
        self.breaks.pop();
        r?;
        self.fall_to(exit);
        self.b.switch_to(exit);
        Ok(())
    }

    /// The value of a case label, converted to the promoted type `k` of the
    /// controlling expression.
    fn case_value(&mut self, e: &Node<Expression>, k: crate::ctypes::IntKind) -> LResult<u64> {
        match consteval::eval(self, e)? {
            Some(v) => Ok(v.convert(k).bits),
            None => Err(self.u.invalid(e.span, "case label is not an integer constant expression")),
        }
    }

    /// A declaration in a block.
    pub fn local_decl(&mut self, d: &Node<Declaration>) -> LResult<()> {
        crate::locals::local_decl(self, d)
    }
}

/// The case and default labels of a switch body in source order, not
/// descending into nested switches.
fn collect_cases<'s>(s: &'s Node<Statement>, out: &mut Vec<&'s Node<Label>>) {
    match &s.node {
        Statement::Labeled(l) => {
            if !matches!(l.node.label.node, Label::Identifier(_)) {
                out.push(&l.node.label);
            }
            collect_cases(&l.node.statement, out);
        }
        Statement::Compound(items) => {
            for item in items {
                if let BlockItem::Statement(st) = &item.node {
                    collect_cases(st, out);
                }
            }
        }
        Statement::If(i) => {
            collect_cases(&i.node.then_statement, out);
            if let Some(e) = &i.node.else_statement {
                collect_cases(e, out);
            }
        }
        Statement::While(w) => collect_cases(&w.node.statement, out),
        Statement::DoWhile(d) => collect_cases(&d.node.statement, out),
        Statement::For(f) => collect_cases(&f.node.statement, out),
        _ => {}
    }
}
