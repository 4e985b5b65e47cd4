//! Typed `u32` entity references, printed as in the textual IR.

use std::fmt;

macro_rules! entity {
    ($name:ident, $prefix:expr, $doc:expr) => {
        #[doc = $doc]
        #[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
        pub struct $name(pub u32);

        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}{}", $prefix, self.0)
            }
        }
    };
}

entity!(Reg, "%", "A virtual register, assigned once (`%3`).");
entity!(Block, "bb", "A basic block of a function (`bb3`).");
entity!(Local, "$", "A stack slot of a function activation (`$3`).");
