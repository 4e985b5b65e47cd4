//! `_Generic` (C11 6.5.1.1): the association whose type matches the
//! controlling expression's type after lvalue conversion (arrays and
//! functions decay), else `default`. The controlling expression is not
//! evaluated. Types here carry no qualifiers on pointees, so `const char *`
//! and `char *` are one type: a selection that two associations match
//! would be chosen by accident, and is reported instead.

use lang_c::ast::{Expression, GenericAssociation, GenericSelection};
use lang_c::span::Node;

use crate::ctypes::CType;
use crate::func::FnCtx;
use crate::unit::{Ctx, LResult};

impl FnCtx<'_, '_> {
    /// The expression `g` selects.
    pub(crate) fn generic_choice<'g>(&mut self, g: &'g Node<GenericSelection>) -> LResult<&'g Node<Expression>> {
        let ty = match self.expr_type(&g.node.expression)? {
            CType::Array(elem, _) | CType::Vla(elem, _) => CType::Ptr(elem),
            f @ CType::Func(_) => CType::Ptr(Box::new(f)),
            t => t,
        };
        let mut matched = Vec::new();
        let mut default = None;
        for a in &g.node.associations {
            match &a.node {
                GenericAssociation::Type(t) => {
                    if crate::typespec::type_name(self, &t.node.type_name)? == ty {
                        matched.push(&*t.node.expression);
                    }
                }
                GenericAssociation::Default(e) => default = Some(&**e),
            }
        }
        match (matched.as_slice(), default) {
            ([one], _) => Ok(one),
            ([], Some(d)) => Ok(d),
            ([], None) => {
                let what = format!("no `_Generic` association for type `{}`", ty.spelling());
                Err(self.u.invalid(g.span, what))
            }
            _ => Err(self.u.unsupported(g.span, "`_Generic` telling apart types that differ only in qualifiers")),
        }
    }
}
