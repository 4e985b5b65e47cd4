//! `pathwise.toml`: the per-function options a team keeps in its
//! repository, read by `pathwise project` from the project's root (or
//! `--config FILE`).
//!
//! ```toml
//! [defaults]            # every function
//! k = 2
//! timeout = 20          # seconds, per function
//!
//! [functions.parse_int] # a function of any file...
//! k = 10
//! criterion = "branches"
//!
//! [functions."src/door.c:door_apply"]  # ...or of one file (wins)
//! externals = ["log_event"]
//! precondition = "door_valid"
//! args = ["--no-overflow-check"]       # any other `gen` option
//! skip = true                          # not tested at all
//! ```
//!
//! Each function's options are `[defaults]`, then its `[functions.NAME]`,
//! then its `[functions."FILE:NAME"]`, each key replacing the one before
//! (`args` and `externals` are replaced too, not appended). Unknown keys
//! are errors, so that a misspelt option is not silently ignored.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context, Result};
use serde::Deserialize;

/// The options one function is tested with; `None`: not set at this level.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FunctionOptions {
    /// `gen --k` (without it: `gen`'s deepening, within the timeout).
    pub k: Option<u32>,
    /// `gen --criterion`.
    pub criterion: Option<String>,
    /// `gen --external` for each.
    pub externals: Option<Vec<String>>,
    /// `gen --precondition` (instead of the `NAME_pre` convention).
    pub precondition: Option<String>,
    /// The function's time budget in seconds (`--timeout-per-function`).
    pub timeout: Option<f64>,
    /// Further `gen` options, as on its command line.
    pub args: Option<Vec<String>>,
    /// Leave the function out of the run.
    pub skip: Option<bool>,
}

impl FunctionOptions {
    /// `self` with every key `over` sets replaced.
    fn overlay(&self, over: &FunctionOptions) -> FunctionOptions {
        FunctionOptions {
            k: over.k.or(self.k),
            criterion: over.criterion.clone().or_else(|| self.criterion.clone()),
            externals: over.externals.clone().or_else(|| self.externals.clone()),
            precondition: over.precondition.clone().or_else(|| self.precondition.clone()),
            timeout: over.timeout.or(self.timeout),
            args: over.args.clone().or_else(|| self.args.clone()),
            skip: over.skip.or(self.skip),
        }
    }
}

/// The whole file.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ProjectConfig {
    #[serde(default)]
    pub defaults: FunctionOptions,
    /// By `NAME` or `FILE:NAME` (FILE relative to the project root).
    #[serde(default)]
    pub functions: BTreeMap<String, FunctionOptions>,
}

impl ProjectConfig {
    /// Read and check `path`.
    pub fn load(path: &Path) -> Result<ProjectConfig> {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        Self::parse(&text).with_context(|| format!("{} is not a valid pathwise.toml", path.display()))
    }

    /// Parse the text of a `pathwise.toml`.
    pub fn parse(text: &str) -> Result<ProjectConfig> {
        let config: ProjectConfig = toml::from_str(text)?;
        for (name, o) in
            std::iter::once(("defaults", &config.defaults)).chain(config.functions.iter().map(|(n, o)| (n.as_str(), o)))
        {
            if o.k == Some(0) {
                bail!("{name}: k must be at least 1");
            }
            if o.timeout.is_some_and(|t| !(t.is_finite() && t > 0.0)) {
                bail!("{name}: timeout must be a positive number of seconds");
            }
        }
        Ok(config)
    }

    /// The options of function `name` of file `file` (relative to the root).
    pub fn options_for(&self, file: &str, name: &str) -> FunctionOptions {
        let mut o = self.defaults.clone();
        if let Some(by_name) = self.functions.get(name) {
            o = o.overlay(by_name);
        }
        if let Some(by_file) = self.functions.get(&format!("{file}:{name}")) {
            o = o.overlay(by_file);
        }
        o
    }

    /// Every precondition named in the file (those functions are not
    /// tested themselves).
    pub fn preconditions(&self) -> impl Iterator<Item = &str> {
        std::iter::once(&self.defaults).chain(self.functions.values()).filter_map(|o| o.precondition.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_apply_in_order() {
        let c = ProjectConfig::parse(
            "[defaults]\nk = 2\ntimeout = 5\n[functions.f]\nk = 3\nexternals = [\"g\"]\n\
             [functions.\"a.c:f\"]\ncriterion = \"branches\"\n",
        )
        .unwrap();
        let o = c.options_for("a.c", "f");
        assert_eq!((o.k, o.timeout, o.criterion.as_deref()), (Some(3), Some(5.0), Some("branches")));
        assert_eq!(o.externals, Some(vec!["g".to_string()]));
        assert_eq!(c.options_for("b.c", "f").criterion, None);
        assert_eq!(c.options_for("b.c", "h").k, Some(2));
    }

    #[test]
    fn mistakes_are_errors() {
        assert!(ProjectConfig::parse("[defaults]\nkk = 2\n").is_err());
        assert!(ProjectConfig::parse("[defaults]\nk = 0\n").is_err());
        assert!(ProjectConfig::parse("[functions.f]\ntimeout = -1\n").is_err());
        assert!(ProjectConfig::parse("[defaults\n").is_err());
    }
}
