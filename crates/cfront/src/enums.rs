//! Enumeration types by name, for the emitters: the definitions the unit
//! reads (`enum light { RED, ... }`, and the typedef names given to them),
//! and which parameters and results of a function definition have one as
//! their type, so that their [`pathwise_ir::SrcVar::c_scalar`] says
//! `enum light` (or `light_t`) rather than `unsigned int`, and the tests
//! write their values by name. The types themselves stay integers
//! (`typespec::enum_type`); scopes are not tracked (the last definition
//! of a name wins), which only costs a name where two nested scopes reuse
//! a tag.

use lang_c::ast::{DeclarationSpecifier, DerivedDeclarator, FunctionDefinition, TypeSpecifier};
use lang_c::span::Node;
use pathwise_ir::EnumDef;

use crate::unit::Unit;

/// The enumerations of a unit: definitions in order (anonymous ones named
/// `""` until a typedef names them), and their C names.
#[derive(Default)]
pub(crate) struct Enums {
    pub defs: Vec<EnumDef>,
    by_name: rustc_hash::FxHashMap<String, usize>,
}

impl Enums {
    /// Record a definition (`tag`: `enum TAG`, or `None` when anonymous).
    pub fn define(&mut self, tag: Option<String>, constants: Vec<(String, i128)>) {
        let i = self.defs.len();
        self.defs.push(EnumDef { c_name: tag.clone().unwrap_or_default(), constants });
        if let Some(tag) = tag {
            self.by_name.insert(tag, i);
        }
    }

    /// The definition the type specifiers `tss` name, if they name one:
    /// `enum TAG`, a typedef name of one, or an anonymous definition just
    /// read (the last one recorded).
    pub fn named<'t>(&self, tss: impl IntoIterator<Item = &'t TypeSpecifier>) -> Option<usize> {
        tss.into_iter().find_map(|t| match t {
            TypeSpecifier::Enum(e) => match &e.node.identifier {
                Some(id) => self.by_name.get(&format!("enum {}", id.node.name)).copied(),
                None if !e.node.enumerators.is_empty() => {
                    self.defs.len().checked_sub(1).filter(|&i| self.defs[i].c_name.is_empty())
                }
                None => None,
            },
            TypeSpecifier::TypedefName(id) => self.by_name.get(&id.node.name).copied(),
            _ => None,
        })
    }

    /// `typedef ... NAME;` of enumeration `i`: an anonymous one takes the
    /// name, a named one gets it as a second name.
    pub fn typedef(&mut self, i: usize, name: &str) {
        if self.defs[i].c_name.is_empty() {
            self.defs[i].c_name = name.to_string();
            self.by_name.insert(name.to_string(), i);
        } else {
            let def = EnumDef { c_name: name.to_string(), constants: self.defs[i].constants.clone() };
            self.by_name.insert(name.to_string(), self.defs.len());
            self.defs.push(def);
        }
    }

    /// The C name of enumeration `i` (empty when anonymous).
    pub fn c_name(&self, i: usize) -> &str {
        &self.defs[i].c_name
    }

    /// The named definitions, for the emitters.
    pub fn into_named(self) -> Vec<EnumDef> {
        self.defs.into_iter().filter(|d| !d.c_name.is_empty()).collect()
    }
}

fn type_specifiers(specs: &[Node<DeclarationSpecifier>]) -> impl Iterator<Item = &TypeSpecifier> {
    specs.iter().filter_map(|s| match &s.node {
        DeclarationSpecifier::TypeSpecifier(t) => Some(&t.node),
        _ => None,
    })
}

/// The C names of the enumeration types of a definition's result and
/// parameters (`None` for any other type, pointers to enumerations too).
pub(crate) fn of_definition(u: &Unit<'_>, fd: &FunctionDefinition) -> (Option<String>, Vec<Option<String>>) {
    let name = |i: Option<usize>| i.map(|i| u.enums.c_name(i).to_string()).filter(|n| !n.is_empty());
    let derived = &fd.declarator.node.derived;
    let ret = match derived.as_slice() {
        [d] if matches!(d.node, DerivedDeclarator::Function(_)) => name(u.enums.named(type_specifiers(&fd.specifiers))),
        _ => None,
    };
    let params = derived
        .iter()
        .find_map(|d| match &d.node {
            DerivedDeclarator::Function(f) => Some(&f.node.parameters),
            _ => None,
        })
        .map(|ps| {
            ps.iter()
                .map(|p| {
                    let scalar = p.node.declarator.as_ref().is_none_or(|d| d.node.derived.is_empty());
                    if scalar {
                        name(u.enums.named(type_specifiers(&p.node.specifiers)))
                    } else {
                        None
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    (ret, params)
}
