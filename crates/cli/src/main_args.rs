//! `main`'s arguments as the C runtime passes them. A `main(int argc,
//! char **argv)` under test is otherwise a function of an integer and a
//! pointer like any other: its tests passed `argc` 0 or 4 with two
//! pointers in `argv`, and a null `argv[1]` beside `argc == 2` made a
//! null-dereference "error" of every correct program reading its first
//! argument. Unless the user gives a precondition, `gen` adds one to the
//! unit (C text compiled after the file, named `<pathwise: main's
//! arguments>`): `argc` from 1 to [`MAX_ARGC`], `argv[0]` to
//! `argv[argc - 1]` non-null and distinct and `argv[argc]` null (C11
//! 5.1.2.2.1), and, for a third parameter `envp`, an empty environment.
//! The search then explores each `argc` a path needs, and the tests pass
//! an `argv` of `argc + 1` pointers.

use std::borrow::Cow;

use anyhow::Result;
use pathwise_ir::{Program, Type};

use crate::frontend::Frontend;
use crate::gen::GenArgs;

/// The precondition's name (also in the suite and the tests' comments).
pub const PRECONDITION: &str = "pathwise_main_arguments";

/// The file name the precondition's code has in locations.
pub const SOURCE_NAME: &str = "<pathwise: main's arguments>";

/// The largest `argc` the tests pass (the input arrays' default bound).
pub const MAX_ARGC: u32 = 16;

/// The contract as the summary and the tests' comments state it.
pub fn contract() -> String {
    format!("argv holds argc (1 to {MAX_ARGC}) distinct strings, then NULL, as the C runtime passes them")
}

/// The precondition's C text when `function` is a `main` taking `argc` and
/// `argv` (and maybe `envp`); `None` for any other function.
pub fn precondition_for(program: &Program, function: &str) -> Option<String> {
    if function != "main" {
        return None;
    }
    let f = program.func(program.func_by_name(function)?);
    let pointer_to_pointer = |i: usize| {
        f.params.get(i).is_some_and(|p| {
            p.ty == Type::Ptr && p.src.cty.as_ref().and_then(|c| c.pointee()).is_some_and(|t| t.pointee().is_some())
        })
    };
    let argc_is_int = f.params.first().is_some_and(|p| p.ty.is_int());
    if !argc_is_int || !pointer_to_pointer(1) || f.params.len() > 3 || (f.params.len() == 3 && !pointer_to_pointer(2)) {
        return None;
    }
    let envp = f.params.len() == 3;
    let (envp_param, envp_check) = if envp { (", char **envp", " && envp != 0 && envp[0] == 0") } else { ("", "") };
    Some(format!(
        "int {PRECONDITION}(int argc, char **argv{envp_param})
{{
    int i, j;
    if (argc < 1 || argc > {MAX_ARGC})
        return 0;
    /* An index that is no input: `argv[argc]` would fix argc. */
    for (i = 0; i != argc; i++) {{
        if (argv[i] == 0)
            return 0;
        /* Each argument a string of its own. */
        for (j = 0; j != i; j++)
            if (argv[j] == argv[i])
                return 0;
    }}
    return argv[i] == 0{envp_check};
}}
"
    ))
}

/// `args` and the unit `fe` with the precondition of `main`'s arguments
/// when `gen` needs it (the function is such a `main`, and no
/// precondition or summary file was given): the file compiled again with
/// the precondition's code, which the search then runs.
pub(crate) fn adopt(args: &GenArgs, fe: Frontend) -> Result<(Cow<'_, GenArgs>, Frontend)> {
    if args.precondition.is_some() || !args.summaries.is_empty() {
        return Ok((Cow::Borrowed(args), fe));
    }
    let Some(text) = precondition_for(&fe.program, &args.function) else { return Ok((Cow::Borrowed(args), fe)) };
    let fe = crate::frontend::compile_adding(&args.file, (&args.include_dirs, &args.defines), (SOURCE_NAME, &text))?;
    let mut args = args.clone();
    args.precondition = Some(PRECONDITION.to_string());
    Ok((Cow::Owned(args), fe))
}
